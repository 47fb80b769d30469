"""Distinct count: how many different values of a column, spaces and capitals aside."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import distinct_count

from .handmade import failed, make_turn, ran

SIGNUPS = ("signed_up_on,email,source\n2025-01-02,ana@x.example,web\n2025-01-02,Ana@X.example ,app\n"
           "2025-01-03,bo@x.example,web\n2025-01-04,cy@x.example,web\n2025-01-05, bo@x.example,app\n")
REQUEST = ("How many different people actually signed up for the newsletter? signups.csv has doubles in it: some "
           "folks signed up twice, sometimes with capital letters or a stray space in their email.")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "signups.csv").write_text(SIGNUPS)
    return tmp_path


def test_a_count_of_the_doubles_gets_the_distinct_count(here: Path) -> None:
    # ho41: the addresses that came twice were counted ("4 repeated")
    turn = make_turn(REQUEST, runs=(ran("x", "2 repeated: {...}\n"),))
    ask = distinct_count.after_run(turn)
    assert ask is not None and ask.own and distinct_count.after_run(turn) is None
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here).stdout
    assert out == "3 different email values (5 rows)\n"
    assert distinct_count.after_run(make_turn(REQUEST, runs=(ran("x", "3\n"),))) is None
    assert distinct_count.after_run(make_turn(REQUEST, runs=(ran("x", "5\n"),))) is not None  # case kept: not asked
    assert distinct_count.after_run(make_turn(REQUEST, runs=(failed("x", "KeyError: 'e'"),))) is not None


def test_a_named_column_counts_as_written_too(here: Path) -> None:
    (here / "visits.csv").write_text("day,source\nmon,web\ntue,Web\nwed,app\n")
    request = "how many unique sources are in visits.csv?"
    assert distinct_count.asked(request, here) == ("visits.csv", "source", False)
    assert distinct_count.after_run(make_turn(request, runs=(ran("x", "3\n"),))) is None  # as written: fine
    assert distinct_count.after_run(make_turn(request, runs=(ran("x", "2\n"),))) is None


@pytest.mark.parametrize("request_text", [
    "how many rows are in signups.csv?",  # not distinct
    "how many different people signed up? signups.csv and more.csv",  # two files
])
def test_left_alone(here: Path, request_text: str) -> None:
    (here / "more.csv").write_text(SIGNUPS)
    assert distinct_count.asked(request_text, here) is None
