"""Filtered totals: one total over the rows a request narrows to, after a run that failed."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import filtered_totals

from .handmade import failed, make_turn, ran

SALES = ("date,item,size,qty,unit_price\n2025-03-02,Oat latte,M,2,3.60\n2025-03-05,Latte,M,4,3.40\n"
         "2025-02-27,Oat latte,L,1,4.10\n2025-03-20,Oat latte,L,3,4.10\n2025-03-21,Tea,S,5,2.00\n")
REQUEST = "How much money did oat lattes make us in March? Everything is in sales.csv."


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sales.csv").write_text(SALES)
    return tmp_path


def test_a_failed_run_gets_the_narrowed_total(here: Path) -> None:
    # ho41: an example's filter copied, a column summed by position, dates typed in as numbers
    first = failed("sum(...)", "NameError: name 'sales' is not defined")
    assert filtered_totals.after_run(make_turn(REQUEST, runs=(first,))) is None  # the note may mend it first
    turn = make_turn(REQUEST, runs=(first, failed("x", "KeyError: 'department'")))
    ask = filtered_totals.after_run(turn)
    assert ask is not None and ask.own and filtered_totals.after_run(turn) is None
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here).stdout
    assert out.splitlines()[0] == "2 rows:" and out.splitlines()[-1] == "total: 19.5"  # 2*3.60 + 3*4.10
    assert filtered_totals.after_run(make_turn(REQUEST, runs=(ran("x", "19.5\n"),))) is None


def test_an_average_of_a_named_column(here: Path) -> None:
    (here / "trips.csv").write_text("date,mode,minutes\n2025-01-02,bike,30\n2025-01-03,bus,45\n2025-01-06,bike,24\n")
    found = filtered_totals.asked("what's the average minutes of my bike trips in trips.csv?", here)
    assert found is not None and found["mean"] and found["column"] == "minutes"
    out = subprocess.run([sys.executable, "-c", filtered_totals.ready_code(found)], capture_output=True, text=True,
                         cwd=here).stdout
    assert out.splitlines()[-1] == "average: 27.0"


@pytest.mark.parametrize("request_text", [
    "How much money did we make in sales.csv?",  # nothing narrowed
    "which item made the most money in March? sales.csv",  # a group
    "how much did oat lattes make per month? sales.csv",  # a group
    "How much money did oat lattes over 3 cups make us? sales.csv",  # narrowed by a number
])
def test_left_alone(here: Path, request_text: str) -> None:
    assert filtered_totals.asked(request_text, here) is None, request_text
