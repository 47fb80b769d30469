"""The record of what is in the models folder: where each file came from, its checked sha256,
and when it was last used. One small JSON file, written atomically, so a crash mid-write
leaves the previous record intact.
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from oi_local._paths import models_dir

MANIFEST = "manifest.json"


def manifest_path() -> Path:
    return models_dir() / MANIFEST


def load() -> dict[str, dict[str, Any]]:
    """{file name: record}. A missing or unreadable manifest is an empty one (files still list)."""
    try:
        data = json.loads(manifest_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def _save(data: dict[str, dict[str, Any]]) -> None:
    path = manifest_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".manifest-", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def record(file: str, **fields: Any) -> dict[str, Any]:
    """Add or update the record of `file` (a name in the models folder)."""
    data = load()
    rec = data.get(file, {"added": time.time()})
    rec.update({k: v for k, v in fields.items() if v is not None})
    data[file] = rec
    _save(data)
    return rec


def forget(file: str) -> None:
    data = load()
    if data.pop(file, None) is not None:
        _save(data)


def touch(path: str | os.PathLike[str]) -> None:
    """Mark a model as used now (for `--local_models list` and pruning decisions)."""
    p = Path(path)
    try:
        inside = p.resolve().parent == models_dir().resolve()
    except OSError:
        return
    if inside and p.exists():
        record(p.name, last_used=time.time())
