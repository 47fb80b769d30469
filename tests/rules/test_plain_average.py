"""Plain average: code that never reads the column a plain average is asked of gets the loop's own code."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import plain_average

from .handmade import block, make_turn

ROWS = "date,route,distance_km,climb_m\n2025-04-02,to work,11.3,64\n2025-04-05,canal loop,24.6,85\n2025-04-08,to work,,64\n"
# the 0.5B model's first code (ho13): the dates, not the distances
DATES = 'import csv\nwith open("walks.csv") as f:\n    d = [r["date"] for r in csv.DictReader(f)]\nprint((d[-1] - d[0]) / 7)'


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "walks.csv").write_text(ROWS)
    return tmp_path


def test_code_that_never_reads_the_asked_column_gets_code_that_averages_it(here: Path) -> None:
    turn = make_turn("whats my average walk distance? every walk is in walks.csv")
    verdict = plain_average.check(turn, block(DATES))
    assert verdict is not None and verdict.ask is not None and verdict.ask.own and "distance_km" in verdict.note
    code = (verdict.ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here).stdout
    assert out == "average distance_km: 17.95 (over 2 rows)\n"  # the blank left out
    assert plain_average.check(turn, block(DATES)) is None  # once a turn


@pytest.mark.parametrize("request_text", [
    "what's the average distance_km per route? walks.csv",  # a group (a column)
    "average distance in 2025 in walks.csv",  # a year
    "what's the average distance of the canal loop walks? walks.csv",  # a value of the file: rows to pick
    "what's my average walk? walks.csv",  # no column named
    "what's the average distance? walks.csv and runs.csv",  # not one file (runs.csv is not there: still one)
])
def test_left_alone(here: Path, request_text: str) -> None:
    (here / "runs.csv").write_text(ROWS)
    assert plain_average.check(make_turn(request_text), block(DATES)) is None, request_text


def test_code_that_reads_the_column_runs(here: Path) -> None:
    code = DATES.replace('r["date"]', 'float(r["distance_km"] or 0)')
    assert plain_average.check(make_turn("whats my average walk distance? it's in walks.csv"), block(code)) is None


def test_a_measure_word_names_the_column_and_per_row_is_no_group(here: Path) -> None:
    (here / "loaves.csv").write_text("date,flour,hydration_pct,loaf_weight_g\n2025-01-04,spelt,68,948\n2025-01-09,rye,72,901\n")
    (here / "sleep.csv").write_text("night,bedtime,hours_slept\n2025-05-01,23:10,7.2\n2025-05-02,23:40,6.8\n")
    assert plain_average._target("What do my loaves weigh on average? it's all in loaves.csv", here) == (
        "loaves.csv", "loaf_weight_g")
    # one row a night: "per night" is every row, not a group
    assert plain_average._target("what's my average sleep per night in sleep.csv?", here) == ("sleep.csv", "hours_slept")
    (here / "sleep.csv").write_text("night,bedtime,hours_slept\nFri,23:10,7.2\nFri,23:40,6.8\n")
    assert plain_average._target("what's my average sleep per night in sleep.csv?", here) is None  # nights repeat: a group


def test_a_run_that_printed_no_number_near_the_mean_gets_the_loops_code(here: Path) -> None:
    from .handmade import failed, ran

    request = "whats my average walk distance? every walk is in walks.csv"
    summed = make_turn(request, runs=(ran("print(sum(...))", "35.9\n"),))  # added up, never divided
    ask = plain_average.after_run(summed)
    assert ask is not None and ask.own and "average of distance_km in walks.csv" in (ask.text or "")
    assert plain_average.after_run(summed) is None  # once a turn
    for output in ("17.95\n", "The average is 17.9 km\n"):
        turn = make_turn(request, runs=(ran("print(...)", output),))
        assert plain_average.after_run(turn) is None, output
    table = "".join(f"2025-05-{d:02d} {v}\n" for d, v in enumerate((11.3, 24.6, 18.0, 17.9), 1))  # one mean a day
    assert plain_average.after_run(make_turn(request, runs=(ran("print(...)", table),))) is not None
    failing = make_turn(request, runs=(failed("x", "TypeError: object of type 'DictReader' has no len()"),))
    assert plain_average.after_run(failing) is not None  # the loop's code does not fail


def test_amounts_written_with_a_sign_are_averaged(here: Path) -> None:
    from .handmade import failed

    # "$12.50": float() fails on it; the loop's code and its mean keep the digits (a cell of text still
    # leaves the rule out: its code would fail on it)
    (here / "spend.csv").write_text('date,shop,Amount\n2025-03-01,bakery,$12.50\n2025-03-02,market,"$1,200.00"\n'
                                    "2025-03-03,cafe,\n2025-03-04,bakery,$3.25\n")
    request = "what's the average Amount in spend.csv?"
    assert plain_average._target(request, here) == ("spend.csv", "Amount")
    turn = make_turn(request, runs=(failed("float(r['Amount'])", "ValueError: could not convert string to float: '$12.50'"),))
    ask = plain_average.after_run(turn)
    assert ask is not None and ask.own
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here).stdout
    assert out == "average Amount: 405.25 (over 3 rows)\n"
    (here / "spend.csv").write_text("date,shop,Amount\n2025-03-01,bakery,$12.50\n2025-03-02,market,n/a\n")
    assert plain_average.after_run(make_turn(request, runs=turn.runs)) is None


def test_a_file_with_one_column_of_numbers_needs_no_column_named(here: Path) -> None:
    # ho52: "What was my average?" of date,resting_bpm; nothing named the column, four runs failed
    (here / "resting_hr.csv").write_text("date,resting_bpm\n2025-03-01,62\n2025-03-02,64\n2025-03-03,61\n")
    request = "My watch exported my resting heart rate for the last 30 days to resting_hr.csv. What was my average?"
    assert plain_average._target(request, here) == ("resting_hr.csv", "resting_bpm")
    (here / "rides.csv").write_text("ride_id,date,km,minutes\n1,2025-03-01,12,40\n2,2025-03-02,20,61\n")
    assert plain_average._target("what was my average? rides.csv", here) is None  # two columns of numbers
    (here / "scores.csv").write_text("year,score\n2021,12\n2022,15\n")
    assert plain_average._target("whats the average in scores.csv", here) == ("scores.csv", "score")  # a year is no measure
