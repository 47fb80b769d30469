from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, named_columns

from .handmade import block, make_turn

ASK = "Turn books.json into a spreadsheet-friendly books.csv with the columns title, author and year. Leave the tags out."
BOOKS = [{"title": "Beloved", "author": "Toni Morrison", "year": 1987, "tags": ["novel"]},
         {"title": "Dune", "author": "Frank Herbert", "year": 1965, "tags": []}]
WITH_TAGS = ('import json, csv\nrows = json.load(open("books.json"))\nwith open("books.csv", "w", newline="") as f:\n'
             '    w = csv.writer(f)\n    w.writerow(["title", "author", "year", "tags"])\n    for b in rows:\n'
             '        w.writerow([b["title"], b["author"], b["year"], b["tags"]])\nprint(len(rows), "rows written")')
DICT = ('import json, csv\nrows = json.load(open("books.json"))\nwith open("books.csv", "w", newline="") as f:\n'
        '    w = csv.DictWriter(f, fieldnames=["title", "author", "year", "tags"])\n    w.writeheader()\n    w.writerows(rows)')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "books.json").write_text(json.dumps(BOOKS))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("code", [WITH_TAGS, DICT])
def test_columns_beyond_the_ones_listed_are_dropped(folder: Path, code: str) -> None:
    b = block(code)
    verdict = named_columns.check(make_turn(ASK), b)
    assert verdict is not None and "tags left out" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=folder, check=True, capture_output=True)
    rows = list(csv.reader(open(folder / "books.csv", newline="")))
    assert rows == [["title", "author", "year"], ["Beloved", "Toni Morrison", "1987"], ["Dune", "Frank Herbert", "1965"]]


@pytest.mark.parametrize("request_text, code", [
    (ASK, WITH_TAGS.replace(', "tags"]', "]").replace(', b["tags"]', "")),  # the columns asked
    ("Turn books.json into books.csv", WITH_TAGS),                        # no columns listed
    ("books.csv with the columns title and year", WITH_TAGS.replace('"author", ', "").replace(', "tags"]', ', "pages"]')
     .replace("title", "name")),                                           # not all of them written: not ours
])
def test_left_alone(request_text: str, code: str) -> None:
    b = block(code)
    assert named_columns.check(make_turn(request_text), b) is None and b.code == code


def test_the_columns_a_request_lists() -> None:
    assert named_columns.named(ASK) == ["title", "author", "year"]
    assert named_columns.named("quiz.csv with the columns name and points, and these rows: Nora 12") == ["name", "points"]
    assert named_columns.named("how many columns are there?") == []


def test_off_with_repair_slips() -> None:
    assert named_columns.rule not in active(make_turn("x", repair_slips=False).engine, "check")


HELD = ('import csv\nimport json\nwith open("books.json") as f:\n    data = json.load(f)\n'
        'columns = ["title", "author", "year", "tags"]\nwith open("books.csv", "w", newline="") as f:\n'
        '    writer = csv.writer(f)\n    writer.writerow(columns)\n    for r in data:\n'
        '        writer.writerow([r.get(c, "") for c in columns])')
WORKED_OUT = ('import csv\nimport json\nwith open("invoices.json") as f:\n    items = json.load(f)\n'
              'with open("open.csv", "w", newline="") as f:\n'
              '    writer = csv.DictWriter(f, fieldnames=list(dict.fromkeys(k for b in items for k in b)))\n'
              '    writer.writeheader()\n    writer.writerows(items)')


def test_a_header_held_by_a_name_or_worked_out_from_the_records_is_cut(folder: Path) -> None:
    (folder / "books.json").write_text(json.dumps([{"title": "Dune", "author": "Herbert", "year": 1965, "tags": ["sf"]}]))
    b = block(HELD)
    verdict = named_columns.check(make_turn(ASK), b)
    assert verdict is not None and "tags" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=folder)
    assert list(csv.reader(open(folder / "books.csv"))) == [["title", "author", "year"], ["Dune", "Herbert", "1965"]]
    (folder / "invoices.json").write_text(json.dumps([{"number": "A1", "client": "Ng", "amount": 20, "due": "2024-05-01"}]))
    ask = "From invoices.json make open.csv with the unpaid ones. Columns: number, client, amount"
    b = block(WORKED_OUT)
    assert named_columns.check(make_turn(ask), b) is not None
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=folder)
    assert list(csv.reader(open(folder / "open.csv"))) == [["number", "client", "amount"], ["A1", "Ng", "20"]]
    # a listed column the data does not have: the worked-out header is left as it is
    assert named_columns.check(make_turn(ask.replace("client", "customer")), block(WORKED_OUT)) is None
