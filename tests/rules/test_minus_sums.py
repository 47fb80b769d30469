"""Minus sums: a total of the negative amounts, taken away later, is made positive."""
from __future__ import annotations

import subprocess
import sys

from oi_local.core.rules import minus_sums

from .handmade import block, make_turn

CODE = ('amounts = [2000.0, 169.97, -1000.0, -290.79]\nmoney_in = sum(a for a in amounts if a > 0)\n'
        'money_out = sum(a for a in amounts if a < 0)\nprint("out:", round(money_out, 2))\n'
        'print("left over:", round(money_in - money_out, 2))\n')


def test_the_minus_total_taken_away_is_made_positive() -> None:
    b = block(CODE)
    verdict = minus_sums.check(make_turn("how much came in and how much was left over?"), b)
    assert verdict is not None and "money_out = -sum(a for a in amounts if a < 0)" in b.code
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True).stdout
    assert out.splitlines() == ["out: 1290.79", "left over: 879.18"]


def test_left_alone_when_added_negated_already_or_never_taken_away() -> None:
    for code in (CODE.replace("money_in - money_out", "money_in + money_out"),
                 CODE.replace("money_out = sum(", "money_out = -sum("),
                 CODE.replace('print("left over:", round(money_in - money_out, 2))\n', ""),
                 CODE.replace("if a < 0", "if a > 100")):
        b = block(code)
        assert minus_sums.check(make_turn("how much was left over?"), b) is None and b.code == code, code
