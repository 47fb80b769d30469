"""Plot columns: the loop's own code draws the columns a request names from the CSV it names."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import plot_columns

from .handmade import failed, make_turn, ran

TIDES = ("day,morning_m,evening_m,wind_kmh\n2025-03-03,1.9,2.4,12\n2025-03-01,1.2,2.0,30\n"
         "2025-03-02,1.5,2.2,18\n")
REQUEST = "chart the morning and evening tide heights from tides.csv together, save it as tides.png"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tides.csv").write_text(TIDES)
    return tmp_path


def _run(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_failed_two_column_plot_gets_the_loops_code(here: Path) -> None:
    # ho50: a one-series example adapted to four values a row failed to unpack
    found = plot_columns.asked(REQUEST, here)
    assert found is not None
    assert (found["x"], found["columns"], found["kind"], found["format"]) == ("day", ["morning_m", "evening_m"], "line",
                                                                               "%Y-%m-%d")
    turn = make_turn(REQUEST, runs=(failed("open('tides.csv')", "ValueError: too many values to unpack"),))
    ask = plot_columns.after_run(turn)
    assert ask is not None and ask.own and plot_columns.after_run(turn) is None  # once a turn
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = _run(code, here)
    assert "3 rows from 2025-03-01 to 2025-03-03" in out and "saved tides.png" in out
    # the highest and lowest points, for a question asked beside the chart (ho57: "which month was the busiest")
    assert "highest morning_m: 2025-03-03 1.9 | lowest: 2025-03-01 1.2" in out
    assert "highest evening_m: 2025-03-03 2.4 | lowest: 2025-03-01 2.0" in out
    assert (here / "tides.png").read_bytes().startswith(b"\x89PNG")


def test_a_run_that_saved_the_picture_is_left_alone(here: Path) -> None:
    (here / "tides.png").write_bytes(b"\x89PNG\r\n\x1a\n....")
    assert plot_columns.after_run(make_turn(REQUEST, runs=(ran("open('tides.csv')", "saved\n"),))) is None
    # made-up numbers: the code never read the CSV
    assert plot_columns.after_run(make_turn(REQUEST, runs=(ran("plt.plot([1, 2])", "saved\n"),))) is not None
    (here / "tides.png").write_text("day,morning_m\n")  # a table written into the picture is no picture
    assert plot_columns.after_run(make_turn(REQUEST, runs=(ran("open('tides.csv')", "saved\n"),))) is not None


def test_bars_per_word_value_are_summed_or_averaged(here: Path) -> None:
    (here / "spend.csv").write_text("category,amount\nfood,$12.50\nrent,900\nfood,7.50\n")
    request = "make a bar chart of the average amount per category in spend.csv and save it as spend.png"
    found = plot_columns.asked(request, here)
    assert found is not None and (found["x"], found["columns"], found["kind"], found["mean"]) == (
        "category", ["amount"], "bar", True)
    out = _run(plot_columns.ready_code(found), here)
    assert "average amount per category {'food': 10.0, 'rent': 900.0}" in out
    assert (here / "spend.png").read_bytes().startswith(b"\x89PNG")
    found = plot_columns.asked("pie chart of spend.csv by category, save as pie.png", here)
    assert found is not None and found["kind"] == "pie"
    assert "total amount per category {'food': 20.0, 'rent': 900.0}" in _run(plot_columns.ready_code(found), here)


def test_a_line_asked_over_a_column_of_words_is_a_line_in_the_files_order(here: Path) -> None:
    # ho54 dev: "make a line chart of the monthly visitors" (month names) drew bars
    (here / "visits.csv").write_text("month,visitors\nJanuary,120\nFebruary,95\nMarch,143\n")
    found = plot_columns.asked("Make a line chart of the monthly visitors in visits.csv, save it as visits.png", here)
    assert found is not None and (found["x"], found["columns"], found["kind"]) == ("month", ["visitors"], "line")
    code = plot_columns.ready_code(found)
    assert "plt.plot(xs" in code and "plt.bar" not in code
    assert "visitors per month {'January': 120.0, 'February': 95.0, 'March': 143.0}" in _run(code, here)
    assert (here / "visits.png").read_bytes().startswith(b"\x89PNG")
    found = plot_columns.asked("chart the visitors per month in visits.csv as visits.png", here)
    assert found is not None and found["kind"] == "bar"  # no kind named: bars for words, as before


def test_a_histogram_of_one_column(here: Path) -> None:
    found = plot_columns.asked("histogram of the wind in tides.csv please, as wind.svg", here)
    assert found is not None and (found["kind"], found["columns"]) == ("hist", ["wind_kmh"])
    _run(plot_columns.ready_code(found), here)
    assert b"<svg" in (here / "wind.svg").read_bytes()[:400]


@pytest.mark.parametrize("request_text", [
    "what is the average morning height in tides.csv?",  # no chart
    "plot tides.csv",  # no picture named, and three columns of numbers none of which is named
    "plot the rainfall in tides.csv and save it as rain.png",  # no such column
    "plot tides.csv and more.csv as both.png",  # two files
])
def test_left_alone(here: Path, request_text: str) -> None:
    (here / "more.csv").write_text(TIDES)
    assert plot_columns.asked(request_text, here) is None
