from __future__ import annotations

import csv
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import same_columns

ORDERS = ("order_id,customer,amount,status\nORD-1,Ines,43.72,refunded\nORD-2,Ravi,10.00,shipped\n"
          "ORD-3,Ravi,173.73,refunded\nORD-4,Ada,5.50,shipped\n")
COUNT = ('import csv\nwith open("orders.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
         'print(len([r for r in rows if r["status"] == "refunded"]))')
NO_HEADER = ('import csv\nwith open("orders.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
             'with open("refunds.csv", "w") as f:\n    for r in rows:\n        if r["status"] == "refunded":\n'
             '            f.write(f"{r[\'order_id\']},{r[\'customer\']},{r[\'amount\']}\\n")\nprint("saved")')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "orders.csv").write_text(ORDERS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_copy_without_the_header_and_a_column_is_rewritten_with_the_whole_rows(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{COUNT}\n```", "2 orders were refunded.",
                                          f"```python\n{NO_HEADER}\n```", "Saved refunds.csv.", "Saved the 2 refunds."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    try:
        interp.chat("How many orders in orders.csv were refunded?", display=False)
        out = interp.chat("ok thx. can you save just the refunded ones to a new file refunds.csv, same columns?", display=False)
        rows = list(csv.reader(open(folder / "refunds.csv", newline="")))
        assert rows == [["order_id", "customer", "amount", "status"], ["ORD-1", "Ines", "43.72", "refunded"],
                        ["ORD-3", "Ravi", "173.73", "refunded"]]
        consoles = [str(m["content"]) for m in out if m["type"] == "console"]
        assert any("2 rows in refunds.csv, with the columns of orders.csv" in c for c in consoles)
    finally:
        interp.close()


def test_picked() -> None:
    source = [["id", "name", "n"], ["1", "Ines", "4"], ["2", "Ravi", "5"], ["3", "Ravi", "6"]]
    assert same_columns.picked(source, [["id", "n"], ["3", "6"], ["1", "4"]]) == [source[0], source[3], source[1]]
    assert same_columns.picked(source, [["Ravi"]]) is None  # two rows could be it
    assert same_columns.picked(source, [["9", "Zoe"]]) is None  # no row is it
    assert same_columns.picked(source, [["id", "name", "n"]]) is None  # a header alone


def test_left_alone(folder: Path) -> None:
    good = NO_HEADER.replace('f.write(f"{r[\'order_id\']},{r[\'customer\']},{r[\'amount\']}\\n")', 'f.write(",".join(r.values()) + "\\n")')
    good = good.replace('with open("refunds.csv", "w") as f:\n', 'with open("refunds.csv", "w") as f:\n    f.write("order_id,customer,amount,status\\n")\n')
    interp, model = scripted_interpreter([f"```python\n{good}\n```", "Saved refunds.csv."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    try:
        interp.chat("save the refunded orders from orders.csv to a new file refunds.csv, same columns", display=False)
        assert model.calls == 2  # the header is there: no more
        assert (folder / "refunds.csv").read_text().splitlines()[0] == "order_id,customer,amount,status"
    finally:
        interp.close()
