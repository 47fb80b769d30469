"""Line items: which thing made the most money over the items of every record, with records left out as asked."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import line_items

from .handmade import block, make_turn, scripted_chat

ORDERS = {"orders": [
    {"id": 1, "status": "shipped", "items": [{"product": "Beans", "qty": 2, "unit_price": 24.0},
                                             {"product": "Filters", "qty": 5, "unit_price": 3.2}]},
    {"id": 2, "status": "cancelled", "items": [{"product": "Grinder", "qty": 2, "unit_price": 89.0}]},
    {"id": 3, "status": "delivered", "items": [{"product": "Grinder", "qty": 1, "unit_price": 89.0},
                                               {"product": "Beans", "qty": 3, "unit_price": 24.0}]}]}
ASK = "Which product made us the most money in orders.json? Ignore the cancelled orders. Tell me how much it brought in."
# the 0.5B model's first try (ho42): the first order's largest unit price
FIRST = 'import json\ndata = json.load(open("orders.json"))\nprint(max(i["unit_price"] for i in data["orders"][0]["items"]))'


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "orders.json").write_text(json.dumps(ORDERS))
    return tmp_path


def test_the_items_of_every_order_but_the_cancelled_are_added_up(here: Path) -> None:
    out = scripted_chat([f"```python\n{FIRST}\n```", "Beans brought in 120.00."], ASK)
    printed = "\n".join(str(m["content"]) for m in out if m["type"] == "console")
    assert "Beans: 120.00\nGrinder: 89.00\nFilters: 16.00\nmost: Beans 120.00" in printed  # the cancelled 178 left out


def test_units_only_the_named_status_and_what_is_left_alone(here: Path) -> None:
    found = line_items.asked("which product sold the most units in orders.json? only the delivered ones", here)
    assert found is not None and not found["money"] and found["only"] == [("status", "delivered")]
    run = subprocess.run([sys.executable, "-c", line_items.ready_code(found)], capture_output=True, text=True, cwd=here)
    assert run.stdout.splitlines()[-1] == "most: Beans 3.00", run.stderr
    for request in ("how many orders are in orders.json?", "which order in orders.json is the newest?",
                    "which product made the most money in sales.json?"):  # no such file
        assert line_items.asked(request, here) is None, request
    walks = ('import json\nt = {}\nfor o in json.load(open("orders.json"))["orders"]:\n    if o["status"] == "cancelled":\n'
             '        continue\n    for i in o["items"]:\n        t[i["product"]] = t.get(i["product"], 0) + i["qty"] * i["unit_price"]\n'
             'print(max(t.items(), key=lambda kv: kv[1]))')
    assert line_items.check(make_turn(ASK), block(walks)) is None
