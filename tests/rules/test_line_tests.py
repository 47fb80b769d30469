from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import line_tests

from .handmade import block, make_turn

GUESTS = "name,rsvp,meal\nEla Pryce,yes,chicken\nBo Quist,yes,vegetarian\nFarah Siddiq,no,beef\nIan Whit,yes,vegetarian\n"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "wedding").mkdir()
    (tmp_path / "wedding" / "guests.csv").write_text(GUESTS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("code, right", [
    ('with open("wedding/guests.csv") as f:\n    print(len([1 for line in f if line.startswith("yes")]))', "3"),
    ('n = 0\nfor line in open("wedding/guests.csv"):\n    if line.endswith("vegetarian"):\n        n += 1\nprint(n)', "2"),
    ('with open("wedding/guests.csv") as f:\n    print(sum(1 for line in f.readlines() if line.split(",")[-1] == "vegetarian"))', "2"),
    ('with open("wedding/guests.csv") as f:\n    print(sum(1 for line in f if line.split(",")[2] == "vegetarian"))', "2"),
    ('with open("wedding/guests.csv") as f:\n    print(len([g for g in f if g == "vegetarian"]))', "2"),  # a whole line
])
def test_raw_line_tests_that_match_nothing_are_made_to_test_the_field(code: str, right: str) -> None:
    assert _run(code) == "0"
    b = block(code)
    verdict = line_tests.check(make_turn("how many guests said yes in wedding/guests.csv?"), b)
    assert verdict is not None and "Changed before it ran" in verdict.warning
    assert _run(b.code) == right


@pytest.mark.parametrize("code", [
    'with open("wedding/guests.csv") as f:\n    print(len([1 for line in f if line.startswith("Bo")]))',   # starts lines
    'with open("wedding/guests.csv") as f:\n    print([line.split(",")[0] for line in f])',               # first field
    'with open("wedding/guests.csv") as f:\n    for line in f:\n        line = line.strip()\n        print(line.endswith("yes"))',
    'import csv\nprint(sum(1 for r in csv.DictReader(open("wedding/guests.csv")) if r["rsvp"] == "yes"))',
])
def test_left_alone(code: str) -> None:
    assert line_tests.check(make_turn("how many said yes in wedding/guests.csv?"), block(code)) is None
