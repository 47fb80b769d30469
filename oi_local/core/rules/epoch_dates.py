"""Epoch dates: asked for one file per day from 1 to 10 March 2024, the 0.5B model made each day with
`datetime.fromtimestamp(i)` for i in 1..10: ten seconds after midnight on 1 January 1970, so every pass
wrote 1970-01-01.md and the folder stayed empty (ho44, a development run of session 46). Code that makes a
date from a timestamp that is a small number (a loop counter, a typed-in day) for a request that says
nothing of timestamps is not run; the model is told how to make the request's dates (once a turn)."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_again, instruction

NOTE = ("Not run: {call} is {arg} seconds after midnight on 1 January 1970, not a day of the request. Make the "
        "request's dates with date(year, month, day), and step through days with + timedelta(days=n) "
        "(from datetime import date, timedelta).")
_TIMES = re.compile(r"\b(?:timestamps?|epoch|unix|seconds|mtime|modified|changed)\b", re.I)
SMALL = 10 ** 7  # seconds: under four months after 1970, no real moment a request means


def _small(arg: ast.expr, loops: dict[str, ast.expr]) -> bool:
    """A number under SMALL, or a name a `for` loop takes from range() of such numbers."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float)) and not isinstance(arg.value, bool):
        return abs(arg.value) < SMALL
    if isinstance(arg, ast.Name) and arg.id in loops:
        it = loops[arg.id]
        return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
            and all(_small(a, {}) for a in it.args)
    return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "fromtimestamp(" not in block.code or turn.counts["epoch dates"] \
            or _TIMES.search(instruction(turn.request)):
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    loops = {n.target.id: n.iter for n in ast.walk(tree) if isinstance(n, ast.For) and isinstance(n.target, ast.Name)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "fromtimestamp" \
                and n.args and _small(n.args[0], loops):
            turn.counts["epoch dates"] += 1
            note = NOTE.format(call=ast.unparse(n), arg=ast.unparse(n.args[0]))
            return Verdict(note=note, ask=code_again(turn.engine, note, 64))
    return None


rule = Rule(
    name="epoch dates", setting="repair_slips", check=check,
    summary="code that makes a date from a small number as a timestamp (`datetime.fromtimestamp(i)` for i in "
            "range(1, 11): seconds after 1 January 1970) for a request that says nothing of timestamps is not run; "
            "the model is told to make the request's dates with date() and timedelta (once a turn)")
