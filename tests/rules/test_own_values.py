from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, own_values

from .handmade import block, make_turn

STOCK = {"items": [{"name": "tape", "qty": 2, "reorder_at": 5}, {"name": "paper", "qty": 9, "reorder_at": 10},
                   {"name": "soap", "qty": 4, "reorder_at": 3}, {"name": "pens", "qty": 1, "reorder_at": 2}]}
FIRSTS = ('import json\nwith open("stock.json") as f:\n    data = json.load(f)\n    level = data["items"][0]["reorder_at"]\n'
          '    below = 0\n    for item in data["items"]:\n        if item["qty"] < level:\n            below += 1\n    print(below)')
ASK = "how many things in stock.json have gone below their reorder level?"


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True).stdout.strip()


def test_each_record_is_compared_with_its_own_value(tmp_path: Path) -> None:
    (tmp_path / "stock.json").write_text(json.dumps(STOCK))
    assert _run(FIRSTS, tmp_path) == "3"  # as the model wrote it: every item against tape's 5
    b = block(FIRSTS)
    verdict = own_values.check(make_turn(ASK), b)
    assert verdict is not None and "its own reorder_at" in verdict.warning
    assert 'item["qty"] < item[\'reorder_at\']' in b.code and _run(b.code, tmp_path) == "3"  # tape, paper, pens
    (tmp_path / "stock.json").write_text(json.dumps({"items": [*STOCK["items"], {"name": "cups", "qty": 4, "reorder_at": 8}]}))
    assert _run(FIRSTS, tmp_path) == "4" and _run(b.code, tmp_path) == "4"
    (tmp_path / "stock.json").write_text(json.dumps({"items": [{"name": "a", "qty": 1, "reorder_at": 50},
                                                               {"name": "b", "qty": 20, "reorder_at": 10}]}))
    assert _run(FIRSTS, tmp_path) == "2" and _run(b.code, tmp_path) == "1"


@pytest.mark.parametrize("request_text, code", [
    ("how many items in stock.json have less than the first item?", FIRSTS),  # the first one's is asked
    (ASK, FIRSTS.replace("level = data[\"items\"][0][\"reorder_at\"]", "level = 5")),  # no first record
])
def test_left_alone(request_text: str, code: str) -> None:
    b = block(code)
    assert own_values.check(make_turn(request_text), b) is None and b.code == code


def test_off_with_repair_slips() -> None:
    assert own_values.rule not in active(make_turn("x", repair_slips=False).engine, "check")
