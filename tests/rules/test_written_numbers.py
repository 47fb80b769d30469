from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, written_numbers

from .handmade import block, make_turn

ASK = ("Start a shopping list in shopping.csv with the columns item, qty and price. "
       "Put in 6 apples at 0.45, 1 bread at 2.30 and 2 cheese at 3.75.")
PRICES_TWICE = ('with open("shopping.csv", "w") as f:\n    f.write("item,qty,price\\n")\n    f.write("apples,0.45,0.45\\n")\n'
                '    f.write("bread,2.30,2.30\\n")\n    f.write("cheese,3.75,3.75\\n")')
RIGHT = ('import csv\nrows = [("apples", 6, 0.45), ("bread", 1, 2.30), ("cheese", 2, 3.75)]\n'
         'with open("shopping.csv", "w", newline="") as f:\n    w = csv.writer(f)\n    w.writerow(["item", "qty", "price"])\n'
         '    w.writerows(rows)\nprint(len(rows), "items")')

TRAY = ('import json\nd = json.load(open("printer.json"))\nd["tray"]["size"] = 500\nd["timeout"] = 30\n'
        'json.dump(d, open("printer.json", "w"), indent=2)')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_file_written_without_some_of_the_numbers_given_is_asked_afresh(folder: Path) -> None:
    turn = make_turn(ASK)
    verdict = written_numbers.check(turn, block(PRICES_TWICE))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "without 6, 1, 2 from the request" in verdict.note
    assert "6, 0.45, 1, 2.30, 2, 3.75" in (verdict.ask.text or "")
    assert written_numbers.check(turn, block(PRICES_TWICE)) is None  # once a turn
    # as it would have run: the 6 apples are nowhere in the file
    subprocess.run([sys.executable, "-c", PRICES_TWICE], cwd=folder, check=True)
    assert "6" not in (folder / "shopping.csv").read_text()


@pytest.mark.parametrize("request_text, code", [
    (ASK, RIGHT),                                                     # every number written
    ("Oh, and 3 bananas at 0.25 each in shopping.csv", RIGHT),        # none of them: another matter
    ("How much is 6 apples at 0.45 in shopping.csv?", PRICES_TWICE),  # a question: not ours
    ("Put 6 apples at 0.45 in my list", PRICES_TWICE),                # no file named
    ("Add 6 apples to shopping.csv", PRICES_TWICE),                   # one number
    ("In printer.json set the tray size to 500 instead of 250 and the timeout to 30.", TRAY),  # 250 is the old value
    ("In printer.json change the tray size from 250 to 500 and the timeout to 30.", TRAY),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert written_numbers.check(make_turn(request_text), block(code)) is None


def test_a_row_added_without_its_count_is_asked_afresh() -> None:
    code = 'with open("shopping.csv", "a") as f:\n    f.write("bananas,0.25,0.25\\n")'
    verdict = written_numbers.check(make_turn("Oh, and add 3 bananas at 0.25 each to shopping.csv."), block(code))
    assert verdict is not None and "without 3" in verdict.note


def test_off_with_check_answers() -> None:
    assert written_numbers.rule not in active(make_turn("x", check_answers=False).engine, "check")


def test_a_script_fixed_is_not_held_to_the_numbers_of_its_fault() -> None:
    fixed = ('fixed = """scores = {"Ana": 78, "Ben": 92, "Cleo": 85, "Dev": 71}\nprint(sum(scores.values()) / len(scores))\n"""\n'
             'with open("grades.py", "w") as f:\n    f.write(fixed)')
    asked = "grades.py says the class average is 62.0, but every mark is between 71 and 92, so that can't be right. Fix it"
    assert written_numbers.check(make_turn(asked), block(fixed)) is None


def test_the_old_value_is_not_asked_for_but_a_new_one_left_out_is(folder: Path) -> None:
    ask = "In printer.json set the tray size to 500 instead of 250 and the timeout to 30."
    verdict = written_numbers.check(make_turn(ask), block(TRAY.replace("= 30", "= 10")))
    assert verdict is not None and "without 30 from the request" in verdict.note
    assert verdict.ask is not None and "500, 30" in (verdict.ask.text or "") and "250" not in (verdict.ask.text or "")
