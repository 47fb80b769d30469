"""Undo of the file changes a run made in the working folder (`%undo files`).

Before each run the working folder is copied into a snapshot folder (outside the working folder,
inside this program's own folder, which code cannot see). A file unchanged since the previous
snapshot (same size and mtime) is not copied again, so the usual cost is one walk of the folder.
Folders above the caps are not snapshot at all (the run says nothing; `%undo files` says why).
Hard links would be free but useless: code that rewrites a file in place changes the linked copy.
"""
from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field

MAX_FILES = 2000
MAX_BYTES = 64 << 20
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", ".mypy_cache", ".pytest_cache"}


@dataclass
class Snapshot:
    root: str  # the working folder
    store: str  # where the copies are
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # relative path -> (size, mtime_ns)
    dirs: set[str] = field(default_factory=set)
    too_big: str = ""  # why there is no snapshot
    took: float = 0.0


def _walk(root: str) -> tuple[dict[str, tuple[int, int]], set[str], str]:
    files: dict[str, tuple[int, int]] = {}
    dirs: set[str] = set()
    total = 0
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            entries = list(os.scandir(os.path.join(root, rel) if rel else root))
        except OSError:
            continue
        for e in entries:
            r = f"{rel}/{e.name}" if rel else e.name
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name not in SKIP_DIRS:
                        dirs.add(r)
                        stack.append(r)
                elif e.is_file(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    files[r] = (st.st_size, st.st_mtime_ns)
                    total += st.st_size
                    if len(files) > MAX_FILES or total > MAX_BYTES:
                        return {}, set(), (f"the working folder has more than {MAX_FILES} files or "
                                           f"{MAX_BYTES >> 20} MB")
            except OSError:
                continue
    return files, dirs, ""


def take(root: str, store: str, previous: Snapshot | None = None) -> Snapshot:
    t0 = time.perf_counter()
    files, dirs, too_big = _walk(root)
    snap = Snapshot(root, store, files, dirs, too_big)
    if too_big:
        shutil.rmtree(store, ignore_errors=True)
        snap.took = time.perf_counter() - t0
        return snap
    reuse = previous is not None and previous.root == root and previous.store == store and not previous.too_big
    if not reuse:
        shutil.rmtree(store, ignore_errors=True)
        os.makedirs(store, exist_ok=True)
    old = previous.files if reuse and previous is not None else {}
    for rel, sig in files.items():
        if old.get(rel) == sig:
            continue  # the copy from the previous snapshot is still this file
        dst = os.path.join(store, rel)
        try:
            os.makedirs(os.path.dirname(dst) or store, exist_ok=True)
            shutil.copy2(os.path.join(root, rel), dst)
        except OSError:
            snap.files.pop(rel, None)
    for rel in set(old) - set(files):  # gone since: drop its stale copy
        try:
            os.unlink(os.path.join(store, rel))
        except OSError:
            pass
    snap.took = time.perf_counter() - t0
    return snap


def changes(snap: Snapshot) -> tuple[list[str], list[str], list[str]]:
    """(changed, deleted, created) relative paths since the snapshot."""
    now, _, too_big = _walk(snap.root)
    if too_big:
        now = {}
    changed = sorted(r for r in now if r in snap.files and now[r] != snap.files[r])
    deleted = sorted(r for r in snap.files if r not in now)
    created = sorted(r for r in now if r not in snap.files)
    return changed, deleted, created


def restore(snap: Snapshot) -> tuple[list[str], list[str], list[str]]:
    """Put the working folder back as it was at the snapshot. Returns what was restored
    (changed, deleted, created) so the user is told."""
    changed, deleted, created = changes(snap)
    for rel in changed + deleted:
        dst = os.path.join(snap.root, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst) and not os.path.isfile(dst):
            shutil.rmtree(dst, ignore_errors=True)
        shutil.copy2(os.path.join(snap.store, rel), dst)
    for rel in created:
        try:
            os.unlink(os.path.join(snap.root, rel))
        except OSError:
            pass
    made = set()
    for r in created:
        d = os.path.dirname(r)
        while d and d not in snap.dirs:
            made.add(d)
            d = os.path.dirname(d)
    for rel in sorted(made, key=len, reverse=True):
        try:
            os.rmdir(os.path.join(snap.root, rel))  # folders the run made, once empty
        except OSError:
            pass
    return changed, deleted, created
