"""Paces: the pace or speed of one distance in one time."""
from __future__ import annotations

import subprocess
import sys

import pytest

from oi_local.core.rules import paces

from .handmade import failed, make_turn, ran

REQUEST = "rode 26.2 miles in 1:45:00 this morning. what was my speed in km/h, and pace per km?"


def _out(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout


def test_a_clock_time_read_as_a_number_gets_the_loops_code() -> None:
    # ho50: 1:52:30 was read as 152.30 seconds, and 0.09 was the answer
    found = paces.asked(REQUEST)
    assert found is not None and found["seconds"] == 6300 and found["per"] == "km" and found["pace"] and found["speed"]
    turn = make_turn(REQUEST, runs=(ran("x", "0.25\n"),))
    ask = paces.after_run(turn)
    assert ask is not None and ask.own and paces.after_run(turn) is None  # once a turn
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    assert _out(code) == "pace: 2:29 min per km (2.49 minutes)\nspeed: 24.09 km/h\n"  # 42.16 km in 105 minutes
    assert paces.after_run(make_turn(REQUEST, runs=(ran("x", "24.1 km/h, 2:30 per km\n"),))) is None
    assert paces.after_run(make_turn(REQUEST, runs=(failed("x", "ValueError: could not convert"),))) is not None


def test_minutes_per_mile_from_spelled_time() -> None:
    found = paces.asked("walked 5 km in 1 hour 10 minutes, what's that in minutes per mile?")
    assert found is not None and found["per"] == "mile" and found["seconds"] == 4200 and not found["speed"]
    assert _out(paces.ready_code(found)) == "pace: 22:32 min per mile (22.53 minutes)\n"
    request = "ran 10k in 48:10 - pace?"
    assert paces.after_run(make_turn(request, runs=(ran("x", "4:49 per km\n"),))) is None
    assert paces.after_run(make_turn(request, runs=(ran("x", "4.82 minutes\n"),))) is None
    assert paces.after_run(make_turn(request, runs=(ran("x", "4.0\n"),))) is not None


@pytest.mark.parametrize("request_text", [
    "I run 5 km at 7:30 am, what pace should I aim for?",  # a clock time, not how long it took
    "what's 13.1 miles in km?",  # no pace asked
    "ran 5 km and then 3 km in 40:00, pace?",  # two distances
])
def test_left_alone(request_text: str) -> None:
    assert paces.asked(request_text) is None
