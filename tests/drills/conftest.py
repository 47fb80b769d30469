"""Fixtures of the reliability drills."""
from __future__ import annotations

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
