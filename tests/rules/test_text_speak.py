from __future__ import annotations

import pytest

from oi_local.core.engine import Engine
from oi_local.core.rules import text_speak


@pytest.mark.parametrize("typed, seen", [
    ("How many lines r in notes.txt ?", "How many lines are in notes.txt ?"),
    ("can u copy budget.csv into a backup folder pls", "can you copy budget.csv into a backup folder please"),
    ("r there any pdfs in Documents", "are there any pdfs in Documents"),
    ("what's ur biggest file thx", "what's your biggest file thanks"),
])
def test_short_forms_are_written_out(typed: str, seen: str) -> None:
    assert text_speak.plain(typed) == seen


@pytest.mark.parametrize("typed", [
    "how many words contain the letter r in notes.txt",   # a letter the request names
    "plot column u from data.csv",
    "I use r for stats, how many r files are there",
    "count the lines where code = 'r u' in f.txt",        # quoted
    "open r/notes.txt and u_2.csv",                       # paths and names
    "is it r or u?",
    "set u to 5 and print it",                              # a variable
    "what is the vector r times 2",
    "```python\nr = 1\n```\nwhat does this print, can u tell",  # code
    "please count the lines r in\n" + "r u ok\n" * 200,   # long: pasted text
])
def test_letters_names_quotes_and_pasted_text_are_left_alone(typed: str) -> None:
    assert text_speak.plain(typed) == typed


def test_the_model_sees_the_written_out_request_and_the_history_keeps_the_users() -> None:
    engine = Engine()
    engine.messages = [{"role": "user", "type": "message", "content": "how many lines r in notes.txt?"}]
    assert "how many lines are in notes.txt?" in engine.build_prompt()[-1]["content"]
    assert engine.messages[0]["content"] == "how many lines r in notes.txt?"
    engine.plain_words = False
    engine._additions.clear()
    assert "lines r in" in engine.build_prompt()[-1]["content"]
