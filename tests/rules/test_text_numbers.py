from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, text_numbers

from .handmade import block, make_turn, ran

ORDERS = "order_date,customer,amount\n2025-01-04,Hale,120.50\n2025-03-02,Okafor,240.00\n2025-04-26,Brandt,95.60\n"
BIGGEST = ('import csv\nwith open("orders.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
           "top = max(rows, key=lambda r: r['amount'])\nprint(top['customer'], top['amount'])")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "orders.csv").write_text(ORDERS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, check=True).stdout.strip()


def test_a_key_on_a_column_of_numbers_compares_numbers(folder: Path) -> None:
    assert _run(BIGGEST, folder) == "Brandt 95.60"  # as the model wrote it: "95.60" > "240.00" as text
    b = block(BIGGEST)
    verdict = text_numbers.check(make_turn("which order brought in the most money?"), b)
    assert verdict is not None and "amount" in verdict.warning
    assert "key=lambda r: float(r['amount'])" in b.code and _run(b.code, folder) == "Okafor 240.00"
    # rows read by the turn's earlier code; sorted() too
    later = 'for r in sorted(rows, key=lambda r: r["amount"], reverse=True):\n    print(r["customer"])'
    turn = make_turn("list the orders by amount", runs=(ran(BIGGEST, "Brandt 95.60"),))
    b = block(later)
    assert text_numbers.check(turn, b) is not None and 'key=lambda r: float(r["amount"])' in b.code


def test_left_alone(folder: Path) -> None:
    turn = make_turn("which order in orders.csv is the latest?")
    for code in (BIGGEST.replace("'amount'", "'order_date'"),  # not numbers
                 BIGGEST.replace("r['amount']", "float(r['amount'])"),  # already numbers
                 'print(max([3, 20], key=lambda x: x))'):  # no column
        b = block(code)
        assert text_numbers.check(turn, b) is None and b.code == code, code
    assert text_numbers.check(make_turn("the biggest?"), block("print(max(rows, key=lambda r: r['amount']))")) is None


def test_off_with_repair_slips() -> None:
    assert text_numbers.rule not in active(make_turn("x", repair_slips=False).engine, "check")


OVER = ('import csv\nwith open("orders.csv", newline="") as f:\n    reader = csv.DictReader(f)\n'
        '    rows = [r for r in reader if r["amount"] > 100]\nprint(len(rows), sum(float(r["amount"]) for r in rows))')


def test_a_row_value_compared_with_a_number_is_read_as_one(folder: Path) -> None:
    failed = subprocess.run([sys.executable, "-c", OVER], capture_output=True, text=True, cwd=folder)
    assert "not supported between instances of 'str' and 'int'" in failed.stderr  # as the model wrote it
    b = block(OVER)
    verdict = text_numbers.check(make_turn("how many orders in orders.csv are over 100?"), b)
    assert verdict is not None and "amount is read as a number" in verdict.warning
    assert 'float(r["amount"]) > 100' in b.code and _run(b.code, folder) == "2 360.5"
    # a for loop, the number on the left
    loop = ('import csv\nn = 0\nfor row in csv.DictReader(open("orders.csv")):\n    if 100 <= row["amount"]:\n'
            '        n += 1\nprint(n)')
    b = block(loop)
    assert text_numbers.check(make_turn("how many big orders?"), b) is not None and _run(b.code, folder) == "2"


def test_comparisons_left_alone(folder: Path) -> None:
    turn = make_turn("how many orders in orders.csv are over 100?")
    for code in ('import pandas as pd\ndf = pd.read_csv("orders.csv")\nprint((df["amount"] > 100).sum())',  # a column, not a row
                 OVER.replace('r["amount"] > 100', 'r["customer"] > "M"'),  # text with text
                 OVER.replace('r["amount"] > 100', 'r["order_date"] > "2025-02"'),  # dates
                 OVER.replace('r["amount"] > 100', 'float(r["amount"]) > 100')):  # already a number
        b = block(code)
        assert text_numbers.check(turn, b) is None and b.code == code, code


GLUED = ('import csv, json\nwith open("orders.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\ntotals = {}\n'
         'for row in rows:\n    c = row["customer"][0]\n    if c in totals:\n        totals[c] += row["amount"]\n'
         '    else:\n        totals[c] = row["amount"]\nprint(json.dumps(totals))')


def test_a_row_value_added_into_a_total_is_read_as_a_number(folder: Path) -> None:
    (folder / "orders.csv").write_text(ORDERS + "2025-05-01,Bright,8.00\n")
    assert _run(GLUED, folder) == '{"H": "120.50", "O": "240.00", "B": "95.608.00"}'  # as the model wrote it: glued text
    b = block(GLUED)
    verdict = text_numbers.check(make_turn("total per customer initial from orders.csv as json"), b)
    assert verdict is not None and "amount is read as a number" in verdict.warning
    assert _run(b.code, folder) == '{"H": 120.5, "O": 240.0, "B": 103.6}'
    total = 'import csv\nt = 0\nfor r in csv.DictReader(open("orders.csv")):\n    t += r["amount"]\nprint(t)'
    b = block(total)
    assert text_numbers.check(make_turn("add up the amounts"), b) is not None and _run(b.code, folder) == "464.1"


def test_additions_left_alone(folder: Path) -> None:
    turn = make_turn("list the customers of orders.csv")
    for code in (GLUED.replace('row["amount"]', 'row["customer"]'),  # text joined on purpose
                 GLUED.replace('row["amount"]', 'float(row["amount"])'),  # already numbers
                 'import csv\nnames = {}\nfor r in csv.DictReader(open("orders.csv")):\n    names[r["customer"]] = r["amount"]\n'
                 'print(names)'):  # stored, never added up
        b = block(code)
        assert text_numbers.check(turn, b) is None and b.code == code, code


def test_a_comprehension_handed_to_max_takes_numbers(folder: Path) -> None:
    code = ('import csv\nwith open("orders.csv", newline="") as f:\n    orders = list(csv.DictReader(f))\n'
            'print(max(o["amount"] for o in orders), min([o["amount"] for o in orders]))')
    assert _run(code, folder) == "95.60 120.50"  # as the model wrote it: compared as text
    b = block(code)
    verdict = text_numbers.check(make_turn("biggest and smallest order in orders.csv?"), b)
    assert verdict is not None and _run(b.code, folder) == "240.0 95.6"
    names = block('import csv\nrows = list(csv.DictReader(open("orders.csv")))\nprint(max(r["customer"] for r in rows))')
    assert text_numbers.check(make_turn("last customer name in orders.csv a-z?"), names) is None  # a column of words
