"""Appended header: no second header line is appended to a CSV that has one."""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import appended_header

from .handmade import block, make_turn

ASK = "Add a row for Omar with 11 points, then tell me the average points, rounded to two decimals."
# the 0.5B model's try (ho3)
CODE = ('import csv\nwith open("quiz.csv", "a", newline="") as f:\n    writer = csv.DictWriter(f, fieldnames=["name", "points"])\n'
        '    writer.writeheader()\n    writer.writerow({"name": "Omar", "points": 11})\n'
        'rows = list(csv.DictReader(open("quiz.csv")))\nprint(round(sum(float(r["points"]) for r in rows) / len(rows), 2))')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quiz.csv").write_text("name,points\nNora,12\nIvan,9\nLea,15\n")
    return tmp_path


def test_the_row_is_appended_without_a_header(folder: Path) -> None:
    b = block(CODE)
    verdict = appended_header.check(make_turn(ASK), b)
    assert verdict is not None and "quiz.csv" in verdict.warning and "writeheader" not in b.code
    run = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder)
    assert run.stdout.strip() == "11.75", run.stderr
    assert list(csv.reader(open(folder / "quiz.csv")))[-2:] == [["Lea", "15"], ["Omar", "11"]]


def test_a_new_or_empty_file_or_one_written_afresh_keeps_its_header(folder: Path) -> None:
    for code in (CODE.replace("quiz.csv", "new.csv"), CODE.replace('"a"', '"w"')):
        assert appended_header.check(make_turn(ASK), block(code)) is None
    (folder / "quiz.csv").write_text("")
    assert appended_header.check(make_turn(ASK), block(CODE)) is None
