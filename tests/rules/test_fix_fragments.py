from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import fix_fragments

from .handmade import block, make_turn

LAST = 'fruits = ["apple", "banana", "cherry"]\nprint(fruits[3])\n'
MILES = ('import csv\n\ntotal = 0\nwith open("trips.csv") as f:\n    for row in csv.DictReader(f):\n'
         '        total += row["miles"]\nprint(total)\n')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "last.py").write_text(LAST)
    (tmp_path / "trips.csv").write_text("miles\n2.5\n4\n")
    (tmp_path / "miles.py").write_text(MILES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_corrected_line_alone_goes_into_the_script_which_then_runs(folder: Path) -> None:
    turn = make_turn("last.py should print the last fruit but it crashes with an IndexError. Fix it.")
    b = block("print(fruits[-1])")
    verdict = fix_fragments.check(turn, b)
    assert verdict is not None and "last.py" in verdict.warning and not (verdict.again or verdict.stop)
    done = subprocess.run([sys.executable, "-c", b.code], cwd=folder, capture_output=True, text=True, check=True)
    assert done.stdout == "cherry\n"
    assert (folder / "last.py").read_text() == LAST.replace("fruits[3]", "fruits[-1]")


def test_indented_lines_keep_the_scripts_indentation() -> None:
    new = fix_fragments.patched(MILES, 'for row in csv.DictReader(f):\n    total += float(row["miles"])')
    assert new == MILES.replace('total += row["miles"]', 'total += float(row["miles"])')


def test_left_alone() -> None:
    turn = make_turn("last.py crashes with an IndexError. Fix it.")
    assert fix_fragments.check(turn, block('fruits = ["a", "b"]\nprint(fruits[-1])')) is None  # runs on its own
    assert fix_fragments.check(turn, block("print(fruits[3])")) is None  # nothing changed
    assert fix_fragments.check(turn, block("print(fruits[-1])\nprint(len(basket) * 2 + extra)")) is None  # a new line
    assert fix_fragments.check(turn, block("subprocess.run(['python3', 'last.py'])\nprint(fruits[-1])")) is None
    assert fix_fragments.check(make_turn("what does last.py print?"), block("print(fruits[-1])")) is None
    assert fix_fragments.check(turn, block("print(fruits[-1])", lang="shell")) is None
