"""Left-out columns: code that makes a file of some rows of a named CSV and never looks at a column the request names."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import left_out_columns

from .handmade import block, make_turn

ASK = ("From library_loans.csv, make overdue.csv with only the loans that haven't been returned and were due before "
       "June 1, 2024. Keep the same columns.")
DUE_ONLY = '''import csv
with open("library_loans.csv", newline="") as f:
    reader = csv.DictReader(f)
    fields, rows = reader.fieldnames, list(reader)
overdue = [r for r in rows if r["due"] < "2024-06-01"]
with open("overdue.csv", "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=fields)
    writer.writeheader()
    writer.writerows(overdue)
'''


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "library_loans.csv").write_text("member,title,due,returned\nAda,The Hobbit,2024-05-20,no\n")
    return tmp_path


def test_a_column_the_request_names_and_the_code_never_looks_at_is_asked_afresh_once() -> None:
    # ho58 (session 59's start): the loans due before June were kept, returned or not
    turn = make_turn(ASK)
    verdict = left_out_columns.check(turn, block(DUE_ONLY))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "returned column of library_loans.csv" in verdict.note and "returned column" in (verdict.ask.text or "")
    assert left_out_columns.check(turn, block(DUE_ONLY)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    (ASK, DUE_ONLY.replace('r["due"] < "2024-06-01"', 'r["due"] < "2024-06-01" and r["returned"] == "no"')),
    (ASK.replace("only ", ""), DUE_ONLY),  # all the rows: nothing narrowed
    (ASK, "import shutil\nshutil.copy('library_loans.csv', 'overdue.csv')"),  # no column read by name
    ("From library_loans.csv, make returned.csv with only the loans due in May.", DUE_ONLY.replace("overdue", "returned")),
    ("Make overdue.csv from library_loans.csv with just the columns member, title and due, where returned is no.",
     DUE_ONLY),  # the columns to write are listed (named_columns.py)
])
def test_left_alone(request_text: str, code: str) -> None:
    assert left_out_columns.check(make_turn(request_text), block(code)) is None


HENS = "hen,eggs_laid_this_week,last_cleaned,coop\nDora,6,2024-05-01,north\nMabel,2,2024-05-09,south\n"
REPEATS = ('import csv\nfrom collections import Counter\nwith open("hens.csv", newline="") as f:\n'
           '    counts = Counter(r["hen"] for r in csv.DictReader(f))\nprint({h: n for h, n in counts.items() if n > 1})')


def test_a_question_whose_code_reads_none_of_the_columns_it_names_is_asked_afresh(here: Path) -> None:
    (here / "hens.csv").write_text(HENS)
    turn = make_turn("Which of my hens in hens.csv laid fewer than four eggs this week?")
    verdict = left_out_columns.check(turn, block(REPEATS))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "eggs_laid_this_week column of hens.csv" in verdict.note
    # no file made: a question too ("returned" named, only the due date read)
    asked = left_out_columns.check(make_turn("Which loans in library_loans.csv haven't been returned?"), block(DUE_ONLY))
    assert asked is not None and "returned column of library_loans.csv" in asked.note


@pytest.mark.parametrize("request_text, code", [
    ("Which of my hens in hens.csv laid fewer than four eggs this week?",
     REPEATS.replace('counts = Counter(r["hen"] for r in csv.DictReader(f))',
                     'counts = Counter(r["hen"] for r in csv.DictReader(f) if int(r["eggs_laid_this_week"]) < 4)')),
    ("How many rows does hens.csv have?", 'print(sum(1 for _ in open("hens.csv")) - 1)'),  # no column read by name
    ("Which hens are in hens.csv?", REPEATS),  # the code reads the one column the question names
    ("Which coop is cleaned least in hens.csv?", REPEATS.replace('r["hen"]', 'r["coop"]')),  # coop is named and read
])
def test_questions_left_alone(here: Path, request_text: str, code: str) -> None:
    (here / "hens.csv").write_text(HENS)
    assert left_out_columns.check(make_turn(request_text), block(code)) is None
