"""Joined tables: who has the most over two CSV files (names in one, amounts per id in the other)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import joined_tables

from .handmade import block, failed, make_turn, ran

CUSTOMERS = "id,name,email\n1,Hannah Lowe,hannah@example.com\n2,Yuki Sato,yuki@example.com\n3,Omar Haddad,omar@example.com\n"
ORDERS = ("order_id,customer_id,amount\n101,1,20.00\n102,2,$150.50\n103,1,35.00\n104,3,12.25\n105,2,40.00\n"
          "106,1,19.99\n107,1,5.00\n")
REQUEST = "who's our biggest customer by total spend? orders are in orders.csv and the names are in customers.csv"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "customers.csv").write_text(CUSTOMERS)
    (tmp_path / "orders.csv").write_text(ORDERS)
    return tmp_path


def _code(ask: object) -> str:
    return (getattr(ask, "text", "") or "").split("```python\n")[1].split("\n```")[0]


def test_code_that_reads_one_file_gets_the_code_that_joins_both(here: Path) -> None:
    # ho49 (read after its end): customers.csv alone, then orders.csv alone, then a KeyError
    one = 'import csv\nwith open("customers.csv") as f:\n    print(max(csv.DictReader(f), key=lambda r: r["id"]))'
    verdict = joined_tables.check(make_turn(REQUEST), block(one))
    assert verdict is not None and verdict.ask is not None and verdict.ask.own
    out = subprocess.run([sys.executable, "-c", _code(verdict.ask)], capture_output=True, text=True, cwd=here).stdout
    assert out.splitlines()[-1] == "largest: Yuki Sato 190.5"  # $150.50 + 40, over Hannah's 79.99
    assert joined_tables.best_name(joined_tables.asked(REQUEST, here) or {}) == "Yuki Sato"


def test_most_orders_counts_rows_and_least_takes_the_smallest(here: Path) -> None:
    found = joined_tables.asked("which customer placed the most orders? see orders.csv and customers.csv", here)
    assert found is not None and found["column"] is None
    out = subprocess.run([sys.executable, "-c", joined_tables.ready_code(found)], capture_output=True, text=True,
                         cwd=here).stdout
    assert out.splitlines()[-1] == "largest: Hannah Lowe 4.0"
    found = joined_tables.asked("who spent the least? orders.csv has the orders, customers.csv the names", here)
    assert found is not None and found["smallest"] and joined_tables.best_name(found) == "Omar Haddad"


def test_a_run_without_the_name_or_a_failed_one_gets_the_code_once(here: Path) -> None:
    assert joined_tables.after_run(make_turn(REQUEST, runs=(ran("x", "Yuki Sato 190.5\n"),))) is None
    turn = make_turn(REQUEST, runs=(ran("x", "4\n"),))
    assert joined_tables.after_run(turn) is not None and joined_tables.after_run(turn) is None
    assert joined_tables.after_run(make_turn(REQUEST, runs=(failed("x", "KeyError: 'name'"),))) is not None


@pytest.mark.parametrize("request_text", [
    "who's our biggest customer by total spend? it's all in orders.csv",  # one file
    "how much did we sell in total? orders.csv and customers.csv",  # no who or which
])
def test_left_alone(here: Path, request_text: str) -> None:
    assert joined_tables.asked(request_text, here) is None


def test_files_with_no_ids_in_common_are_left_alone(here: Path) -> None:
    (here / "orders.csv").write_text("order_id,customer_id,amount\n101,7,20\n102,7,15\n")
    assert joined_tables.asked(REQUEST, here) is None


def test_which_names_a_column_of_the_people_file(here: Path) -> None:
    # ho41 (an older set): "which city brings in the most revenue" of customers.csv (city) and orders.csv
    (here / "customers.csv").write_text("customer_id,name,city\n101,Ana,Porto\n102,Ben,Ghent\n103,Cy,Porto\n")
    (here / "orders.csv").write_text("order_id,customer_id,total\n1,101,10.5\n2,102,30\n3,103,25\n4,102,1\n")
    found = joined_tables.asked("With customers.csv and orders.csv: which city brings in the most revenue, and "
                                "what's the total for that city?", here)
    assert found is not None and found["name"] == "city" and found["column"] == "total"
    assert joined_tables.best_name(found) == "Porto"
    out = subprocess.run([sys.executable, "-c", joined_tables.ready_code(found)], capture_output=True, text=True,
                         cwd=here).stdout
    assert out.splitlines()[-1] == "largest: Porto 35.5"
