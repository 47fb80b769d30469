"""computer.files: find files by name and by the text in them, on the local disk (no index)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".cache", ".tox", ".mypy_cache"}
MAX_BYTES = 2_000_000  # larger files are matched by name only


class Files:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    def search(self, query: str, path: str | None = None, max_results: int = 50) -> list[str]:
        """Files under `path` (default: the working folder) whose name or text contains `query`
        (case ignored). Each result is `path` (a name match) or `path:line: text`."""
        q = str(query).lower()
        root = Path(path or ".").expanduser()
        if not root.exists():
            raise FileNotFoundError(f"no such folder: {root}")
        results: list[str] = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
            for name in sorted(names):
                p = Path(folder) / name
                if q in name.lower():
                    results.append(str(p))
                elif (hit := _in_text(p, q)) is not None:
                    results.append(f"{p}:{hit[0]}: {hit[1]}")
                if len(results) >= max_results:
                    return results
        return results


def _in_text(p: Path, q: str) -> tuple[int, str] | None:
    try:
        if p.stat().st_size > MAX_BYTES:
            return None
        data = p.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:4096]:  # binary
        return None
    text = data.decode("utf-8", "replace")
    for n, line in enumerate(text.splitlines(), 1):
        if q in line.lower():
            return n, line.strip()[:200]
    return None
