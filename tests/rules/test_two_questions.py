"""Two questions: a short request that asks two gets them listed, numbered, under it."""
from __future__ import annotations

import pytest

from oi_local.core.rules import two_questions


def test_two_questions_are_listed() -> None:
    # ho49 (read after its end): the first question answered, the second left out
    added = two_questions.prompt(None, "two quick questions about team.csv - how many ppl are in the berlin office? "
                                       "and who's the oldest on the team?", "")
    assert added is not None
    assert "\n1. two quick questions about team.csv - how many ppl are in the berlin office?\n" in added.hint
    assert "\n2. who's the oldest on the team?\n" in added.hint
    added = two_questions.prompt(None, "what is the average price in menu.csv, and which item is the cheapest?", "")
    assert added is not None and "2. which item is the cheapest?" in added.hint


@pytest.mark.parametrize("request_text", [
    "how many lines r in server.log?",  # one
    "Can you rename the files? They have spaces.",  # one question, then a statement
    "why? ok?",  # too short to ask anything of the data
    "What is in a.txt?\nWhat is in b.txt?\n" + "x" * 700,  # a paste
    "how many rows? how many rows?",  # the same twice
])
def test_left_alone(request_text: str) -> None:
    assert two_questions.prompt(None, request_text, "") is None, request_text


@pytest.mark.parametrize("request_text", [
    # one question about the one found (ho45, a development run: listed as two, the count per author was lost)
    "From loans.csv (our little street library), which author gets borrowed the most, and how many times?",
    "which city brings in the most revenue, and what's the total for that city?",
])
def test_a_second_question_about_the_first_is_left_alone(request_text: str) -> None:
    assert two_questions.prompt(None, request_text, "") is None
