"""`interpreter --local_models bundle DIR [MODEL...]`: everything an offline machine needs, in one folder.

    DIR/wheels/          oi-local and every dependency as wheels, for one platform and Python,
                         including a prebuilt llama-cpp-python (so the target needs no compiler)
    DIR/models/          the chosen GGUF files
    DIR/install.sh, install.ps1, check_bundle.py
    DIR/bundle.json      the target, the extras, the models, and size + sha256 of every file

On the offline machine: `DIR/install.sh --from DIR` (Windows: `DIR\\install.ps1 -From DIR`) checks
every file and the target, then `pip install --no-index --find-links DIR/wheels`.

llama-cpp-python is only published as source, so the bundle carries a wheel built once:
--llama-wheel PATH, else one this command built before (the oi-local cache folder), else the one
pip built for this venv (pip's wheel cache; a native build for this CPU), else a portable CPU
build made now (minutes). A bundle for another platform needs --llama-wheel built there.
"""
from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

from oi_local.errors import LLMError
from oi_local.local import bundle_check, pip_run

DEFAULT_EXTRAS = ("local", "server", "safe", "plots")
PORTABLE_CMAKE = "-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
_ROOT = Path(__file__).resolve().parents[2]
_WHEEL = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)(-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")


def cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("oi-local", appauthor=False)) / "wheels"


def _pip(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = pip_run.run(args, env=env)
    if proc.returncode != 0:
        raise LLMError(f"pip {args[0]} failed: {pip_run.reason(proc.stderr or proc.stdout, proc.returncode)}")
    return proc


def _py_tag(python: str) -> str:
    return "cp" + python.replace(".", "")


def _wheel_fits(path: Path, python: str) -> bool:
    """A wheel for this Python (cp311) or any Python 3 (py3: llama-cpp-python loads its library by ctypes)."""
    m = _WHEEL.match(path.name)
    return bool(m) and bool({_py_tag(python), "py3"} & set(m["py"].split(".")))


def _llama_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("llama-cpp-python")
    except Exception:  # noqa: BLE001 - not installed
        return None


def find_llama_wheel(python: str, explicit: str | os.PathLike[str] | None = None,
                     build: bool = True, log: Callable[[str], None] = print) -> tuple[Path, str]:
    """(a llama-cpp-python wheel for this platform and `python`, how it was built)."""
    if explicit:
        p = Path(explicit).expanduser()
        if not p.is_file() or not p.name.startswith("llama_cpp_python-"):
            raise LLMError(f"--llama-wheel {p}: not a llama_cpp_python-*.whl file")
        return p, "given (--llama-wheel)"
    want = _llama_version()
    prefix = f"llama_cpp_python-{want}-" if want else "llama_cpp_python-"
    for p in sorted(cache_dir().glob("llama_cpp_python-*.whl"), reverse=True):
        if p.name.startswith(prefix) and _wheel_fits(p, python):
            return p, "portable CPU build (oi-local's wheel cache)"
    try:
        listed = _pip("cache", "list", "llama_cpp_python", "--format=abspath").stdout.split()
    except LLMError:
        listed = []
    for raw in sorted(listed, reverse=True):
        p = Path(raw)
        if p.name.startswith(prefix) and _wheel_fits(p, python):
            return p, "this machine's own build (pip's wheel cache; tuned for this CPU)"
    if not build:
        raise LLMError("no built llama-cpp-python wheel found (pass --llama-wheel)")
    out = cache_dir()
    out.mkdir(parents=True, exist_ok=True)
    req = f"llama-cpp-python=={want}" if want else "llama-cpp-python>=0.3.16"
    log(f"Building {req} once, for any x86/ARM CPU of this kind (CMAKE_ARGS={PORTABLE_CMAKE}); "
        "this takes several minutes and is kept in " + str(out))
    env = dict(os.environ, CMAKE_ARGS=PORTABLE_CMAKE, FORCE_CMAKE="1")
    _pip("wheel", "--no-deps", "--no-cache-dir", "-w", str(out), req, env=env)
    built = sorted(out.glob("llama_cpp_python-*.whl"), key=lambda p: p.stat().st_mtime)
    if not built:
        raise LLMError("pip wheel finished but left no llama_cpp_python wheel")
    return built[-1], "portable CPU build (built now)"


def _oi_local_wheel(wheels: Path, platform_args: list[str]) -> Path:
    from oi_local import __version__

    before = set(wheels.glob("oi_local-*.whl"))
    if (_ROOT / "pyproject.toml").is_file() and (_ROOT / "oi_local").is_dir():
        _pip("wheel", "--no-deps", "-q", "-w", str(wheels), str(_ROOT))
    else:  # installed from a wheel: take the published one
        _pip("download", "--no-deps", "-q", "-d", str(wheels), *platform_args, f"oi-local=={__version__}")
    new = sorted(set(wheels.glob("oi_local-*.whl")) - before) or sorted(wheels.glob(f"oi_local-{__version__}-*.whl"))
    if not new:
        raise LLMError("could not build the oi-local wheel")
    return new[-1]


def _target(platform_tag: str | None, python: str | None) -> dict[str, str]:
    py = python or f"{sys.version_info[0]}.{sys.version_info[1]}"
    if not re.fullmatch(r"3\.\d+", py):
        raise LLMError(f"--python-version must look like 3.11 (not {py!r})")
    if platform_tag:
        system, machine = bundle_check.target_of_tag(platform_tag)
        return {"system": system, "machine": machine, "python": py, "platform_tag": platform_tag}
    return {"system": platform.system(), "machine": bundle_check.norm_machine(platform.machine()), "python": py}


def _native(target: dict[str, str]) -> bool:
    here = _target(None, None)
    return all(target[k] == here[k] for k in ("system", "machine", "python"))


def _add_models(dest: Path, models: Sequence[str], log: Callable[[str], None]) -> list[dict]:
    from oi_local.local import manage
    from oi_local.local.models import copy_hashing, get_entry, known_checksums

    out = []
    folder = dest / "models"
    for name in models:
        entry = get_entry(manage._default() if name == "default" else name)
        src = manage.download(entry.id, quiet=True)  # the file already here, else fetched now
        folder.mkdir(exist_ok=True)
        log(f"Adding the model {entry.id} ({src.stat().st_size / 1e6:.0f} MB)")
        target = folder / entry.file
        sha = copy_hashing(src, target)
        sums = known_checksums(entry)
        if sums and sha not in sums:
            target.unlink()
            raise LLMError(f"{src} does not match the published sha256 of {entry.id}: not bundling a damaged model")
        out.append({"id": entry.id, "file": f"models/{entry.file}", "sha256": sha, "size": target.stat().st_size})
        proj = entry.projector
        if proj is not None:  # a vision model's image projector travels with it (not a model: never "imported")
            from oi_local.local.models import model_path

            (dest / "projectors").mkdir(exist_ok=True)
            log(f"Adding its image projector {proj.file}")
            ptarget = dest / "projectors" / proj.file
            psha = copy_hashing(model_path(proj), ptarget)
            out.append({"id": proj.id, "file": f"projectors/{proj.file}", "sha256": psha, "size": ptarget.stat().st_size})
    return out


def make_bundle(dest: str | os.PathLike[str], models: Sequence[str] = ("default",), *,
                platform_tag: str | None = None, python_version: str | None = None,
                extras: Sequence[str] = DEFAULT_EXTRAS, llama_wheel: str | os.PathLike[str] | None = None,
                log: Callable[[str], None] = print) -> dict:
    """Write the bundle into `dest` (new or an older bundle) and return its manifest."""
    from oi_local import __version__
    from oi_local._paths import bundled

    started = time.monotonic()
    dest = Path(dest).expanduser().resolve()
    if dest.exists() and any(dest.iterdir()) and not (dest / bundle_check.MANIFEST).is_file():
        raise LLMError(f"{dest} is not empty and not a bundle: choose a new folder")
    target = _target(platform_tag, python_version)
    native = _native(target)
    if not native and not llama_wheel:
        raise LLMError(f"a bundle for {target['system']} {target['machine']}, Python {target['python']} needs a "
                       "llama-cpp-python wheel built for it: build one there (`pip wheel llama-cpp-python`) "
                       "and pass --llama-wheel PATH")
    platform_args = [] if native and not platform_tag else \
        ["--only-binary=:all:", "--python-version", target["python"]] + (["--platform", platform_tag] if platform_tag else [])
    wheels = dest / "wheels"
    if wheels.exists():
        shutil.rmtree(wheels)  # a rebuilt bundle must not keep wheels of an older resolve
    wheels.mkdir(parents=True)
    (dest / bundle_check.MANIFEST).unlink(missing_ok=True)

    llama_path, llama_build = find_llama_wheel(target["python"], llama_wheel, log=log)
    shutil.copy2(llama_path, wheels / llama_path.name)
    llama_version = _WHEEL.match(llama_path.name)["version"]
    log(f"llama-cpp-python {llama_version}: {llama_build}")
    ours = _oi_local_wheel(wheels, platform_args)
    log(f"Downloading the dependencies of {ours.name}[{','.join(extras)}] for "
        f"{target['system']} {target['machine']}, Python {target['python']}")
    _pip("download", "-q", "-d", str(wheels), "--find-links", str(wheels), *platform_args,
         f"{ours}[{','.join(extras)}]" if extras else str(ours), f"llama-cpp-python=={llama_version}")
    # Source-only packages become wheels now, so the offline machine never needs a build backend.
    for sdist in [p for p in wheels.iterdir() if p.suffix != ".whl"]:
        if not native:
            raise LLMError(f"{sdist.name} has no wheel for the target platform; make this bundle on that platform")
        _pip("wheel", "--no-deps", "-q", "-w", str(wheels), str(sdist))
        sdist.unlink()

    model_records = _add_models(dest, models, log) if models else []
    installers = bundled("installers")
    for name in ("install.sh", "install.ps1"):
        shutil.copy2(installers / name, dest / name)
    shutil.copy2(Path(bundle_check.__file__), dest / "check_bundle.py")
    (dest / "README.txt").write_text(
        "oi-local offline bundle. Install with no network:\n"
        f"  Linux/macOS: bash install.sh --from {dest.name}\n"
        f"  Windows:     powershell -ExecutionPolicy Bypass -File {dest.name}\\install.ps1 -From {dest.name}\n",
        encoding="utf-8")

    files = {}
    for p in sorted(dest.rglob("*")):
        if p.is_file() and p.name != bundle_check.MANIFEST:
            files[p.relative_to(dest).as_posix()] = {"size": p.stat().st_size, "sha256": bundle_check.sha256_of(p)}
    manifest = {
        "format": 1,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "oi_local": __version__,
        "extras": list(extras),
        "target": target,
        "llama_cpp_python": {"version": llama_version, "build": llama_build, "wheel": f"wheels/{llama_path.name}"},
        "models": model_records,
        "files": files,
    }
    tmp = dest / (bundle_check.MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    tmp.replace(dest / bundle_check.MANIFEST)
    total = sum(f["size"] for f in files.values())
    log(f"Bundle ready in {dest}: {len(files)} files, {total / 1e6:.0f} MB, {time.monotonic() - started:.0f} s. "
        f"On the offline machine: bash {dest.name}/install.sh --from {dest.name}")
    return manifest


def bundle_size(manifest: dict) -> int:
    return sum(f["size"] for f in manifest["files"].values())


def main(args) -> int:  # called by manage.main with parsed arguments
    extras = tuple(x for x in (args.extras or ",".join(DEFAULT_EXTRAS)).split(",") if x)
    models = [] if args.no_models else (args.models or ["default"])
    make_bundle(args.dir, models,
                platform_tag=args.platform, python_version=args.python_version, extras=extras,
                llama_wheel=args.llama_wheel)
    return 0

