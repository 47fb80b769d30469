"""Which sandbox this machine has, checked once per process (a trial run of bubblewrap, ~15 ms)."""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Available:
    kind: str | None  # "bwrap", "sandbox-exec" or None
    reason: str  # why there is none, or a short description of the one there is
    userns: bool = True  # bwrap may make a user namespace (not when it is setuid without one)


@lru_cache(maxsize=1)
def available() -> Available:
    if sys.platform.startswith("linux"):
        return _linux()
    if sys.platform == "darwin":
        if os.path.exists("/usr/bin/sandbox-exec"):
            return Available("sandbox-exec", "sandbox-exec (macOS)")
        return Available(None, "/usr/bin/sandbox-exec is missing")
    if sys.platform == "win32":
        return Available(None, "Windows has no sandbox oi-local can use")
    return Available(None, f"no sandbox support for {sys.platform}")


def _linux() -> Available:
    from . import bwrap
    from .policy import Policy

    exe = bwrap.find()
    if exe is None:
        return Available(None, "bubblewrap is not installed (Debian/Ubuntu: sudo apt install bubblewrap; "
                               "Fedora: sudo dnf install bubblewrap)")
    probe = Policy(workdir="/")
    error = ""
    for userns in (True, False):
        argv = bwrap.build(probe, ["true"], userns=userns, exe=exe)
        try:
            r = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=10)
        except (OSError, subprocess.TimeoutExpired) as e:
            error = str(e)
            continue
        if r.returncode == 0:
            return Available("bwrap", "bubblewrap", userns)
        lines = r.stderr.decode("utf-8", "replace").strip().splitlines()
        error = lines[-1] if lines else f"exit code {r.returncode}"
    return Available(None, f"bubblewrap cannot make a sandbox here ({error}); unprivileged user namespaces "
                           "may be disabled (sysctl kernel.unprivileged_userns_clone / AppArmor)")


def reset() -> None:
    """Forget the result (tests)."""
    available.cache_clear()
