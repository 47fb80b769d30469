"""Name lengths: asked "How many people are on the guest list now?" of guests.txt, the 0.5B model wrote
`len('guests.txt')`, which counts the letters of the name, and answered "10 people" (ho56, session 57); asked to
sort the names in members.txt, it wrote `sorted('members.txt')`, the letters of the name in order (ho57, session
58). `len()` of a string that is the name of a file here (not a variable holding its text) is the number of its
lines that are not blank, read from the file, before it runs; `sorted()`, `list()`, `set()`, `max()` and the like of
one, or a `for` loop over one, take those lines. The person is told."""
from __future__ import annotations

import ast
import os

from oi_local.core.pycheck import rewrite
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {call}({name!r}) takes the letters of the file's name; it takes the file's lines now."
LINES = "len([line for line in open({name!r}, encoding='utf-8', errors='replace').read().splitlines() if line.strip()])"
ITEMS = "[line for line in open({name!r}, encoding='utf-8', errors='replace').read().splitlines() if line.strip()]"
_OVER_ITEMS = {"sorted", "list", "set", "tuple", "reversed", "enumerate", "max", "min"}


def _file_name(node: ast.AST) -> str | None:
    """The string, when it is the name of a file here written on one line."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value \
            and os.path.isfile(node.value) and node.lineno == node.end_lineno:
        return node.value
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    edits, said = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and (
                node.func.id == "len" and len(node.args) == 1 or node.func.id in _OVER_ITEMS):
            arg = node.args[0]
            name = _file_name(arg)
            if name is None:
                continue
            if node.func.id == "len":
                if node.lineno != node.end_lineno:
                    continue
                edits.append((node.lineno, node.col_offset, node.end_col_offset or 0, LINES.format(name=name)))
            else:
                edits.append((arg.lineno, arg.col_offset, arg.end_col_offset or 0, ITEMS.format(name=name)))
            said.append((node.func.id, name))
        elif isinstance(node, (ast.For, ast.comprehension)) and (name := _file_name(node.iter)) is not None:
            edits.append((node.iter.lineno, node.iter.col_offset, node.iter.end_col_offset or 0, ITEMS.format(name=name)))
            said.append(("for ... in", name))
    if not edits:
        return None
    block.message["content"] = rewrite(block.code, edits)
    return Verdict(warning=NOTE.format(call=said[0][0], name=said[0][1]))

rule = Rule(
    name="name lengths", setting="repair_slips", check=check,
    summary="`len('guests.txt')` of a file that is here counts the letters of its name: it counts the file's lines "
            "that are not blank before it runs; `sorted('members.txt')`, `list()`, `set()`, `max()` and the like of one, "
            "or a loop over one, take those lines (the person is told)")
