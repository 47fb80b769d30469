from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import thresholds

from .handmade import block, make_turn

ORDERS = "order_id,country,total\n1,Germany,240.00\n2,Austria,80.00\n3,France,500.00\n4,Austria,120.50\n"
ASK = "Copy the orders from Germany and Austria with a total over 100 into dach_over_100.csv, same columns."
NO_TOTAL = ('import csv\nrows = list(csv.DictReader(open("orders.csv")))\nkeep = [r for r in rows if r["country"] in '
            '("Germany", "Austria")]\nwith open("dach_over_100.csv", "w", newline="") as f:\n'
            '    w = csv.DictWriter(f, fieldnames=rows[0].keys())\n    w.writeheader()\n    w.writerows(keep)\nprint(len(keep))')
WITH_TOTAL = NO_TOTAL.replace('("Germany", "Austria")]', '("Germany", "Austria") and float(r["total"]) > 100]')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "orders.csv").write_text(ORDERS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_code_without_the_threshold_is_asked_afresh() -> None:
    turn = make_turn(ASK)
    verdict = thresholds.check(turn, block(NO_TOTAL))  # 100 only inside the file name
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == 'Not run: the code never tests "total over 100", which the request asks for; asked afresh.'
    assert '"total over 100"' in (verdict.ask.text or "")
    assert thresholds.check(turn, block(NO_TOTAL)) is None  # once a turn


def test_a_loop_that_picks_rows_without_the_threshold_gets_it_added(folder: Path) -> None:
    code = ('import csv\nwith open("orders.csv", newline="") as f:\n    reader = csv.DictReader(f)\n'
            '    fields, rows = reader.fieldnames, list(reader)\norders = []\nfor r in rows:\n'
            '    if r["country"] == "Germany" or r["country"] == "Austria":\n        orders.append(r)\n'
            'print([o["order_id"] for o in orders])')
    b = block(code)
    verdict = thresholds.check(make_turn(ASK), b)
    assert verdict is not None and verdict.ask is None and "float(r['total']) > 100" in verdict.warning
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder).stdout
    assert out == "['1', '4']\n"  # Germany 240 and Austria 120.50; not Austria 80


@pytest.mark.parametrize("request_text, code, lang", [
    (ASK, WITH_TOTAL, "python"),
    (ASK, WITH_TOTAL.replace("> 100]", "> 100.0]"), "python"),
    (ASK, 'import pandas as pd\ndf = pd.read_csv("orders.csv")\nprint(df.query("total > 100"))', "python"),
    (ASK, "awk -F, '$3 > 100' orders.csv", "shell"),
    ("Which orders have a total of at least 1,200?", 'import csv\nprint([r for r in csv.DictReader(open("orders.csv"))'
     ' if float(r["total"]) >= 1_200])', "python"),
    ("Which orders got over 20% off?", 'import csv\nprint([r for r in csv.DictReader(open("orders.csv"))'
     ' if float(r["off"]) > 0.2])', "python"),
    ("Copy the orders from Germany into germany.csv", NO_TOTAL, "python"),  # no threshold asked
    ("List the files over 10 MB", 'import os\nprint([f for f in os.listdir() if os.path.getsize(f) > 10*2**20])', "python"),
    ("Fix report.py so it lists orders over 100", NO_TOTAL, "python"),  # about a script
    (ASK, "print(2)", "python"),  # reads no file
])
def test_left_alone(request_text: str, code: str, lang: str) -> None:
    assert thresholds.check(make_turn(request_text), block(code, lang=lang)) is None


def test_conditions() -> None:
    assert thresholds.conditions("members who paid $1,200 or more, and items under 5") == [
        ("paid $1,200 or more", 1200.0, False), ("items under 5", 5.0, False)]
    assert thresholds.conditions("files over 10 MB and the last 3 days") == []


def test_in_a_turn_the_retry_keeps_the_threshold(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{NO_TOTAL}\n```", f"```python\n{WITH_TOTAL}\n```", "Copied 2 orders."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    out = interp.chat(ASK, display=False)
    outputs = [m["content"] for m in out if m.get("type") == "console" and m.get("format") == "output"]
    assert any("Not run: the code never tests" in o for o in outputs)
    rows = list(csv.DictReader(open(folder / "dach_over_100.csv")))
    assert [r["order_id"] for r in rows] == ["1", "4"]
    assert subprocess.run([sys.executable, "-c", WITH_TOTAL], capture_output=True, text=True, cwd=folder).stdout.strip() == "2"
