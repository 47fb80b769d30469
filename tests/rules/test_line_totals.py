"""Line totals: the total of a text file's one number a line, in the unit asked."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import line_totals

from .handmade import failed, make_turn, ran

RUNS = "mon  3.1 mi\nwed  5 mi\n\nthu  6.2 mi\nsat  4.4 mi\nsun  13.1 mi (half marathon!!)\n"
REQUEST = "i logged this weeks runs in runs.txt, all in miles. whats that in km total?"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs.txt").write_text(RUNS)
    return tmp_path


def test_a_failed_run_gets_the_total_in_the_asked_unit(here: Path) -> None:
    # ho49 (read after its end): lines converted at made-up places until the tries ran out
    turn = make_turn(REQUEST, runs=(failed("int(runs[i])", "ValueError: invalid literal for int() with base 10: 'wed  5 mi'"),))
    ask = line_totals.after_run(turn)
    assert ask is not None and ask.own and line_totals.after_run(turn) is None
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here).stdout
    assert out.splitlines()[-2:] == ["total: 31.8 mi (5 lines)", "total in km: 51.18 km"]
    assert line_totals.after_run(make_turn(REQUEST, runs=(ran("x", "51.18 km\n"),))) is None
    assert line_totals.after_run(make_turn(REQUEST, runs=(ran("x", "31.8\n"),))) is not None  # not in km


def test_an_average_with_dates_and_times_aside(here: Path) -> None:
    (here / "weights.txt").write_text("2025-01-03 07:10 81.2 kg\n2025-01-10 07:05 80.4 kg\n2025-01-17 07:20 79.9 kg\n")
    found = line_totals.asked("whats my average weight in weights.txt?", here)
    assert found is not None and found.values == (81.2, 80.4, 79.9) and found.target is None
    assert round(line_totals.expected(found), 2) == 80.5
    found = line_totals.asked("total of weights.txt in lbs?", here)
    assert found is not None and found.have == "kg" and found.target == "lbs"


@pytest.mark.parametrize("text, request_text", [
    ("1. buy milk\n2. call mum\n3. fix bike\n", "how many items total in todo.txt?"),  # counted, not added
    ("2 eggs and 3 apples\n4 pears\n", "what's the total in todo.txt?"),  # two numbers on a line
    ("1. buy milk\n2. call mum\n", "what's the total in todo.txt?"),  # list markers are no numbers
])
def test_left_alone(here: Path, text: str, request_text: str) -> None:
    (here / "todo.txt").write_text(text)
    assert line_totals.asked(request_text, here) is None, text
