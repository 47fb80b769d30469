from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import date_order

from .handmade import block, make_turn

BOOKS = "title,author,year\nDune,Herbert,1965\nFrankenstein,Shelley,1818\nEmma,Austen,1815\nNeuromancer,Gibson,1984\n"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "books.csv").write_text(BOOKS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("request_text, code, want", [
    ("which book is the oldest?",
     'import csv\nrows = list(csv.DictReader(open("books.csv")))\nprint(max(rows, key=lambda r: int(r["year"]))["title"])',
     "Emma\n"),
    ("which book in books.csv came out most recently?",
     'import pandas as pd\ndf = pd.read_csv("books.csv")\nprint(df.loc[df["year"].idxmin(), "title"])', "Neuromancer\n"),
    ("the earliest book please", 'import pandas as pd\nprint(pd.read_csv("books.csv").nlargest(1, "year")["title"].item())',
     "Emma\n"),
])
def test_a_max_or_min_the_other_way_round_from_the_request_is_turned(folder: Path, request_text: str, code: str,
                                                                       want: str) -> None:
    b = block(code)
    verdict = date_order.check(make_turn(request_text), b)
    assert verdict is not None and "became" in verdict.warning and not (verdict.again or verdict.stop)
    assert _run(b.code, folder) == want


@pytest.mark.parametrize("request_text, code", [
    ("who is the oldest?", 'print(max(people, key=lambda p: p["age"]))'),  # an age: the largest is the oldest
    ("which book is the oldest?", 'print(min(rows, key=lambda r: int(r["year"])))'),  # already the right way
    ("the oldest and the newest book", 'print(max(rows, key=lambda r: r["year"]))'),  # both asked
    ("which book is the oldest?", 'a = max(rows, key=lambda r: r["year"])\nb = min(rows, key=lambda r: r["year"])'),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert date_order.check(make_turn(request_text), block(code)) is None
