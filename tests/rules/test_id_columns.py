"""Id columns: an identifier column taken as an amount is not run; asked afresh, then an honest end."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import id_columns

from .handmade import block, make_turn

ASK = "On average, how many days does it take for our orders to get delivered? Everything's in orders_export.csv."
AVERAGED = ('import csv\nwith open("orders_export.csv", newline="") as f:\n'
            '    orders = [int(r["order_id"]) for r in csv.DictReader(f) if r["status"] == "delivered"]\n'
            'print(round(sum(orders) / len(orders), 2))\n')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "orders_export.csv").write_text(
        "order_id,customer,ordered,status,total\n10231,Ana,2025-03-01,delivered,20.5\n10236,Bo,2025-03-02,delivered,8\n")
    return tmp_path


def test_an_id_taken_as_a_number_is_asked_afresh_then_the_turn_ends_saying_so(folder: Path) -> None:
    turn = make_turn(ASK)
    verdict = id_columns.check(turn, block(AVERAGED))
    assert verdict is not None and verdict.ask is not None and not verdict.stop
    assert "order_id, customer, ordered, status, total" in str(verdict.ask.text)
    again = id_columns.check(turn, block('import pandas as pd\nprint(pd.read_csv("orders_export.csv")["order_id"].mean())'))
    assert again is not None and again.stop and "does not seem to have" in again.note


def test_left_alone_for_ids_asked_about_other_columns_or_no_amount(folder: Path) -> None:
    cases = [
        ("what is the highest order id in orders_export.csv, and what is the average total?", AVERAGED),
        ("On average, how much is an order in orders_export.csv?",
         'import pandas as pd\nprint(pd.read_csv("orders_export.csv")["total"].mean())'),
        ("list the delivered orders in orders_export.csv", AVERAGED),
        ("On average how many days do deliveries take? see missing.csv", AVERAGED),
    ]
    for request, code in cases:
        assert id_columns.check(make_turn(request), block(code)) is None, request
    # grouping by an id (a key) is not taking it as an amount
    grouped = ('import pandas as pd\ndf = pd.read_csv("orders_export.csv")\n'
               'print(df.groupby("order_id")["total"].sum().mean())')
    assert id_columns.check(make_turn(ASK), block(grouped)) is None


def test_what_an_id_column_is() -> None:
    assert all(id_columns.id_column(c) for c in ("id", "order_id", "orderId", "Order ID", "ID"))
    assert not any(id_columns.id_column(c) for c in ("paid", "valid", "humid", "idle", "video"))


def test_in_the_loop_the_second_try_ends_the_turn_honestly(folder: Path) -> None:
    from scripted import scripted_interpreter

    code = "```python\n" + AVERAGED + "```"
    interp, model = scripted_interpreter([code, code, "10233.6"], computed_answers=True)
    # (a delivery time of a file with no delivery dates now ends before any code: core/rules/missing_inputs.py)
    try:
        interp.chat("On average, how many parcels did each delivered order have? Everything's in orders_export.csv.",
                    display=False)
        said = " ".join(str(m.get("content")) for m in interp.messages if m.get("role") == "assistant"
                        and m.get("type") == "message")
        assert "does not seem to have" in said or any("does not seem to have" in str(m.get("content"))
                                                      for m in interp.messages)
        assert not any(m.get("type") == "console" and "10233" in str(m.get("content")) for m in interp.messages)
    finally:
        interp.close()
