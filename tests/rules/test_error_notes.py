from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import error_notes

from .handmade import failed, make_turn, ran, reply


def test_a_failed_python_run_gets_the_note_for_its_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    turn = make_turn("What is the square root of 2?")
    note = error_notes.on_failure(turn, "python", "print(math.sqrt(2))",
                                  "NameError: name 'math' is not defined\n(exit code 1)")
    assert note and "import math" in note
    assert error_notes.on_failure(turn, "shell", "ls nope", "ls: cannot access 'nope'\n(exit code 2)") is None


def test_corrected_code_in_a_note_is_offered_once() -> None:
    block = "```python\nimport math\nprint(math.sqrt(2))\n```"
    note = f"Add `import math`:\n{block}"
    turn = make_turn("What is the square root of 2?", reply("The error means math is missing."),
                     runs=(failed("print(math.sqrt(2))", "NameError: name 'math' is not defined", note),))
    ask = error_notes.follow_up(turn)
    assert ask is not None and ask.text == error_notes.OFFER_NOTE.format(lang="python", block=block)
    assert error_notes.follow_up(turn) is None  # the same block is offered once a turn
    assert ask.sampling["reply_prefix"] == block + "\n"  # the reply starts with the block
    large = make_turn("What is the square root of 2?", reply("The error means math is missing."), template="large",
                      runs=(failed("print(math.sqrt(2))", "NameError: name 'math' is not defined", note),))
    ask = error_notes.follow_up(large)
    assert ask is not None and "reply_prefix" not in ask.sampling  # the large set: the model is asked


def test_nothing_is_offered_after_a_clean_run() -> None:
    turn = make_turn("What is 2+2?", runs=(ran("print(2+2)", "4\n"),))
    assert error_notes.follow_up(turn) is None
