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


def test_a_trips_nights_come_from_the_first_and_last_dates_of_the_named_text_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "roadtrip.txt").write_text("Road trip plan\n\nLeave home: 2 May 2026, early\nMotel in Bend: 2 May 2026 - 5 May 2026\n"
                                           "Cabin near Sisters, 5 May 2026 to 9 May 2026\nDrive back 9 May 2026\n")
    request = "how many nights is the trip in roadtrip.txt?"
    assert day_counts.asked(request) == (date(2026, 5, 2), date(2026, 5, 9), "nights")
    turn = make_turn(request, runs=(ran("print(3 + 4 + 9)", "16\n"),))
    ask = day_counts.after_run(turn)
    assert ask is not None and ask.own
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.startswith("7 nights from 02 May 2026 to 09 May 2026")
    assert day_counts.after_run(make_turn(request, runs=(ran("x", "7\n"),))) is None  # the count printed
    # no trip asked (a count of days in a diary), or dates without a year: left alone
    (tmp_path / "diary.txt").write_text("3 Jan 2026 ran\n9 Jan 2026 ran\n")
    assert day_counts.asked("how many days did I run in diary.txt?") is None
    (tmp_path / "plan.txt").write_text("arrive 2 May, leave 9 May\n")
    assert day_counts.asked("how many nights am I away, going by plan.txt?") is None
