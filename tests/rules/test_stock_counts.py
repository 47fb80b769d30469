from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import stock_counts

from .handmade import block, make_turn

INVENTORY = {"store": "Main Street", "items": [
    {"sku": "K-100", "name": "Red Kettle", "price": 34.5, "stock": 8},
    {"sku": "K-200", "name": "Blue Kettle", "price": 39.99, "stock": 14},
    {"sku": "M-410", "name": "Blue Mug", "price": 6.5, "stock": 120}]}
CODE = ('import json\nwith open("inventory.json") as f:\n    data = json.load(f)\n'
        '    blue = [item for item in data["items"] if item["name"] == "Blue Kettle"]\n'
        '    print(f"Blue Kettles: {len(blue)}")\n    print(f"Price: {blue[0][\'price\']}")\n')
ASK = "check inventory.json - how many blue kettles do we still have and what's the price of one?"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "inventory.json").write_text(json.dumps(INVENTORY))
    (tmp_path / "pantry.csv").write_text("item,qty,price\napples,4,0.5\npears,3,0.6\napples,2,0.5\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True).stdout


def test_a_count_of_matching_records_becomes_their_stock(folder: Path) -> None:
    b = block(CODE)
    verdict = stock_counts.check(make_turn(ASK), b)
    assert verdict is not None and "len(blue) became sum(r['stock'] for r in blue)" in verdict.warning
    assert _run(b.code, folder) == "Blue Kettles: 14\nPrice: 39.99\n"
    csv_code = ('import csv\nrows = list(csv.DictReader(open("pantry.csv")))\n'
                'apples = [r for r in rows if r["item"] == "apples"]\nprint(len(apples))\n')
    c = block(csv_code)
    assert stock_counts.check(make_turn("how many apples have we got left in pantry.csv?"), c) is not None
    assert _run(c.code, folder) == "6\n"


@pytest.mark.parametrize("request_text", [
    "how many kinds of kettle are in inventory.json?",  # no have/left/in stock: records counted
    "how many items in inventory.json cost more than 10?",
])
def test_left_alone_when_records_are_what_is_counted(request_text: str) -> None:
    assert stock_counts.check(make_turn(request_text), block(CODE)) is None


def test_left_alone_without_one_quantity_field(folder: Path) -> None:
    (folder / "two.csv").write_text("item,qty,units\na,1,2\n")
    code = 'import csv\nrows = list(csv.DictReader(open("two.csv")))\na = [r for r in rows if r["item"] == "a"]\nprint(len(a))'
    assert stock_counts.check(make_turn("how many a do we have?"), block(code)) is None
