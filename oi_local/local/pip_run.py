"""Run pip in a subprocess: retry a download the network broke, and name pip's real reason.

Why: a CI run's bundle test failed on one interrupted download ("not enough bytes were received"),
and the one-line error it showed was pip's last line, a hint ("Use --resume-retries ..."), not the cause.
pip's own retries do not cover every such failure, and pip keeps the wheels it finished in the
target folder, so running the same command again costs only what was missing.
"""
from __future__ import annotations

import subprocess
import sys
import time
from typing import Mapping, Sequence

# Words of pip's messages when the network, not the request, failed.
_NETWORK = ("incomplete-download", "not enough bytes", "connection", "timed out", "timeout",
            "temporary failure in name resolution", "remote end closed", "resume-retries", "sslerror")
_ASIDE = ("hint:", "note:", "warning:", "[notice]")


def reason(text: str, returncode: int) -> str:
    """The line of pip's output that says what went wrong: its error summary, not a hint or note."""
    lines = [ln.strip(" \t×╰─>│") for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not ln.lower().startswith(_ASIDE)]
    for ln in reversed(lines):
        if ln.lower().startswith("error:") and ln.lower() != "error: incomplete-download":
            return ln
    for ln in lines:
        if "not enough bytes" in ln.lower():
            return ln
    return lines[-1] if lines else f"exit code {returncode}"


def network_failure(text: str) -> bool:
    low = text.lower()
    return any(w in low for w in _NETWORK)


def run(args: Sequence[str], env: Mapping[str, str] | None = None, attempts: int = 3,
        wait: float = 3.0) -> subprocess.CompletedProcess[str]:
    """`python -m pip ARGS`; a failure that reads as the network's is tried again (attempts in all)."""
    cmd = [sys.executable, "-m", "pip", *args]
    for attempt in range(1, attempts + 1):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=None if env is None else dict(env),
                              stdin=subprocess.DEVNULL)
        if proc.returncode == 0 or attempt == attempts or not network_failure(proc.stderr + proc.stdout):
            return proc
        time.sleep(wait * attempt)
    raise AssertionError("unreachable")
