"""Own answers: after the loop's own code answered a question, more code from the model in that turn is not run."""
from __future__ import annotations

from pathlib import Path

import pytest

from .handmade import scripted_chat
from .test_log_counts import ASK, AUTH


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auth.log").write_text(AUTH)
    return tmp_path


def _chat(replies: list[str], request: str = ASK) -> list[dict]:
    return scripted_chat(replies, request)


def test_more_code_after_the_loops_answer_is_not_run(folder: Path) -> None:
    # a development run: the right count printed, then the model's own count of 464 became the answer
    more = 'print("Total number of failed password attempts:", 464)'
    out = _chat(["```python\nprint(12)\n```", f"8 lines have it.\n```python\n{more}\n```", "8 failed password attempts."])
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert consoles[-1].startswith("8 lines of auth.log have failed password") and not any("464" in c for c in consoles)
    answers = [m["content"] for m in out if m["role"] == "assistant" and m["type"] == "message"]
    assert "8" in answers[-1] and "464" not in answers[-1]


def test_a_change_asked_may_need_more_code(folder: Path) -> None:
    # not a question: the loop's own code is not the end of it
    from oi_local.core.rules import own_answers

    from .handmade import block, make_turn, ran

    turn = make_turn("move the pdfs into docs/", runs=(ran("print('moved')", "moved"),))
    turn.state["own code"] = "print('moved')"
    assert own_answers.check(turn, block("print('and more')")) is None
    turn = make_turn("how many pdfs are there?", runs=(ran("print('3')", "3"),))
    turn.state["own code"] = "print('3')"
    verdict = own_answers.check(turn, block("print('and more')"))
    assert verdict is not None and verdict.repeated


def test_a_question_after_a_pasted_text_that_says_change_words_is_a_question(folder: Path) -> None:
    # a pasted page says "remove" and "update", and the words before it "copied it out": the question after it decides
    from oi_local.core.rules import own_answers

    from .handmade import block, make_turn, ran

    page = "\n".join(f"Step {i}: remove the filter, update the settings and delete old files before you start." for i in range(300))
    request = f"I copied the whole help page out for you:\n\n{page}\n\nSo what number is the last step?"
    turn = make_turn(request, runs=(ran("print('Step 3')", "Step 3"),))
    turn.state["own code"] = "print('Step 3')"
    verdict = own_answers.check(turn, block("print('and more')"))
    assert verdict is not None and verdict.repeated
