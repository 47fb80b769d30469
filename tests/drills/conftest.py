"""Fixtures of the reliability drills: fake model servers (drill_support), and for the code drills a
working folder and a fake home outside /tmp (the sandbox's /tmp is private, so anything under the
host's /tmp would be invisible for another reason)."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Callable, Iterator

import pytest
from drill_support import ModelServer


@pytest.fixture
def model_server() -> Iterator[Callable[[str], ModelServer]]:
    started: list[ModelServer] = []

    def start(mode: str) -> ModelServer:
        s = ModelServer(mode)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def place(monkeypatch):
    """(working folder, fake home with a planted ~/.ssh/id_rsa); cwd and HOME point at them."""
    root = Path(tempfile.mkdtemp(prefix="oi-drill-", dir="/var/tmp"))
    work, home = root / "work", root / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nplanted-secret\n")
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    yield work, home
    shutil.rmtree(root, ignore_errors=True)
