from __future__ import annotations

import pytest

from oi_local.core.rules import empty_results

from .handmade import failed, make_turn, ran, reply

QUESTION = "Who is the oldest person in the design team? The list is in team.json."


@pytest.mark.parametrize("output", ["None\n", "[]\n", "{}", "", "\n", "nan\n", "Empty DataFrame\nColumns: [a]\nIndex: []\n"])
def test_a_question_answered_by_an_empty_output_is_asked_afresh_once(output: str) -> None:
    turn = make_turn(QUESTION, reply("None"), runs=(ran("print(data.get('design'))", output),))
    ask = empty_results.follow_up(turn)
    assert ask is not None and ask.hide and ask.sampling["temperature"] == 0.7
    assert "found nothing" in (ask.text or "") and ("nothing" in ask.text if not output.strip() else output.strip()[:4] in ask.text)
    assert empty_results.follow_up(turn) is None  # once


@pytest.mark.parametrize("output", ["0\n", "Ingrid\n", "[1, 2]\n", "None of the rows match: 0\n", "False\n"])
def test_a_result_is_not_empty(output: str) -> None:
    assert empty_results.follow_up(make_turn(QUESTION, reply("x"), runs=(ran("print(x)", output),))) is None


def test_not_after_a_failure_nor_for_a_task_nor_a_destructive_request() -> None:
    assert empty_results.follow_up(make_turn(QUESTION, runs=(failed("x", "KeyError: 'age'"),))) is None
    assert empty_results.follow_up(make_turn("Sort the lines of notes.txt", runs=(ran("x", ""),))) is None
    assert empty_results.follow_up(make_turn("Which files should I delete?", runs=(ran("x", "[]"),))) is None
