"""Their details: a follow-up asking for a field of the one person the last answer named gets it looked up."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import their_details

from .handmade import failed, make_turn, ran, reply

FIRST = "which member has been with the club longest? members.csv"
ANSWER = reply("Priya Natarajan has been a member the longest, since 2009.")


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "members.csv").write_text("member_no,full_name,joined,phone,home_address\n"
                                          "17,Priya Natarajan,2009-03-01,0161 555 0102,4 Mill Lane\n"
                                          "23,Tom Ashby,2015-06-12,0161 555 0177,9 Oak Road\n")
    (tmp_path / "fees.csv").write_text("member_no,paid\n17,40\n23,40\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _turn(request: str, *runs) -> object:
    return make_turn(FIRST, ANSWER, {"role": "user", "type": "message", "content": request}, runs=runs)


def test_a_wrong_file_written_gets_the_row_looked_up(folder: Path) -> None:
    turn = _turn("great, save her phone number to call_list.txt please", ran("x", ""))
    (folder / "call_list.txt").write_text("2009-03-01\n")  # what the model's code wrote
    ask = their_details.after_run(turn)
    assert ask is not None and ask.own and their_details.after_run(turn) is None  # once a turn
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder).stdout
    assert out == "wrote 0161 555 0102 to call_list.txt\n"
    assert (folder / "call_list.txt").read_text() == "0161 555 0102\n"


def test_a_failed_run_gets_the_value_printed_and_a_right_one_is_left_alone(folder: Path) -> None:
    ask = their_details.after_run(_turn("and what's their home address?", failed("x", "NameError: name 'rows' is not defined")))
    assert ask is not None
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder).stdout
    assert out == "home_address: 4 Mill Lane\n"
    assert their_details.after_run(_turn("and what's their home address?", ran("x", "4 Mill Lane\n"))) is None


@pytest.mark.parametrize("request_text", [
    "and what's the phone number of Tom Ashby?",           # no "their": a new question
    "what's their favourite colour?",                        # no such column
])
def test_left_alone(request_text: str) -> None:
    assert their_details.after_run(_turn(request_text, ran("x", "?"))) is None


def test_an_answer_that_names_two_rows_is_left_alone() -> None:
    turn = make_turn(FIRST, reply("Priya Natarajan and Tom Ashby joined first."),
                     {"role": "user", "type": "message", "content": "what are their phone numbers?"}, runs=(ran("x", "?"),))
    assert their_details.after_run(turn) is None


def test_how_many_rows_they_have_is_counted(folder: Path) -> None:
    # ho53: "and how many orders did they place" after "Jonas spent the most" summed every order's amount
    (folder / "orders.csv").write_text("order_id,customer,amount\n1,Jonas,100\n2,Maria,20\n3,Jonas,5.5\n4,Jonas,300\n")
    turn = make_turn("Who spent the most money in orders.csv?", reply("Jonas spent the most money in orders.csv."),
                     {"role": "user", "type": "message", "content": "and how many orders did they place"},
                     runs=[ran("x", "Jonas 762.49\n")])
    ask = their_details.after_run(turn)
    assert ask is not None and ask.own and their_details.after_run(turn) is None  # once a turn
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder).stdout
    assert out == "Jonas has 3 rows in orders.csv\n"
    right = make_turn("Who spent the most money in orders.csv?", reply("Jonas spent the most money in orders.csv."),
                      {"role": "user", "type": "message", "content": "and how many orders did they place"},
                      runs=[ran("x", "3\n")])
    assert their_details.after_run(right) is None
