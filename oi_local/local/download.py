"""Downloads from the Hugging Face Hub (or a mirror named by HF_ENDPOINT) with huggingface_hub.

- Disk space is checked before the first byte, against the size the hub announces.
- An interrupted download resumes: huggingface_hub keeps `<file>.<etag>.incomplete` under
  `<models>/.hub/.cache/huggingface/download/` and continues it with an HTTP Range request.
- The finished file is hashed and compared with the catalog's sha256, or, where the catalog has
  none, with the sha256 the hub publishes for the file (its LFS object id, sent as the ETag).
  A mismatch deletes the file. Only then is it renamed into the models folder.
- HF_HUB_OFFLINE=1 means no network at all: a clear error, never a hang.
"""
from __future__ import annotations

import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from oi_local._paths import models_dir
from oi_local.llm.backends.base import LLMError

if TYPE_CHECKING:
    from oi_local.local.models import ModelEntry, Progress

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_MARGIN = 64 * 1024 * 1024
HUB_DIR = ".hub"  # huggingface_hub's local_dir inside the models folder (partials live here)


def offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def endpoint() -> str:
    # Read at call time (huggingface_hub reads it once at import) so a mirror set later counts too.
    return (os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")


def hub_dir() -> Path:
    return models_dir() / HUB_DIR


def partial_files() -> list[Path]:
    """Unfinished downloads (hub `.incomplete` files and our own `.partial` files)."""
    found = [p for p in models_dir().glob("*.partial")] if models_dir().is_dir() else []
    cache = hub_dir() / ".cache" / "huggingface" / "download"
    if cache.is_dir():
        found += [p for p in cache.rglob("*.incomplete")]
    return sorted(found)


def _progress_class(progress: "Progress | None", label: str) -> Any:
    from huggingface_hub.utils import tqdm as hub_tqdm

    if progress is None:
        return None  # huggingface_hub's own tqdm bar on stderr

    class _Callback(hub_tqdm):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True  # our caller draws the bar
            super().__init__(*args, **kwargs)
            self._done = int(kwargs.get("initial") or 0)
            self._total = int(kwargs.get("total") or 0)
            progress(label, self._done, self._total)

        def update(self, n: float | None = 1) -> bool | None:
            self._done += int(n or 0)
            progress(label, self._done, self._total)
            return super().update(n)

    return _Callback


def _explain(exc: BaseException, where: str) -> LLMError:
    """One line for the user from whatever huggingface_hub / httpx raised."""
    name = type(exc).__name__
    text = " ".join(str(exc).split())
    if "RepositoryNotFound" in name or "EntryNotFound" in name or "RevisionNotFound" in name:
        return LLMError(f"{where} does not exist on the hub ({name}).")
    if "GatedRepo" in name or " 401 " in f" {text} " or " 403 " in f" {text} ":
        return LLMError(f"{where} needs a Hugging Face login (HF_TOKEN) or accepted license: {text[:200]}")
    if "Offline" in name:
        return LLMError(f"HF_HUB_OFFLINE is set, so {where} cannot be downloaded.")
    if any(k in name for k in ("Connect", "Timeout", "Network", "Protocol")) or "Connection" in text:
        return LLMError(f"Cannot reach the hub at {endpoint()} for {where} ({text[:160]}). "
                        "The partial download is kept and resumes next time.")
    return LLMError(f"Downloading {where} failed: {name}: {text[:240]}")


def hub_metadata(repo: str, filename: str, revision: str | None = None) -> tuple[int | None, str | None]:
    """(size, sha256) the hub announces for a file; sha256 is None for non-LFS files (git sha1 etag)."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url

    url = hf_hub_url(repo, filename, revision=revision, endpoint=endpoint())
    try:
        meta = get_hf_file_metadata(url, endpoint=endpoint(), timeout=15)
    except Exception as e:  # noqa: BLE001 - turned into one clear line
        raise _explain(e, f"{repo}/{filename}") from e
    etag = (meta.etag or "").lower()
    return meta.size, (etag if _SHA256.match(etag) else None)


def download_file(repo: str, filename: str, target: Path, *, sha256: str | None = None,
                  revision: str | None = None, progress: "Progress | None" = None) -> str:
    """Download repo/filename to `target`, verified. Returns the sha256. Raises LLMError."""
    where = f"{repo}/{filename}"
    if offline():
        raise LLMError(f"HF_HUB_OFFLINE is set, so {where} cannot be downloaded. Copy the file here by other "
                       f"means and run `interpreter --local_models import PATH.gguf`.")
    size, hub_sha = hub_metadata(repo, filename, revision)
    expected = (sha256 or hub_sha or "").lower() or None
    if expected is None:
        raise LLMError(f"The hub gives no sha256 for {where}, and the catalog has none: refusing an unverifiable file.")
    if sha256 and hub_sha and sha256.lower() != hub_sha:
        raise LLMError(f"The hub's file {where} (sha256 {hub_sha[:12]}…) is not the build the catalog lists "
                       f"({sha256[:12]}…). Nothing was downloaded.")
    target.parent.mkdir(parents=True, exist_ok=True)
    # A resumed download needs only the rest (huggingface_hub names partials by the file's etag).
    have = sum(p.stat().st_size for p in partial_files() if hub_sha and f".{hub_sha}." in p.name)
    if size:
        from oi_local.local.models import _check_space

        _check_space(target.parent, max(size - have, 0) + _MARGIN)
    from huggingface_hub import hf_hub_download

    try:
        got = Path(hf_hub_download(repo, filename, revision=revision, local_dir=hub_dir(), endpoint=endpoint(),
                                   tqdm_class=_progress_class(progress, f"downloading {filename}")))
    except Exception as e:  # noqa: BLE001
        raise _explain(e, where) from e
    from oi_local.local.models import sha256_file

    if progress:
        progress(f"checking {filename}", 0, got.stat().st_size)
    actual = sha256_file(got)
    if actual != expected:
        _discard(got, filename)
        raise LLMError(f"The download of {where} is corrupt (sha256 {actual[:16]}…, expected {expected[:16]}…). "
                       "It was deleted; try again.")
    os.replace(got, target)
    _discard(None, filename)
    return actual


def _discard(path: Path | None, filename: str) -> None:
    """Remove a downloaded file and huggingface_hub's note that it is complete."""
    if path is not None:
        path.unlink(missing_ok=True)
    meta = hub_dir() / ".cache" / "huggingface" / "download" / f"{filename}.metadata"
    meta.unlink(missing_ok=True)


def fetch_hub(entry: "ModelEntry", source: dict[str, Any], target: Path, progress: "Progress | None" = None) -> None:
    """models.fetch's hub source: download, verify, record in the manifest."""
    from oi_local.local import store

    sha = download_file(source["repo"], source["filename"], target, sha256=source.get("sha256") or entry.sha256,
                        revision=source.get("revision"), progress=progress)
    store.record(target.name, id=entry.id, source=f"hf:{source['repo']}/{source['filename']}", sha256=sha,
                 size=target.stat().st_size)


@contextmanager
def progress_bar(description: str = "") -> Iterator[Callable[[str, int, int], None]]:
    """A rich progress bar on stderr, as a `Progress` callback (stage, done, total)."""
    from rich.console import Console
    from rich.progress import (BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn,
                               TransferSpeedColumn)

    bar = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=False)
    task = bar.add_task(description, total=None)

    def update(stage: str, done: int, total: int) -> None:
        bar.update(task, description=stage, completed=done, total=total or None)

    with bar:
        yield update


def disk_free(path: Path | None = None) -> int:
    p = Path(path or models_dir())
    while not p.exists() and p != p.parent:
        p = p.parent
    return shutil.disk_usage(p).free
