"""Failures that different code cannot fix: the network or a server is not there, a program is not
installed, a file is damaged or empty, the user's own script needs a package that is not installed.

After such a failure a fresh attempt (core/rules/fresh_retries.py) or a standard-library rewrite
(core/rules/missing_module.py) only gives a small model the chance to make something up: asked
again, the 0.5B model replaced a missing in-house package with code that printed nothing and
answered "The code ran and printed nothing." The honest answer is the failure itself.
"""
from __future__ import annotations

import os
import re

_KINDS = (
    ("the network or server could not be reached", re.compile(
        r"ConnectionRefusedError|Connection refused|URLError|gaierror|Name or service not known|"
        r"Temporary failure in name resolution|Network is unreachable|No route to host|Max retries exceeded|"
        r"Could not resolve host|Failed to connect", re.I)),
    ("a program it needs is not installed", re.compile(
        r"command not found|^\S+: \d+: \S+: not found$|No such file or directory: '[\w-]+'$", re.M)),
    ("the file is damaged or empty", re.compile(
        r"BadZipFile|not a zip file|file is not a database|database disk image is malformed|"
        r"Excel file format cannot be determined|No columns to parse from file|EmptyDataError|"
        r"cannot identify image file|EOF marker not found", re.I)),
)
_MODULE = re.compile(r"No module named '([\w.]+)'")
MAX_SCRIPTS = 50  # .py files looked at in the working folder


def users_module(output: str, cwd: str | None = None) -> str | None:
    """The missing module, when a script of the user's (a .py file in the working folder) imports it:
    their own dependency, which no rewrite can stand in for."""
    m = _MODULE.search(output)
    if not m:
        return None
    name = m.group(1).split(".")[0]
    pattern = re.compile(rf"^\s*(?:from\s+{re.escape(name)}[\s.]|import\s+{re.escape(name)}\b)", re.M)
    try:
        entries = sorted(os.scandir(cwd or os.getcwd()), key=lambda e: e.name)[:MAX_SCRIPTS * 4]
    except OSError:
        return None
    scripts = [e.path for e in entries if e.name.endswith(".py") and e.is_file()][:MAX_SCRIPTS]
    for path in scripts:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                if pattern.search(f.read(200_000)):
                    return name
        except OSError:
            continue
    return None


def beyond_code(output: str, cwd: str | None = None) -> str | None:
    """Why the failure in `output` is not one new code can fix, in a few words, or None."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    tail = "\n".join(lines[-6:])  # the error, not a traceback's source lines
    for why, pattern in _KINDS:
        if pattern.search(tail):
            return why
    if users_module(output, cwd):
        return "a package the script needs is not installed"
    return None
