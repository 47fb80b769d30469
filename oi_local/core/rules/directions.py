"""Directions: a request that sets a bound one way ("every item with fewer than 5 in stock") and code
that tests it the other way (`float(row["qty"]) > 5`) gives the other rows, without an error. Asked to
fix make_report.py so it listed the items with fewer than 5 in stock, the 0.5B model made the quantity
a number and kept the script's `> 5`: nuts and screws, not bolts, washers and hinges (ho33-fix-low-stock).
Where the request names one bound with one direction, and the code (or the text of a Python script it
writes) compares a value with that number once, the other way, the comparison is turned the request's
way before it runs; the person is told. Bounds the code tests with `<=` for "fewer than" (or other
strictness) are left alone: only the direction is a slip."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {changes} (the request asks for {words})."
_NUM = r"(\d+(?:\.\d+)?)"
_BOUNDS = [
    (re.compile(rf"\b(?:fewer|less|lower|smaller|cheaper|shorter)\s+than\s+\$?{_NUM}", re.I), "<"),
    (re.compile(rf"\b(?:under|below)\s+\$?{_NUM}", re.I), "<"),
    (re.compile(rf"\b(?:more|greater|larger|bigger|higher|longer|older|dearer)\s+than\s+\$?{_NUM}", re.I), ">"),
    (re.compile(rf"\b(?:over|above|exceeding)\s+\$?{_NUM}", re.I), ">"),
    (re.compile(rf"\bat\s+least\s+\$?{_NUM}", re.I), ">="),
    (re.compile(rf"\b(?:at\s+most|no\s+more\s+than)\s+\$?{_NUM}", re.I), "<="),
    (re.compile(rf"\$?{_NUM}\s+(?:or|and)\s+(?:more|above|over|up|higher|greater)\b", re.I), ">="),
    (re.compile(rf"\$?{_NUM}\s+(?:or|and)\s+(?:less|fewer|below|under|lower)\b", re.I), "<="),
]
_OPS = {ast.Lt: "<", ast.Gt: ">", ast.LtE: "<=", ast.GtE: ">="}
_MIRROR = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}


def bound(request: str) -> tuple[str, float, str] | None:
    """(operator, number, the words) of the one bound the request sets, else None."""
    found: dict[tuple[str, float], str] = {}
    for pattern, op in _BOUNDS:
        for m in pattern.finditer(request):
            if not re.match(r"\s*(?:%|percent|per\s*cent)", request[m.end():]):
                found.setdefault((op, float(m.group(1))), m.group(0))
    if len(found) != 1:
        return None
    (op, number), words = next(iter(found.items()))
    return op, number, words


def _turned(code: str, op: str, number: float) -> tuple[str, list[str]]:
    """`code` with its one comparison against `number` turned to `op`, when it goes the other way."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    against = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in _OPS):
            continue
        left, right = n.left, n.comparators[0]
        for const, other, mirrored in ((right, left, False), (left, right, True)):
            if isinstance(const, ast.Constant) and isinstance(const.value, (int, float)) \
                    and not isinstance(const.value, bool) and float(const.value) == number \
                    and not isinstance(other, ast.Constant):
                against.append((n, other, mirrored))
    if len(against) != 1:
        return code, []
    n, other, mirrored = against[0]
    has = _OPS[type(n.ops[0])]
    has = _MIRROR[has] if mirrored else has
    if has[0] == op[0] or n.lineno != n.end_lineno:  # the same direction (strictness aside)
        return code, []
    old = ast.get_source_segment(code, n)
    value = ast.get_source_segment(code, other)
    if old is None or value is None:
        return code, []
    const = n.comparators[0] if not mirrored else n.left
    new = f"{value} {op} {ast.get_source_segment(code, const)}"
    lines = code.splitlines(keepends=True)
    if lines[n.lineno - 1].count(old) != 1:
        return code, []
    lines[n.lineno - 1] = lines[n.lineno - 1].replace(old, new)
    return "".join(lines), [f"{old} became {new}"]


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.broken_scripts import with_text, written_texts

    if block.lang != "python":
        return None
    asked = bound(turn.request)
    if asked is None:
        return None
    op, number, words = asked
    code, changes = _turned(block.code, op, number)
    if not changes:  # the text of a script the code writes whole (a fix written out)
        for path, text in written_texts(block.code):
            new, made = _turned(text, op, number) if path.endswith(".py") else (text, [])
            whole = with_text(code, text, new) if made else None
            if whole is not None:
                code, changes = whole, [f"{c} in {path}" for c in made]
                break
    if not changes:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(changes="; ".join(changes), words=repr(words)))


rule = Rule(
    name="directions", setting="repair_slips", check=check,
    summary="a request that sets one bound one way (\"fewer than 5 in stock\") whose code, or the text of a script it "
            "writes, compares a value with that number once, the other way (`qty > 5`), has the comparison turned the "
            "request's way before it runs; the person is told")
