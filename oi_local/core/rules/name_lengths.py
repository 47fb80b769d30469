"""Name lengths: asked "How many people are on the guest list now?" of guests.txt, the 0.5B model wrote
`len('guests.txt')`, which counts the letters of the name, and answered "10 people" (ho56, session 57).
`len()` of a string that is the name of a file here (not a variable holding its text) is the number of
its lines that are not blank, read from the file, before it runs; the person is told."""
from __future__ import annotations

import ast
import os

from oi_local.core.pycheck import rewrite
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: len({name!r}) counts the letters of the file's name; it counts the file's lines now."
LINES = "len([line for line in open({name!r}, encoding='utf-8', errors='replace').read().splitlines() if line.strip()])"


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "len(" not in block.code:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    edits, names = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "." in arg.value \
                    and os.path.isfile(arg.value) and node.lineno == node.end_lineno:
                edits.append((node.lineno, node.col_offset, node.end_col_offset or 0, LINES.format(name=arg.value)))
                names.append(arg.value)
    if not edits:
        return None
    block.message["content"] = rewrite(block.code, edits)
    return Verdict(warning=NOTE.format(name=names[0]))


rule = Rule(
    name="name lengths", setting="repair_slips", check=check,
    summary="`len('guests.txt')` of a file that is here counts the letters of its name: it counts the file's lines "
            "that are not blank before it runs (the person is told)")
