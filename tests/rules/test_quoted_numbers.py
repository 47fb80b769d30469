from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.pycheck import review
from oi_local.core.rules import quoted_numbers

from .handmade import block, make_turn

SCRIPT = ('import csv\n\nlow = []\nwith open("stock.csv") as f:\n    for row in csv.DictReader(f):\n'
          '        if row["qty"] > "5":\n            low.append(row["item"])\nprint(", ".join(low))\n')
STOCK = "item,qty\nbolts,3\nnuts,40\nwashers,2\nscrews,12\n"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "stock.csv").write_text(STOCK)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True).stdout


def test_an_order_against_a_quoted_number_is_taken_between_numbers(folder: Path) -> None:
    assert _run(SCRIPT, folder) == "\n"  # "3" > "5" is False, and so is "40" > "5"... as text: none
    b = block(SCRIPT)
    verdict = quoted_numbers.check(make_turn("which items have more than 5 in stock.csv?"), b)
    assert verdict is not None and not (verdict.again or verdict.stop)
    assert 'float(row["qty"]) > 5' in b.code and 'row["qty"] > "5" became float(row["qty"]) > 5' in verdict.warning
    assert _run(b.code, folder) == "nuts, screws\n"
    flipped = block('x = "7"\nprint("10" <= x, "2.5" > x)')
    assert quoted_numbers.check(make_turn("compare"), flipped) is not None
    assert "10 <= float(x)" in flipped.code and "2.5 > float(x)" in flipped.code


@pytest.mark.parametrize("code", [
    'print(row["qty"] == "5")',  # equality of text is fine
    'print(row["name"] > "b")',  # words ordered as words
    'print("3" < "5")',  # two texts: the code's own
    'print(a > 5)',
    'print(d["date"] >= "2024-03-01")',  # ISO dates order as text
])
def test_left_alone(code: str) -> None:
    assert quoted_numbers.check(make_turn("x"), block(code)) is None


def test_a_named_script_shows_it_among_its_problems_with_the_correction() -> None:
    found, fixed = review(SCRIPT, "make_report.py")
    assert found == ['line 6: row["qty"] > "5" compares text letter by letter ("10" < "5"); as numbers it is '
                     'float(row["qty"]) > 5']
    assert fixed is not None and 'if float(row["qty"]) > 5:' in fixed
