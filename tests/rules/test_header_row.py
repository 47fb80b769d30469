from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import header_row

from .handmade import block, make_turn, printed

SHEET = "date,name,hours\n2025-03-03,Ayesha,7.5\n2025-03-03,Tom,8\n2025-03-04,Ayesha,6\n"
TALLY = ('import csv\ntotals = {}\nwith open("timesheet.csv") as f:\n    for row in csv.reader(f):\n'
         '        totals[row[1]] = totals.get(row[1], 0) + float(row[2])\nprint(max(totals, key=totals.get), max(totals.values()))')
REQUEST = "who has done the most hours? it's in timesheet.csv"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "timesheet.csv").write_text(SHEET)
    (tmp_path / "numbers.csv").write_text("1,2\n3,4\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_reader_walked_over_a_file_with_a_header_starts_at_the_second_row(folder: Path) -> None:
    failed = subprocess.run([sys.executable, "-c", TALLY], cwd=folder, capture_output=True, text=True)
    assert "could not convert string to float: 'hours'" in failed.stderr
    b = block(TALLY)
    verdict = header_row.check(make_turn(REQUEST), b)
    assert verdict is not None and "header: date, name, hours" in verdict.warning
    assert "for row in list(csv.reader(f))[1:]:" in b.code
    assert subprocess.run([sys.executable, "-c", b.code], cwd=folder, capture_output=True, text=True).stdout == "Ayesha 13.5\n"
    # a reader kept in a name and walked once is the same walk
    named = TALLY.replace("    for row in csv.reader(f):", "    reader = csv.reader(f)\n    for row in reader:")
    b = block(named)
    assert header_row.check(make_turn(REQUEST), b) is not None and "reader = list(csv.reader(f))[1:]" in b.code


@pytest.mark.parametrize("code", [
    TALLY.replace("    for row in", "    next(f)\n    for row in"),  # skips it already
    TALLY.replace("timesheet.csv", "numbers.csv"),  # no header
    TALLY.replace("    for row in csv.reader(f):", "    rows = csv.reader(f)\n    header = next(rows)\n    for row in rows:"),
    TALLY.replace("    for row in csv.reader(f):", "    rows = list(csv.reader(f))\n    print(rows[0])\n    for row in rows:"),
    TALLY.replace("timesheet.csv", "missing.csv"),  # not there
    'import csv\nwith open("timesheet.csv", "w") as f:\n    w = csv.writer(f)\nfor row in csv.reader(open("x")):\n    pass',
])
def test_code_that_skips_the_header_or_needs_it_is_left_alone(code: str) -> None:
    assert header_row.check(make_turn(REQUEST), block(code)) is None


def test_the_repaired_walk_answers() -> None:
    interp, model = scripted_interpreter([f"```python\n{TALLY}\n```", "Ayesha has done the most: 13.5 hours."])
    interp.template = "small"
    try:
        out = interp.chat(REQUEST, display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles[-1] == "Ayesha 13.5" and model.calls == 2
    finally:
        interp.close()


BOOKS = "title,author,year\nKindred,Octavia E. Butler,1979\nFrankenstein,Mary Shelley,1818\nSolaris,Stanislaw Lem,1961\n"


@pytest.mark.parametrize("code", [
    'with open("books.csv") as f:\n    print(len(f.readlines()))',
    'with open("books.csv") as f:\n    lines = f.readlines()\nprint(len(lines))',
    'with open("books.csv") as f:\n    print(sum(1 for _ in f))',
    'print(len(open("books.csv").read().splitlines()))',
])
def test_asked_how_many_things_a_csv_lists_its_header_line_is_not_counted(folder: Path, code: str) -> None:
    (folder / "books.csv").write_text(BOOKS)
    assert printed(code) == "4"
    b = block(code)
    verdict = header_row.check(make_turn("how many books are listed in books.csv?"), b)
    assert verdict is not None and "leaves out its header (title, author, year)" in verdict.warning
    assert printed(b.code) == "3"


@pytest.mark.parametrize("request_", [
    "how many lines does books.csv have?",  # lines asked for
    "how many rows are in books.csv including the header?",
    "show me books.csv",  # no count asked
])
def test_a_line_count_asked_for_is_left_alone(folder: Path, request_: str) -> None:
    (folder / "books.csv").write_text(BOOKS)
    assert header_row.check(make_turn(request_), block('with open("books.csv") as f:\n    print(len(f.readlines()))')) is None
    # and a CSV with no header is counted whole
    assert header_row.check(make_turn("how many pairs are in numbers.csv?"),
                            block('with open("numbers.csv") as f:\n    print(len(f.readlines()))')) is None
