from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import directions, quoted_numbers

from .handmade import block, make_turn

STOCK = "item,qty\nbolts,3\nnuts,40\nwashers,2\nscrews,12\nhinges,4\nbrackets,5\n"
ASK = ("make_report.py should write every item with fewer than 5 in stock to low_stock.txt, but the file comes out "
       "empty. Please fix the script and run it.")
SCRIPT = ('import csv\nlow = []\nwith open("stock.csv") as f:\n    for row in csv.DictReader(f):\n'
          '        if float(row["qty"]) > 5:\n            low.append(row["item"])\nprint(", ".join(low))\n')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "stock.csv").write_text(STOCK)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True).stdout


def test_a_bound_tested_the_other_way_is_turned() -> None:
    b = block(SCRIPT)
    verdict = directions.check(make_turn(ASK), b)
    assert verdict is not None and not (verdict.again or verdict.stop)
    assert verdict.warning == ("Changed before it ran: float(row[\"qty\"]) > 5 became float(row[\"qty\"]) < 5 "
                               "(the request asks for 'fewer than 5').")
    assert _run(b.code, Path.cwd()) == "bolts, washers, hinges\n"
    mirrored = block('import csv\nprint([r["item"] for r in csv.DictReader(open("stock.csv")) if 10 > int(r["qty"])])')
    assert directions.check(make_turn("which items have more than 10 in stock?"), mirrored) is not None
    assert _run(mirrored.code, Path.cwd()) == "['nuts', 'screws']\n"
    more = block('import csv\nprint([r["item"] for r in csv.DictReader(open("stock.csv")) if int(r["qty"]) < 12])')
    verdict = directions.check(make_turn("list the items with 12 or more in stock"), more)
    assert verdict is not None and _run(more.code, Path.cwd()) == "['nuts', 'screws']\n"


def test_the_text_of_a_script_the_code_writes_is_turned_too(folder: Path) -> None:
    (folder / "make_report.py").write_text(SCRIPT.replace('float(row["qty"]) > 5', 'row["qty"] > "5"'))
    written = ("fixed = " + repr(SCRIPT.replace('float(row["qty"]) > 5', 'row["qty"] > "5"')) + "\n"
               'open("make_report.py", "w").write(fixed)\nimport subprocess\nsubprocess.run(["python3", "make_report.py"])\n')
    b = block(written)
    turn = make_turn(ASK)
    assert quoted_numbers.check(turn, b) is not None  # first the text number, then the direction
    verdict = directions.check(turn, b)
    assert verdict is not None and "in make_report.py" in verdict.warning
    _run(b.code, folder)
    assert _run((folder / "make_report.py").read_text(), folder) == "bolts, washers, hinges\n"


@pytest.mark.parametrize("request_text, code", [
    (ASK, SCRIPT.replace("> 5", "<= 5")),  # the same direction: strictness is not changed
    ("items with fewer than 5 or more than 20 in stock", SCRIPT),  # two bounds
    ("items with fewer than 5 in stock", SCRIPT.replace("> 5", "> 4") + "x = 1\n"),  # no comparison against 5
    ("items with fewer than 5 in stock", SCRIPT + "print(len(low) > 5)\n"),  # two comparisons against 5
    ("which files are over 50% full?", "print(a < 50)"),  # a share, not a bound on the value
    ("pass for scores of 60 and above, fail below 60", "print(s < 60)"),  # two bounds
])
def test_left_alone(request_text: str, code: str) -> None:
    assert directions.check(make_turn(request_text), block(code)) is None
