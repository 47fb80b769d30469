"""No-orphan checks for the local-model tests: every server process we start must be gone."""
from __future__ import annotations

import time

import psutil
import pytest

MARKERS = ("oi_local.local.llama_server", "llama_cpp.server", "fake.llamafile")


def our_servers() -> set[int]:
    found = set()
    for p in psutil.process_iter(["pid", "cmdline"]):
        cmd = " ".join(p.info.get("cmdline") or [])
        if any(m in cmd for m in MARKERS):
            found.add(p.info["pid"])
    return found


def wait_gone(pids: set[int], timeout: float = 15.0) -> set[int]:
    deadline = time.monotonic() + timeout
    alive = set(pids)
    while alive and time.monotonic() < deadline:
        alive = {p for p in alive if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE}
        time.sleep(0.2)
    return alive


@pytest.fixture
def no_orphans():
    """Fails the test if a server process started during it is still running afterwards."""
    from oi_local.local import llama_server

    before = our_servers()
    yield
    left = wait_gone(our_servers() - before)
    for server in list(llama_server._running):  # clean up after a failure, so it does not cascade
        server.stop()
    assert not left, f"orphan server processes left behind: {sorted(left)}"
