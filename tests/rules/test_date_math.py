from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, date_math

from .handmade import block, make_turn

SUBS = ("customer,started,cancelled,billing\nFatima Silva,2023-07-18,2025-02-11,annual\n"
        "Jonas Rossi,2022-01-03,2023-09-10,annual\nAmi Ko,2024-05-01,2024-06-01,monthly\n")
AS_INTS = ('import csv\nwith open("subscriptions.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
           'best, most = "", 0\nfor row in rows:\n    days = int(row["started"]) - int(row["cancelled"])\n'
           '    if days > most:\n        best, most = row["customer"], days\nprint(best, most)')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "subscriptions.csv").write_text(SUBS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True).stdout.strip()


def test_dates_subtracted_as_numbers_are_subtracted_as_dates(folder: Path) -> None:
    failed = subprocess.run([sys.executable, "-c", AS_INTS], cwd=folder, capture_output=True, text=True)
    assert "invalid literal for int()" in failed.stderr  # as the model wrote it
    b = block(AS_INTS)
    verdict = date_math.check(make_turn("subscriptions.csv: whose subscription lasted the longest, how many days?"), b)
    assert verdict is not None and "started and cancelled are subtracted as dates" in verdict.warning
    assert _run(b.code, folder) == "Jonas Rossi 615"
    bare = 'import csv\nfor r in csv.DictReader(open("subscriptions.csv")):\n    print(r["cancelled"] - r["started"])'
    b = block(bare)
    assert date_math.check(make_turn("how long did each last?"), b) is not None
    assert _run(b.code, folder).splitlines() == ["574", "615", "31"]


@pytest.mark.parametrize("code", [
    'import csv\nfor r in csv.DictReader(open("subscriptions.csv")):\n    print(r["customer"] - r["billing"])',  # not dates
    'from datetime import date\nimport csv\nfor r in csv.DictReader(open("subscriptions.csv")):\n'
    '    print((date.fromisoformat(r["cancelled"]) - date.fromisoformat(r["started"])).days)',               # already dates
    'print(5 - 3)',
])
def test_left_alone(code: str) -> None:
    b = block(code)
    assert date_math.check(make_turn("how long did each subscription in subscriptions.csv last?"), b) is None and b.code == code


def test_off_with_repair_slips() -> None:
    assert date_math.rule not in active(make_turn("x", repair_slips=False).engine, "check")


def test_a_date_column_cut_as_text_is_read_as_text(folder: Path) -> None:
    (folder / "orders.csv").write_text("order_date,amount\n2025-01-04,120.5\n2025-01-17,89.9\n2025-02-02,520\n")
    code = ('import pandas as pd\ndf = pd.read_csv("orders.csv", parse_dates=["order_date"])\n'
            'print(df.groupby(df["order_date"].str[:7])["amount"].sum().idxmax())')
    failed = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True)
    assert "Can only use .str accessor" in failed.stderr  # as the model wrote it
    b = block(code)
    verdict = date_math.check(make_turn("which month in orders.csv brought in the most?"), b)
    assert verdict is not None and "order_date is read as text" in verdict.warning
    assert "parse_dates" not in b.code and _run(b.code, folder) == "2025-02"
    kept = 'import pandas as pd\ndf = pd.read_csv("orders.csv", parse_dates=["order_date"])\nprint(df["order_date"].dt.month)'
    assert date_math.check(make_turn("months?"), block(kept)) is None
