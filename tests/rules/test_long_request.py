from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.engine import Engine
from oi_local.core.rules import long_request


def test_a_long_request_is_saved_and_the_model_sees_its_start_and_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    text = "Count the lines that contain ERROR in this log:\n" + "".join(
        f"line {i} {'ERROR' if i % 7 == 0 else 'ok'}\n" for i in range(2000)) + "How many are there?"
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    prompt = engine.build_prompt()
    seen = prompt[-1]["content"]
    saved = list(tmp_path.glob("message-*.txt"))
    assert len(saved) == 1 and saved[0].read_text() == text
    assert seen.startswith("Count the lines that contain ERROR") and "How many are there?" in seen
    assert saved[0].name in seen and len(seen) < 4000
    assert engine.messages[0]["content"] == text  # stored as the user wrote it
    engine.build_prompt()
    assert len(list(tmp_path.glob("message-*.txt"))) == 1  # once


def test_a_short_request_is_untouched_and_the_switch_turns_it_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    assert long_request.prompt(engine, "What is 2+2?", "") is None
    engine.save_long_requests = False
    engine.messages = [{"role": "user", "type": "message", "content": "word " * 10000}]
    engine.build_prompt()
    assert not list(tmp_path.glob("message-*.txt"))
