"""Bill splits: what each pays of a bill with a tip added, split among people."""
from __future__ import annotations

import subprocess
import sys

import pytest

from oi_local.core.rules import bill_splits

from .handmade import make_turn, ran

REQUEST = "dinner came to $92.50 for the three of us, we're adding 18% for the tip and splitting it. what does each owe?"


def test_a_wrong_split_gets_the_loops_code() -> None:
    # whole suite (ho3): the tip times four was printed
    assert bill_splits.asked("Our restaurant bill is 186.40. We want to add a 15% tip and split the whole thing evenly "
                             "between 4 people. How much does each person pay?") == {"bill": 186.4, "percent": 15.0, "people": 4}
    assert bill_splits.asked(REQUEST) == {"bill": 92.5, "percent": 18.0, "people": 3}  # "for the three of us"
    turn = make_turn("the bill is 92.50, add an 18% tip and split it between 3 people - how much each?",
                     runs=(ran("x", "16.65\n"),))
    ask = bill_splits.after_run(turn)
    assert ask is not None and ask.own and bill_splits.after_run(turn) is None  # once a turn
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out == "18% is 16.65, the total 109.15; each of the 3 pays 36.38\n"
    assert bill_splits.after_run(make_turn("the bill is 92.50, add an 18% tip and split it between 3 people",
                                           runs=(ran("x", "36.38\n"),))) is None


@pytest.mark.parametrize("request_text", [
    "what is 15% of 186.40?",  # no split
    "split 186.40 between 4 people",  # nothing added
    "bill 40 and 60, 10% tip, split between 2",  # two amounts
])
def test_left_alone(request_text: str) -> None:
    assert bill_splits.asked(request_text) is None
