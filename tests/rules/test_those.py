"""Those: a follow-up about "those" walks only the records the code before it picked."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import those

from .handmade import block, make_turn, reply

STOCK = {"items": [{"name": "tape", "qty": 2, "reorder_at": 5}, {"name": "paper", "qty": 9, "reorder_at": 5},
                   {"name": "soap", "qty": 1, "reorder_at": 3}, {"name": "pens", "qty": 40, "reorder_at": 10}]}
COUNTED = ('import json\nwith open("stock.json") as f:\n    data = json.load(f)\nbelow = 0\n'
           'for item in data["items"]:\n    if item["qty"] < item["reorder_at"]:\n        below += 1\nprint(below)')


def _turn(request: str, code: str, output: str = "2\n", **extra):
    ran = {"role": "computer", "type": "console", "format": "output", "content": output, **extra}
    turn = make_turn("how many things in stock.json have gone below their reorder level?",
                     {"role": "assistant", "type": "code", "format": "python", "content": code}, ran,
                     reply("2 items are below their reorder level."))
    turn.engine.messages.append({"role": "user", "type": "message", "content": request})
    return turn


@pytest.fixture
def stock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "stock.json").write_text(json.dumps(STOCK))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_loop_over_every_record_for_those_walks_only_the_ones_picked(stock: Path) -> None:
    wrote = ('with open("reorder.txt", "w") as f:\n    for item in data["items"]:\n'
             '        f.write(item["name"] + "\\n")\n')
    b = block(wrote)
    verdict = those.check(_turn("ok, write the names of those into reorder.txt, one per line please", COUNTED), b)
    assert verdict is not None and "item['qty'] < item['reorder_at']" in verdict.warning
    assert b.code == ('with open("reorder.txt", "w") as f:\n    for item in data["items"]:\n'
                      "        if item['qty'] < item['reorder_at']:\n            f.write(item[\"name\"] + \"\\n\")\n")
    # run for real after the earlier code, as in the session
    done = subprocess.run([sys.executable, "-c", COUNTED + "\n" + b.code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (stock / "reorder.txt").read_text().split() == ["tape", "soap"]


def test_a_comprehension_with_another_name_gets_the_condition_in_its_name(stock: Path) -> None:
    earlier = 'print(sum(1 for it in data["items"] if it["qty"] < it["reorder_at"]))'
    b = block('names = [x["name"] for x in data["items"]]\nprint(names)')
    assert those.check(_turn("which ones are they?", earlier), b) is not None
    assert b.code == "names = [x[\"name\"] for x in data[\"items\"] if x['qty'] < x['reorder_at']]\nprint(names)"


def test_left_alone_without_those_with_its_own_condition_after_a_failed_run_or_other_records(stock: Path) -> None:
    wrote = 'for item in data["items"]:\n    print(item["name"])'
    cases = [
        ("now list every item's name", COUNTED, {}),  # no "those": all of them asked
        ("print those", 'for item in data["items"]:\n    print(item)', {}),  # nothing picked before
        ("print those", COUNTED, {"exit_code": 1}),  # the earlier code failed
        ("print those", COUNTED.replace('data["items"]', 'data["orders"]'), {}),  # other records
    ]
    for request, earlier, extra in cases:
        assert those.check(_turn(request, earlier, **extra), block(wrote)) is None, request
    own = 'for item in data["items"]:\n    if item["qty"] < 3:\n        print(item["name"])'
    assert those.check(_turn("print those", COUNTED), block(own)) is None
