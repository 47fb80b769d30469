"""`interpreter --local_models ...`: list, remove, verify, prune, path, import, download, catalog, bundle.

Every command is also a plain function for Python use:

    from oi_local.local import manage
    manage.list_models(); manage.verify(); manage.prune(); manage.import_model("x.gguf")
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from oi_local._paths import models_dir
from oi_local.errors import LLMError
from oi_local.local import store

_MODEL_SUFFIXES = (".gguf", ".llamafile")
_MB = 1024 * 1024  # slack only; sizes shown to users go through sizes.py


def path() -> Path:
    return models_dir()


def _files() -> list[Path]:
    d = models_dir()
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.is_file() and p.suffix.lower() in _MODEL_SUFFIXES)


def list_models() -> list[dict[str, Any]]:
    """One dict per model file: file, path, size, id, source, sha256, added, last_used, partial=False."""
    from oi_local.local.models import load_catalog

    by_file = {e.file: e.id for e in load_catalog()}
    records = store.load()
    out = []
    for p in _files():
        rec = records.get(p.name, {})
        out.append({"file": p.name, "path": str(p), "size": p.stat().st_size, "id": rec.get("id") or by_file.get(p.name),
                    "source": rec.get("source"), "sha256": rec.get("sha256"),
                    "added": rec.get("added"), "last_used": rec.get("last_used")})
    return out


def _find(name: str) -> Path:
    """A model file by file name, catalog id/alias, or recorded id."""
    for p in _files():
        if p.name == name or p.stem == name:
            return p
    records = store.load()
    for file, rec in records.items():
        if rec.get("id") == name and (models_dir() / file).is_file():
            return models_dir() / file
    try:
        from oi_local.local.models import get_entry, model_path

        p = model_path(get_entry(name))
        if p.is_file():
            return p
    except LLMError:
        pass
    have = ", ".join(p.name for p in _files()) or "none"
    raise LLMError(f"No downloaded model called {name!r}. Downloaded: {have}.")


def remove(name: str) -> Path:
    p = _find(name)
    p.unlink()
    store.forget(p.name)
    return p


def verify(name: str | None = None) -> dict[str, str]:
    """{file: "ok" | "corrupt: ..." | "unverifiable: ..."} for one model or all of them."""
    from oi_local.local.models import get_entry, known_checksums, sha256_file

    targets = [_find(name)] if name else _files()
    records = store.load()
    results: dict[str, str] = {}
    for p in targets:
        rec = records.get(p.name, {})
        expected: set[str] = set()
        try:
            entry = get_entry(rec.get("id") or p.name)
            if entry.file == p.name:
                expected = known_checksums(entry)
        except LLMError:
            pass
        if not expected and rec.get("sha256"):
            expected = {rec["sha256"]}
        if not expected:
            results[p.name] = "unverifiable: no recorded checksum"
            continue
        actual = sha256_file(p)
        want = sorted(expected)[0]
        results[p.name] = "ok" if actual in expected else f"corrupt: sha256 {actual[:16]}… expected {want[:16]}…"
    return results


def prune() -> list[Path]:
    """Delete partial downloads and records of files that are gone. Returns what was deleted."""
    from oi_local.local.download import partial_files, remove_partial

    removed = []
    for p in partial_files():
        if remove_partial(p):
            removed.append(p)
    present = {p.name for p in _files()}
    for file in list(store.load()):
        if file not in present:
            store.forget(file)
    return removed


def check_loads(p: Path, timeout: float = 180.0) -> None:
    """Load the model for real, in a child process (a bad file can crash llama.cpp), and
    tokenize a word. Raises LLMError with the reason."""
    from oi_local.local.gguf import read_metadata

    read_metadata(p)  # quick, clear error for non-GGUF and truncated headers
    code = (
        "import sys\n"
        "from oi_local.local.llama_safety import apply_cpu_workarounds\n"
        "apply_cpu_workarounds()\n"
        "import llama_cpp\n"
        "llm = llama_cpp.Llama(model_path=sys.argv[1], n_ctx=256, n_gpu_layers=0, verbose=False)\n"
        "assert llm.tokenize(b'hello')\n"
        "print('ok')\n"
    )
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(x for x in (root, env.get("PYTHONPATH", "")) if x)
    try:
        proc = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        raise LLMError(f"{p.name} did not load within {timeout:g} s.") from None
    if proc.returncode != 0 or "ok" not in proc.stdout:
        lines = [ln for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()]
        why = lines[-1].strip() if lines else f"exit code {proc.returncode}"
        if proc.returncode < 0:
            why = f"llama.cpp crashed (signal {-proc.returncode})"
        raise LLMError(f"{p.name} is not a loadable model: {why}")


def import_model(src: str | os.PathLike[str], *, link: bool = False, check: bool = True) -> Path:
    """Copy (or symlink) a GGUF/llamafile into the models folder, check it loads, record it.

    The copy is written to a `.partial` name and renamed only after the checks pass, so a
    failed import leaves nothing behind."""
    from oi_local.local.models import _check_space, copy_hashing, sha256_file

    s = Path(src).expanduser().resolve()
    if not s.is_file():
        raise LLMError(f"No such file: {s}")
    if s.suffix.lower() not in _MODEL_SUFFIXES:
        raise LLMError(f"{s.name} is not a .gguf or .llamafile file.")
    d = models_dir()
    d.mkdir(parents=True, exist_ok=True)
    target = d / s.name
    if target.exists() or target.is_symlink():
        raise LLMError(f"{target.name} is already in {d}; remove it first with `--local_models remove {target.name}`.")
    from oi_local.local.models import entry_for_file, known_checksums, remember_verified

    entry = None
    if s.suffix.lower() == ".gguf":
        from oi_local.local.gguf import check_structure

        meta = check_structure(s)  # milliseconds: a cut or spliced file is refused before any copy
        entry = entry_for_file(s, meta)
        if check:
            check_loads(s)
    if link:
        sha = sha256_file(s)
        target.symlink_to(s)
    else:
        _check_space(d, s.stat().st_size + 64 * _MB)
        partial = target.with_name(target.name + ".partial")
        try:
            sha = copy_hashing(s, partial)
            partial.replace(target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    if s.suffix.lower() == ".llamafile":
        target.chmod(target.stat().st_mode | 0o111)
    sums = known_checksums(entry) if entry else set()
    if entry is not None and sums and sha not in sums:
        target.unlink()  # a catalog file that is not the published one: damaged or tampered
        raise LLMError(f"{s.name} does not match the published sha256 of {entry.id}: the file is damaged "
                       f"or not that model. Get a good copy (`interpreter --local_models download {entry.id}` "
                       "where the network allows), or import it under another name if it is a different model.")
    known = entry.id if entry else target.stem
    store.record(target.name, id=known, source=f"{'link' if link else 'import'}:{s}", sha256=sha,
                 size=target.stat().st_size)
    remember_verified(target)  # checked just now: the first start does not hash it again
    return target


def download(model_id: str, quiet: bool = False) -> Path:
    from oi_local.local.models import fetch, get_entry, is_installed, model_path

    entry = get_entry(model_id if model_id != "default" else _default())
    if is_installed(entry):
        return model_path(entry)
    if quiet:
        return fetch(entry)
    from oi_local.local.download import progress_bar

    with progress_bar(f"{entry.id}") as bar:
        return fetch(entry, progress=bar)


def _default() -> str:
    from oi_local.local.models import default_model_id

    return default_model_id()


# -- command line -----------------------------------------------------------------------------------


def _when(ts: Any) -> str:
    if not ts:
        return "never"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(float(ts)))


def _print_list() -> None:
    rows = list_models()
    partial = prune_candidates()
    if not rows:
        print(f"No models yet in {models_dir()}. Get one with `interpreter --local` or "
              f"`interpreter --local_models download {_default()}`.")
        if partial:
            print(f"{len(partial)} unfinished download(s): downloading again goes on from them; "
                  "`interpreter --local_models prune` deletes them.")
        return
    from oi_local.local.sizes import size, source_label

    width = max(len(r["file"]) for r in rows)
    print(f"{'model'.ljust(width)}  {'size':>9}  {'last used':16}  source")
    for r in rows:
        print(f"{r['file'].ljust(width)}  {size(r['size']):>9}  {_when(r['last_used']):16}  {source_label(r['source'])}")
    if partial:
        print(f"{len(partial)} unfinished download(s): downloading again goes on from them; "
              "`interpreter --local_models prune` deletes them.")


def prune_candidates() -> list[Path]:
    from oi_local.local.download import partial_files

    return partial_files()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="interpreter --local_models", description="Manage downloaded local models.")
    sub = p.add_subparsers(dest="cmd")
    sub.add_parser("list", help="models with size, source and last use (the default)")
    r = sub.add_parser("remove", help="delete a model")
    r.add_argument("name")
    v = sub.add_parser("verify", help="re-check sha256 checksums")
    v.add_argument("name", nargs="?")
    sub.add_parser("prune", help="delete unfinished downloads")
    sub.add_parser("path", help="print the models folder")
    i = sub.add_parser("import", help="add a GGUF you copied here (air-gapped machines)")
    i.add_argument("file")
    i.add_argument("--link", action="store_true", help="symlink instead of copying")
    d = sub.add_parser("download", help="fetch a catalog model ('default' for the default one)")
    d.add_argument("model")
    sub.add_parser("catalog", help="the models we know, and how they would run here")
    b = sub.add_parser("bundle", help="write an offline installer folder: wheels, models, installers")
    b.add_argument("dir", help="the folder to write (new, or an older bundle to refresh)")
    b.add_argument("models", nargs="*", help="catalog ids to include (default: the default model)")
    b.add_argument("--no-models", action="store_true", help="wheels and installers only")
    b.add_argument("--platform", help="pip platform tag of the target, e.g. manylinux_2_28_x86_64, win_amd64")
    b.add_argument("--python-version", help="the target's Python, e.g. 3.12 (default: this one)")
    b.add_argument("--extras", help="oi-local extras to include (default: local,server,safe,plots)")
    b.add_argument("--llama-wheel", help="a llama-cpp-python wheel built for the target")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(list(argv or []))
    try:
        if args.cmd in (None, "list"):
            _print_list()
        elif args.cmd == "path":
            print(path())
        elif args.cmd == "remove":
            print(f"Removed {remove(args.name)}")
        elif args.cmd == "verify":
            results = verify(args.name)
            if not results:
                print("No models to verify.")
            for file, result in results.items():
                print(f"{file}: {result}")
            return 1 if any(r.startswith("corrupt") for r in results.values()) else 0
        elif args.cmd == "prune":
            gone = prune()
            print(f"Deleted {len(gone)} unfinished download(s)." if gone else "Nothing to prune.")
        elif args.cmd == "import":
            target = import_model(args.file, link=args.link)
            print(f"Imported {target.name} into {target.parent} (it loads).")
        elif args.cmd == "download":
            print(download(args.model))
        elif args.cmd == "catalog":
            _print_catalog()
        elif args.cmd == "bundle":
            from oi_local.local import bundle

            return bundle.main(args)
    except LLMError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Interrupted; an unfinished download resumes next time.", file=sys.stderr)
        return 130
    return 0


def _print_catalog() -> None:
    from oi_local.local.hardware import detect
    from oi_local.local.recommend import recommend
    from oi_local.local.sizes import size

    hw = detect()
    for line in hw.summary():
        print(line)
    plans = {p.entry.id: p for p in recommend(hw)}
    from oi_local.local.models import load_catalog

    for e in load_catalog():
        p = plans.get(e.id)
        print(f"{e.id:26} {e.parameters:>5} {size(e.size_bytes):>9}  "
              + (p.line() if p else "does not fit in this machine's memory"))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
