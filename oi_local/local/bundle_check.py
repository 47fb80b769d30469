"""Check an offline bundle before installing from it: every file against the manifest's sha256,
and the bundle's target (OS, CPU architecture, Python version) against the Python that will run it.

Standard library only: the installers copy this file into each bundle as `check_bundle.py` and run
it with whatever Python they found, before any virtual environment exists.

    python check_bundle.py BUNDLE_DIR            # exit 0 = good; else one line on stderr, exit 2
"""
from __future__ import annotations

import hashlib
import json
import platform
import sys
from pathlib import Path

MANIFEST = "bundle.json"
# pip platform tags and platform.machine() spell the same CPU differently.
_MACHINES = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64", "armv8": "arm64", "i686": "x86", "win32": "x86"}


def norm_machine(name: str) -> str:
    n = name.strip().lower()
    return _MACHINES.get(n, n)


def target_of_tag(tag: str) -> tuple[str, str]:
    """(system, machine) for a pip platform tag such as manylinux_2_28_x86_64, macosx_11_0_arm64, win_amd64."""
    t = tag.lower()
    system = "Windows" if t.startswith("win") else "Darwin" if t.startswith("macosx") else "Linux"
    for machine in ("x86_64", "aarch64", "arm64", "amd64", "universal2", "i686", "win32"):
        if t.endswith(machine):
            return system, norm_machine(machine)
    return system, norm_machine(t.rsplit("_", 1)[-1])


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def check(folder: Path, system: str | None = None, machine: str | None = None,
          python: str | None = None) -> dict:
    """The manifest, if the bundle is whole and made for this machine; else ValueError(one line)."""
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise ValueError(f"{folder} is not an oi-local bundle (no {MANIFEST}); make one with "
                         "`interpreter --local_models bundle DIR`")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except ValueError as e:
        raise ValueError(f"{manifest_path} is damaged: {e}") from None
    target = manifest.get("target") or {}
    system = system or platform.system()
    machine = norm_machine(machine or platform.machine())
    python = python or f"{sys.version_info[0]}.{sys.version_info[1]}"
    want = f"{target.get('system')} {target.get('machine')}, Python {target.get('python')}"
    have = f"{system} {machine}, Python {python}"
    if (target.get("system"), norm_machine(str(target.get("machine")))) != (system, machine):
        raise ValueError(f"this bundle was made for {want}; this machine is {have}. Make a bundle for it with "
                         f"`interpreter --local_models bundle DIR --platform TAG --python-version {python}`")
    if str(target.get("python")) != python:
        raise ValueError(f"this bundle was made for {want}; the Python found here is {python}. Install Python "
                         f"{target.get('python')} (or point PYTHON= at it), or make a bundle with --python-version {python}")
    bad = []
    for rel, info in sorted((manifest.get("files") or {}).items()):
        p = folder / rel
        if not p.is_file():
            bad.append(f"{rel} is missing")
        elif p.stat().st_size != info.get("size") or sha256_of(p) != info.get("sha256"):
            bad.append(f"{rel} is damaged (size or sha256 differs)")
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise ValueError(f"the bundle in {folder} is incomplete: {bad[0]}{more}; copy it again")
    return manifest


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: check_bundle.py BUNDLE_DIR", file=sys.stderr)
        return 2
    try:
        manifest = check(Path(argv[0]))
    except ValueError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 2
    n = len(manifest.get("files") or {})
    print(f"Bundle checked: {n} files, sha256 of each as recorded; made for "
          f"{manifest['target']['system']} {manifest['target']['machine']}, Python {manifest['target']['python']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
