"""Open code in the user's $EDITOR before running it."""
from __future__ import annotations

import os
import shlex
import subprocess
import tempfile

SUFFIX = {"python": ".py", "shell": ".sh", "javascript": ".js"}


def edit_code(code: str, language: str) -> str:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "nano"
    fd, path = tempfile.mkstemp(suffix=SUFFIX.get(language, ".txt"), prefix="oi-edit-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(code)
        subprocess.call(shlex.split(editor) + [path])
        with open(path) as f:
            return f.read().rstrip("\n")
    finally:
        os.unlink(path)
