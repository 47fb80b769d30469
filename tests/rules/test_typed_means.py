"""Typed means: the average of a list of numbers the request types is known before code runs."""
from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from oi_local.core.rules import typed_means

from .handmade import failed, make_turn, ran, reply, scripted_chat

REQUEST = "my scores this season were 12, 15.5, -3 and 20 and 9 - whats my average? 2 decimal places"


def _code(ask: Any) -> str:
    return (ask.text or "").split("```python\n")[1].split("\n```")[0]


def test_the_list_and_the_places_asked() -> None:
    assert typed_means.asked(REQUEST) == (["12", "15.5", "-3", "20", "9"], 2)
    assert typed_means.asked("avg of 5 miles, 3 miles and 4.5 miles?") == (["5", "3", "4.5"], None)
    assert typed_means.asked("mean of 4,8,15,16,23,42") == (["4", "8", "15", "16", "23", "42"], None)


def test_a_wrong_mean_gets_the_loops_code() -> None:
    # ho52: eight numbers added, divided by 7 (20.0 for 17.5)
    request = "quick one - whats the average of 12.5, 18, 7.25, 30, 21.75, 9, 15.5 and 26"
    turn = make_turn(request, runs=(ran("print(140 / 7)", "20.0\n"),))
    ask = typed_means.after_run(turn)
    assert ask is not None and ask.own and ask.ready and "the 8 numbers" in (ask.text or "")
    assert typed_means.after_run(turn) is None  # once a turn
    out = subprocess.run([sys.executable, "-c", _code(ask)], capture_output=True, text=True).stdout
    assert out == "The average of the 8 numbers is 17.5\n"
    places = typed_means.after_run(make_turn(REQUEST, runs=(failed("x", "NameError: name 'x' is not defined"),)))
    assert places is not None
    out = subprocess.run([sys.executable, "-c", _code(places)], capture_output=True, text=True).stdout
    assert out == "The average of the 5 numbers is 10.7\n"


@pytest.mark.parametrize("printed", ["17.5\n", "Average: 17.50\n", "The mean is 17.5 (8 numbers)\n"])
def test_a_right_mean_is_left_alone(printed: str) -> None:
    turn = make_turn("whats the average of 12.5, 18, 7.25, 30, 21.75, 9, 15.5 and 26", runs=(ran("x", printed),))
    assert typed_means.after_run(turn) is None


def test_a_mean_rounded_is_right() -> None:
    turn = make_turn("mean of 1, 2 and 2 please", runs=(ran("x", "1.67\n"),))  # 5/3
    assert typed_means.after_run(turn) is None
    assert typed_means.after_run(make_turn("mean of 1, 2 and 2 please", runs=(ran("x", "1.5\n"),))) is not None


def test_a_reply_without_code() -> None:
    request = "average of 10, 20 and 40?"
    assert typed_means.follow_up(make_turn(request, reply("The average is 23.33."))) is None
    ask = typed_means.follow_up(make_turn(request, reply("The average is 35.")))
    assert ask is not None and "numbers = [10, 20, 40]" in (ask.text or "")


@pytest.mark.parametrize("request_text", [
    "what's the average speed if I drive 120 km in 1.5 hours and 80 km in 1 hour",  # not a list
    "average of the numbers in data.csv: 1, 2, 3",  # a file
    "average of 1,200, 1,350 and 980",  # thousands: commas are no separators here
    "weighted average of 3, 4 and 5",  # another kind of average
    "median of 3, 4, 5 and 10",
    "average of 3 and 5",  # two numbers: too little to tell a list
    "average of my last 3 runs: 30, 32, 28",  # a count beside the list
    "what is the average of 2024-05-01, 3, 4",  # a date
    "add up 12, 15 and 9",  # no average
])
def test_left_alone(request_text: str) -> None:
    assert typed_means.asked(request_text) is None


def test_in_a_chat() -> None:
    request = "quick one - whats the average of 12.5, 18, 7.25, 30, 21.75, 9, 15.5 and 26"
    out = scripted_chat(["```python\nprint((12.5 + 18 + 7.25 + 30 + 21.75 + 9 + 15.5 + 26) / 7)\n```",
                         "The average is 17.5."], request)
    consoles = [str(m["content"]) for m in out if m["type"] == "console"]
    assert consoles[0].strip() == "20.0" and consoles[-1].strip() == "The average of the 8 numbers is 17.5"
    assert out[-1]["content"] == "The average is 17.5."
