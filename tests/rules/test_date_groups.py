"""Date groups: asked per weekday, month or year, code grouping by each date groups by that."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import date_groups

from .handmade import block, make_turn, printed

# 2024-04-01 is a Monday
ROWS = "date,steps\n2024-04-01,1000\n2024-04-08,3000\n2024-04-05,9000\n2024-05-03,7000\n"
LOOP = ('import csv\nfrom collections import defaultdict\ngroups = defaultdict(list)\n'
        'with open("steps.csv", newline="") as f:\n    for r in csv.DictReader(f):\n'
        '        groups[r["date"]].append(float(r["steps"]))\n'
        'averages = {k: sum(v) / len(v) for k, v in sorted(groups.items())}\nprint(averages)')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "steps.csv").write_text(ROWS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_dict_keyed_by_each_date_is_keyed_by_the_weekday() -> None:
    b = block(LOOP)
    verdict = date_groups.check(make_turn("average steps for each day of the week from steps.csv?"), b)
    assert verdict is not None and "weekday" in verdict.warning
    assert printed(b.code) == "{'Friday': 8000.0, 'Monday': 2000.0}"


def test_by_month_and_pandas_groupby() -> None:
    b = block(LOOP)
    assert date_groups.check(make_turn("what are my average steps per month in steps.csv?"), b) is not None
    assert printed(b.code) == "{'2024-04': 4333.333333333333, '2024-05': 7000.0}"
    code = 'import pandas as pd\ndf = pd.read_csv("steps.csv")\nprint(df.groupby("date")["steps"].mean().idxmax())'
    b = block(code)
    assert date_groups.check(make_turn("on which weekday do I walk most, on average? steps.csv"), b) is not None
    assert printed(b.code) == "Friday"


def test_left_alone_when_not_asked_per_unit_or_already_grouped_so() -> None:
    assert date_groups.check(make_turn("average steps per day in steps.csv?"), block(LOOP)) is None
    month = LOOP.replace('groups[r["date"]]', 'groups[r["date"][:7]]')
    assert date_groups.check(make_turn("average steps per month in steps.csv?"), block(month)) is None
    assert date_groups.check(make_turn("per month and per year, steps.csv?"), block(LOOP)) is None
