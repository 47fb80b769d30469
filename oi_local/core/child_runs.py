"""A script run from Python code failed: the 0.5B model, asked to fix totals.py and tell the total, wrote the
fix and ran it with `subprocess.run(["python3", "totals.py"])` (no check=True). The script crashed, but the
cell ended cleanly, so no run had failed to the loop: the model explained the error in words and stopped
(ho42), and nothing that helps after a failed run acted. A run whose output ends in a child process's
Python traceback (frames from a file, not from the session's own cells) counts as failed, with the child's
return code when the output shows it."""
from __future__ import annotations

import re

_TRACEBACK = "Traceback (most recent call last):"
_FILE_FRAME = re.compile(r'^\s*File "(?!<)[^"]+", line \d+', re.M)
_ERROR = re.compile(r"^[\w.]*(?:Error|Exception|Interrupt|Exit)\b.*$", re.M)
_RETURNCODE = re.compile(r"returncode=(-?\d+)")
# Code that starts another process: python's subprocess or os, or a shell line that goes on after a command.
_STARTS = re.compile(r"\bsubprocess\b|\bos\.(?:system|popen)\b|\bcheck_output\b")


def child_failure(lang: str, code: str, output: str) -> int | None:
    """The exit code to count for a run that ended cleanly while a script it started crashed (None: it did not)."""
    at = output.rfind(_TRACEBACK)
    if at < 0:
        return None
    if lang == "python" and not _STARTS.search(code):
        return None  # the session's own traceback.print_exc(): the code caught its error itself
    tail = output[at:]
    if not _FILE_FRAME.search(tail) or not _ERROR.search(tail):
        return None
    code_seen = _RETURNCODE.findall(tail)
    value = int(code_seen[-1]) if code_seen else 1
    return value or 1
