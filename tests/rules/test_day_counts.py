"""Day counts: how many days between the two dates a request names."""
from __future__ import annotations

import subprocess
import sys
from datetime import date

import pytest

from oi_local.core.rules import day_counts

from .handmade import failed, make_turn, ran

REQUEST = "the lease ends on 3 march 2027 - how many days is that from 2026-10-19?"


def test_a_made_up_count_gets_the_loops_code() -> None:
    # ho50: `timedelta(days=27)` from nowhere, and 27 printed
    assert day_counts.asked(REQUEST) == (date(2026, 10, 19), date(2027, 3, 3), "days")
    turn = make_turn(REQUEST, runs=(ran("x", "27\n"),))
    ask = day_counts.after_run(turn)
    assert ask is not None and ask.own and day_counts.after_run(turn) is None  # once a turn
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out == "135 days from 19 October 2026 to 03 March 2027 (136 counting both days)\n"
    assert day_counts.after_run(make_turn(REQUEST, runs=(ran("x", "135\n"),))) is None
    assert day_counts.after_run(make_turn(REQUEST, runs=(ran("x", "136 days\n"),))) is None  # both days counted
    assert day_counts.after_run(make_turn(REQUEST, runs=(failed("x", "ValueError: bad"),))) is not None


def test_weeks() -> None:
    request = "How many weeks are there between Jan 5, 2026 and 30 March 2026?"
    assert day_counts.asked(request) == (date(2026, 1, 5), date(2026, 3, 30), "weeks")
    assert day_counts.after_run(make_turn(request, runs=(ran("x", "12.0 weeks\n"),))) is None
    assert day_counts.after_run(make_turn(request, runs=(ran("x", "10\n"),))) is not None


@pytest.mark.parametrize("request_text", [
    "how many days until 19 july?",  # no year
    "how many days from 2026-01-01 to 2026-02-01 to 2026-03-01?",  # three dates
    "what day of the week is 2026-10-19 and 2026-10-20?",  # no count asked
])
def test_left_alone(request_text: str) -> None:
    assert day_counts.asked(request_text) is None
