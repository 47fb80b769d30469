"""Own values: asked how many things in stock.json "have gone below their reorder level", the 0.5B
model took the first item's level (`level = data["items"][0]["reorder_at"]`) and compared every item
with it, and answered 4 for 6 (ho37). Where the request says "their" or "its own", and code compares,
inside a loop over records, a name bound to the first record's field with which each record has its
own, each record's own field is compared, and the person is told."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: each record is compared with its own {fields} (the code used the first record's for all)."
_OWN = re.compile(r"\b(?:their|its\s+own|each\s+one'?s|own)\b", re.I)


def _first_field(value: ast.expr) -> tuple[str, str] | None:
    """(the records' source, the field) of `records[0]["field"]`."""
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, str):
        inner = value.value
        if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Constant) and inner.slice.value == 0:
            return ast.unparse(inner.value), value.slice.value
    return None


def own(code: str) -> tuple[str, list[str]]:
    """`code` with a first record's field compared inside a loop over those records made each one's own."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    firsts: dict[str, tuple[str, str]] = {}
    bound: dict[str, int] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    bound[t.id] = bound.get(t.id, 0) + 1
                    found = _first_field(n.value)
                    if found:
                        firsts[t.id] = found
    firsts = {k: v for k, v in firsts.items() if bound.get(k) == 1}
    edits, fields = [], []
    for loop in ast.walk(tree):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)):
            continue
        source, var = ast.unparse(loop.iter), loop.target.id
        for n in ast.walk(loop):
            if not isinstance(n, ast.Compare):
                continue
            for side in [n.left, *n.comparators]:
                if isinstance(side, ast.Name) and side.id in firsts and firsts[side.id][0] == source:
                    field = firsts[side.id][1]
                    edits.append((side.lineno, side.col_offset, side.end_col_offset or side.col_offset, f"{var}[{field!r}]"))
                    fields.append(field)
    return (rewrite(code, edits) if edits else code), list(dict.fromkeys(fields))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "[0]" not in block.code or not _OWN.search(instruction(turn.request)):
        return None
    code, fields = own(block.code)
    if not fields or code == block.code:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(fields=", ".join(fields)))


rule = Rule(
    name="own values", setting="repair_slips", check=check,
    summary="asked about each record against \"their\" own value (\"below their reorder level\"), code that compares "
            "every record in a loop with the first record's field (`level = items[0][\"reorder_at\"]`) compares each "
            "with its own; the person is told")
