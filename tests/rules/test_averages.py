from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import averages

from .handmade import block, make_turn

SALES = "region,amount\nNorth,10\nSouth,30\nNorth,20\nSouth,50\nSouth,10\n"
TOTALS = ('import csv\nfrom collections import defaultdict\ntotals = defaultdict(float)\n'
          'for r in csv.DictReader(open("sales.csv")):\n    totals[r["region"]] += float(r["amount"])\n'
          'print(dict(totals))\nprint(max(totals, key=totals.get))')
MEANS = ('import csv\nfrom collections import defaultdict\ntotals, counts = defaultdict(float), defaultdict(int)\n'
         'for r in csv.DictReader(open("sales.csv")):\n    totals[r["region"]] += float(r["amount"])\n    counts[r["region"]] += 1\n'
         'avg = {k: totals[k] / counts[k] for k in totals}\nprint(avg)')
ASK = "what's the average sale per region in sales.csv?"
LARGEST = 'import csv\nrows = list(csv.DictReader(open("sales.csv")))\nprint(max(float(r["amount"]) for r in rows))'


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "sales.csv").write_text(SALES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_average_asked_of_code_that_never_divides_is_asked_afresh() -> None:
    turn = make_turn(ASK)
    verdict = averages.check(turn, block(LARGEST))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == "Not run: an average was asked for, and the code never divides; asked afresh."
    assert "in each group" in (verdict.ask.text or "")
    assert averages.check(turn, block(LARGEST)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    (ASK, MEANS),  # divides
    (ASK, 'import pandas as pd\nprint(pd.read_csv("sales.csv").groupby("region")["amount"].mean())'),
    (ASK, 'import statistics\nprint(statistics.fmean([10, 20]))'),
    (ASK, 'import pandas as pd\nprint(pd.read_csv("sales.csv").groupby("region").agg("mean"))'),
    ("which film has the best average rating in films.csv?",
     'import csv\nprint(max(csv.DictReader(open("films.csv")), key=lambda r: float(r["avg_rating"]))["title"])'),
    ("what's the total per region in sales.csv?", TOTALS),  # no average asked
    ("What does idempotent mean? and what do you mean by it?", TOTALS),  # "mean" as a word
    ("add the average to sales.csv", TOTALS),  # not a question
    (ASK, 'import csv\nrows = list(csv.DictReader(open("sales.csv")))'),  # prints nothing
    (ASK, "print(58.25)"),  # typed in: the made-up results rule's
])
def test_left_alone(request_text: str, code: str) -> None:
    assert averages.check(make_turn(request_text), block(code)) is None


def test_a_printed_label_is_not_an_average() -> None:
    code = 'total = sum([10, 20, 30])\nprint(f"Average: {total}")'
    assert averages.check(make_turn("what's the average of 10, 20 and 30?"), block(code)) is not None


def test_in_a_turn_the_retry_divides() -> None:
    interp, model = scripted_interpreter([f"```python\n{LARGEST}\n```", f"```python\n{MEANS}\n```", "North 15, South 30."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    interp.asked_column = False  # per group would ask first: an amount per region worked out over every row
    out = interp.chat(ASK, display=False)
    outputs = [m["content"] for m in out if m.get("type") == "console" and m.get("format") == "output"]
    assert any("never divides" in o for o in outputs)
    assert any("'North': 15.0" in o and "'South': 30.0" in o for o in outputs)
    assert "15.0" in subprocess.run([sys.executable, "-c", MEANS], capture_output=True, text=True).stdout


@pytest.mark.parametrize("agg", ["count", "sum"])
def test_one_column_summed_or_counted_for_an_average_is_averaged(agg: str) -> None:
    code = f'import pandas as pd\ndf = pd.read_csv("sales.csv")\nprint(df.groupby("region")["amount"].{agg}().round(2).to_dict())'
    b = block(code)
    verdict = averages.check(make_turn(ASK), b)
    assert verdict is not None and verdict.ask is None and f".{agg}() is its .mean()" in verdict.warning
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "{'North': 15.0, 'South': 30.0}"
    # asked also how many, or for a total, a count or sum may be meant: asked afresh as before
    for request in ("how many sales are there and what's the average sale in sales.csv?",
                    "what's the total and the average sale in sales.csv?"):
        verdict = averages.check(make_turn(request), block(code))
        assert verdict is not None and verdict.ask is not None


GET_TOTALS = ('import csv\nsums = {}\nwith open("sales.csv", newline="") as f:\n    for r in csv.DictReader(f):\n'
              '        key = r["region"]\n        sums[key] = sums.get(key, 0) + float(r["amount"])\n'
              'best = max(sums, key=sums.get)\nprint(best, sums[best])')


@pytest.mark.parametrize("code, printed", [
    (TOTALS, "{'North': 15.0, 'South': 30.0}\nSouth"),
    (GET_TOTALS, "South 30.0"),
])
def test_totals_added_up_per_group_for_an_average_are_divided_by_each_count(code: str, printed: str) -> None:
    b = block(code)
    verdict = averages.check(make_turn("Which region has the best average sale in sales.csv, and what is it?"), b)
    assert verdict is not None and verdict.ask is None and "divided by each group's count" in verdict.warning
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == printed
    # a total asked as well: the sums may be meant, so the request is asked afresh as before
    verdict = averages.check(make_turn("What is the total and the average sale per region in sales.csv?"), block(code))
    assert verdict is not None and verdict.ask is not None


def test_totals_in_nested_loops_are_divided_after_the_outer_one(tmp_path: Path) -> None:
    (tmp_path / "more.csv").write_text("region,amount\nNorth,60\n")
    code = ('import csv\nt = {}\nfor name in ["sales.csv", "more.csv"]:\n    for r in csv.DictReader(open(name)):\n'
            '        t[r["region"]] = t.get(r["region"], 0) + float(r["amount"])\nprint(t)')
    b = block(code)
    assert averages.check(make_turn("what's the average sale per region in sales.csv and more.csv?"), b) is not None
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "{'North': 30.0, 'South': 30.0}"
