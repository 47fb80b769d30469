"""Saved answers: "put that number in a file" after a one-number answer ends with the file holding that number."""
from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

EXPENSES = "date,category,amount\n2024-02-03,groceries,61.20\n2024-02-17,groceries,77.45\n2024-03-02,rent,700\n"
SUM = ('import csv\nrows = [r for r in csv.DictReader(open("expenses.csv")) if r["date"].startswith("2024-02")]\n'
       'feb = [r["amount"] for r in rows if r["category"] == "groceries"]\nprint(sum(map(float, feb)))')
# the 0.5B model's second turn (ho47): the earlier code again, and the list of amounts written
WRITE_LIST = "```python\n" + SUM + '\nwith open("feb_groceries.txt", "w") as f:\n    f.write(str(feb))\n```'


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "expenses.csv").write_text(EXPENSES)
    return tmp_path


def test_that_number_put_into_a_file_is_the_number(here: Path) -> None:
    interp, _model = scripted_interpreter(["```python\n" + SUM + "\n```", "138.65", WRITE_LIST, "Done.", "Saved."])
    interp.template = "small"
    try:
        interp.chat("How much did I spend on groceries in February 2024? It's in expenses.csv", display=False)
        out = interp.chat("Please put that number in a file called feb_groceries.txt.", display=False)
    finally:
        interp.close()
    assert (here / "feb_groceries.txt").read_text() == "138.65\n"
    assert any(m["role"] == "computer" and "138.65" in str(m.get("content")) for m in out)


def test_left_alone_when_the_file_holds_it_or_nothing_was_answered(here: Path) -> None:
    from oi_local.core.rules import saved_answers
    from oi_local.core.rules.turn import Turn

    from .handmade import make_turn

    turn = make_turn("Please put that number in a file called feb.txt.")
    assert saved_answers.wanted(turn) is None  # no earlier answer
    turn.engine.messages[:0] = [{"role": "user", "type": "message", "content": "total?"},
                                {"role": "assistant", "type": "message", "content": "The total is 1,250.50."}]
    turn = Turn(turn.engine, start=len(turn.engine.messages))
    assert saved_answers.wanted(turn) == ("feb.txt", "1,250.50")
    (here / "feb.txt").write_text("Total: 1250.5\n")
    assert saved_answers._holds(here / "feb.txt", "1,250.50")
    for request in ("Please put 99 in a file called feb.txt.",  # a number of its own
                    "put that in feb.txt and notes.txt",  # two files
                    "what is that in feb.txt?",  # not a write
                    "put that in feb.txt"):  # no number asked for by name: maybe the names the answer gave
        turn.engine.messages[-1]["content"] = request
        assert saved_answers.wanted(turn) is None, request
