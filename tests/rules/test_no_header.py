from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, no_header

from .handmade import block, make_turn

BOOKS = {"books": [{"title": "A", "year": 1997}, {"title": "B", "year": 1969}, {"title": "C", "year": 2011}]}
SKIPS_FIRST = ('import json\nimport csv\nwith open("books.json") as f:\n    rows = list(json.load(f)["books"])\n'
               'with open("books.csv", "w", newline="") as f:\n    w = csv.writer(f)\n    w.writerow(["title", "year"])\n'
               '    for book in rows[1:]:\n        w.writerow([book["title"], book["year"]])\nprint(len(rows), "rows written")')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "books.json").write_text(json.dumps(BOOKS))
    (tmp_path / "people.csv").write_text("name,age\nAna,30\nBo,41\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_records_walked_from_the_second_are_walked_whole(folder: Path) -> None:
    b = block(SKIPS_FIRST)
    verdict = no_header.check(make_turn("Turn books.json into books.csv"), b)
    assert verdict is not None and "json.load has no header row" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=folder, check=True)
    assert (folder / "books.csv").read_text().splitlines()[1:] == ["A,1997", "B,1969", "C,2011"]
    dict_rows = ('import csv\nwith open("people.csv") as f:\n    rows = list(csv.DictReader(f))\n'
                 'print([r["name"] for r in rows[1:]])')
    b = block(dict_rows)
    assert no_header.check(make_turn("names in people.csv?"), b) is not None and "for r in rows]" in b.code


@pytest.mark.parametrize("code", [
    'import csv\nrows = list(csv.reader(open("people.csv")))\nfor r in rows[1:]:\n    print(r)',  # a plain reader: a header
    'lines = open("people.csv").readlines()\nfor line in lines[1:]:\n    print(line)',              # lines of text
    'import json\nrows = json.load(open("books.json"))\nprint(rows[1:])',                          # not walked
    'import json\nrows = json.load(open("books.json"))\nrows = rows[2:]\nfor r in rows[1:]:\n    print(r)',  # bound again
])
def test_left_alone(code: str) -> None:
    b = block(code)
    assert no_header.check(make_turn("x"), b) is None and b.code == code


def test_off_with_repair_slips() -> None:
    assert no_header.rule not in active(make_turn("x", repair_slips=False).engine, "check")
