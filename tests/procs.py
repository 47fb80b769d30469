"""Process checks shared by tests."""
from __future__ import annotations

import psutil


def alive(pid: int) -> bool:
    """Running, not a zombie (checked in one call: the process may go between two)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def running_with(marker: str) -> list[int]:
    """Live processes whose command line (NUL-separated arguments) contains `marker`. For code in
    the sandbox, whose pids are those of its own namespace, a unique argument finds it from here."""
    found = []
    for p in psutil.process_iter(["pid", "cmdline", "status"]):
        try:
            if p.info["status"] != psutil.STATUS_ZOMBIE and marker in "\0".join(p.info["cmdline"] or ()):
                found.append(p.info["pid"])
        except psutil.Error:
            continue
    return found


def unique_sleep() -> str:
    """A sleep length no other process uses, e.g. 300.123456, to find that sleep again."""
    import time

    return f"300.{time.time_ns() // 1000 % 1_000_000:06d}"


def wait_none(marker: str, timeout: float = 10.0) -> list[int]:
    """Wait until no live process carries `marker` in its command line; what is left."""
    import time

    deadline = time.monotonic() + timeout
    while (left := running_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def wait_some(marker: str, timeout: float = 5.0) -> list[int]:
    """Wait until a live process carries `marker` in its command line: `sleep N & echo PID=$!` prints the pid before
    the child has run `sleep` (its command line is still the shell's), which a loaded machine showed twice."""
    import time

    deadline = time.monotonic() + timeout
    while not (found := running_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found
