"""Digit sums: asked "What do you get if you add up all the digits of 2 to the power of 100?", the 0.5B model
printed 2 ** 100 and answered with it (ho4). When the request asks for the sum of a number's digits and
the code prints one value without going over its digits (no str(), no % 10, no "digit"), the value
printed becomes the sum of its digits before the code runs; the person is told."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: the sum of the digits of {value} is printed (the request asks for its digits added up)."
_ASKS = re.compile(r"\b(?:add(?:ing)?\s+up|sum(?:\s+up)?|total)\s+(?:of\s+)?(?:all\s+)?(?:the\s+|its\s+)?digits\b|"
                   r"\bdigits?\s+sum\b|\bsum\s+of\s+(?:all\s+)?(?:the\s+|its\s+)?digits\b", re.I)
_OVER_DIGITS = re.compile(r"\bstr\(|%\s*10\b|digit|map\(int", re.I)


def summed(code: str) -> tuple[str, str] | None:
    """`code` with its one `print(x)` printing the sum of x's digits, and x as written."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    prints = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id == "print" and len(n.args) == 1 and not n.keywords]
    if len(prints) != 1 or prints[0].lineno != prints[0].end_lineno:
        return None
    arg = prints[0].args[0]
    value = ast.get_source_segment(code, arg)
    if not value or isinstance(arg, (ast.Constant, ast.JoinedStr)):
        return None
    new = f"sum(int(d) for d in str({value}) if d.isdigit())"
    return rewrite(code, [(arg.lineno, arg.col_offset, arg.end_col_offset or 0, new)]), value


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or _OVER_DIGITS.search(block.code) or not _ASKS.search(instruction(turn.request)):
        return None
    found = summed(block.code)
    if found is None:
        return None
    block.message["content"], value = found
    return Verdict(warning=NOTE.format(value=value))


rule = Rule(
    name="digit sums", setting="repair_slips", check=check,
    summary="asked for the sum of a number's digits, code that prints one value without going over its digits "
            "prints the sum of that value's digits instead; the person is told")
