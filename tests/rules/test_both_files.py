from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import both_files

from .handmade import block, make_turn

ASK = ("Quick one: using products.csv (unit cost per SKU) and stock.csv (quantity per warehouse), what's the total "
       "value of all our stock at cost? And which warehouse holds the most value?")
ONE = 'import csv\nfor r in csv.DictReader(open("products.csv")):\n    print(float(r["unit_cost"]) * int(r["qty"]))'


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "products.csv").write_text("sku,name,unit_cost\nA1,bolt,0.5\n")
    (tmp_path / "stock.csv").write_text("sku,warehouse,qty\nA1,Leeds,100\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_question_about_two_files_whose_code_reads_one_is_not_run() -> None:
    turn = make_turn(ASK)
    verdict = both_files.check(turn, block(ONE))
    assert verdict is not None and verdict.ask is not None and verdict.ask.sampling.get("temperature")
    assert verdict.note == ("Not run: the question is about products.csv and stock.csv, and the code reads only "
                            "products.csv. Read stock.csv too, and join them on sku.")
    assert both_files.check(turn, block(ONE)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    (ASK, ONE.replace('open("products.csv")', 'open("products.csv")) + list(csv.DictReader(open("stock.csv")')),  # both
    (ASK, "import glob\nprint(glob.glob('*.csv'))"),                     # none by name
    ("copy products.csv into stock.csv", ONE),                           # not a question
    ("what's the total cost in products.csv?", ONE),                     # one file
])
def test_left_alone(request_text: str, code: str) -> None:
    assert both_files.check(make_turn(request_text), block(code)) is None
