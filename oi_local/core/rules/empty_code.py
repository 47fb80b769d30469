"""Empty code: a Python block of comments alone (`# Your previous code had syntax errors`) does
nothing, yet run it ends the turn as "The code ran without errors and printed nothing." (a long
paste's question got that after four tries). Such a block is not run; the model is told it held no
code, once a turn (the second time the turn ends, and the honest end says why)."""
from __future__ import annotations

import ast

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Not run: the code block holds only comments, so it would do nothing. Write the code that does what I asked."


def empty(code: str) -> bool:
    try:
        return not ast.parse(code).body and bool(code.strip())
    except SyntaxError:
        return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or not empty(block.code):
        return None
    turn.counts["empty code"] += 1
    return Verdict(note=NOTE, again=turn.counts["empty code"] == 1, stop=turn.counts["empty code"] > 1)


rule = Rule(
    name="empty code", setting="repair_slips", check=check,
    summary="a Python block of comments alone is not run: the model is told it held no code, once a turn; the "
            "second time the turn ends")
