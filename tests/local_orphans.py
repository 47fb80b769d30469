"""No-orphan checks for the local-model tests: every process a test starts must be gone after it.

Each test gets a unique tag in its environment; children inherit it (servers, downloads, model
load checks, tmux and what runs inside), so the check sees exactly this test's processes, not
those of other test sessions running on the same machine at the same time.
"""
from __future__ import annotations

import os
import time
import uuid

import psutil
import pytest

TAG = "OI_TEST_ORPHAN_TAG"


def tagged(tag: str) -> set[int]:
    found = set()
    me = os.getpid()
    for p in psutil.process_iter(["pid"]):
        if p.info["pid"] == me:
            continue
        try:
            if p.environ().get(TAG) == tag and p.status() != psutil.STATUS_ZOMBIE:
                found.add(p.info["pid"])
        except (psutil.Error, OSError):
            continue
    return found


def our_servers() -> set[int]:
    """Processes started under the current test's tag."""
    tag = os.environ.get(TAG)
    return tagged(tag) if tag else set()


def wait_gone(pids: set[int], timeout: float = 15.0) -> set[int]:
    deadline = time.monotonic() + timeout
    alive = set(pids)
    while alive and time.monotonic() < deadline:
        alive = {p for p in alive if _alive(p)}
        if alive:
            time.sleep(0.2)
    return alive


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


@pytest.fixture
def no_orphans(monkeypatch):
    """Fails the test if a process it started is still running afterwards."""
    from oi_local.local import llama_server

    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    yield
    left = wait_gone(tagged(tag))
    for server in list(llama_server._running):  # clean up after a failure, so it does not cascade
        server.stop()
    assert not left, f"processes left behind: {[(p, ' '.join(psutil.Process(p).cmdline())[:120]) for p in left]}"
