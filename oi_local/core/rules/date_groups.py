"""Date groups: asked for the average steps "for each day of the week" from steps.csv, the 0.5B model
grouped by the date itself (`groups[r["date"]]`), drew 30 bars and named a date as the most active
weekday (ho38). Where the request asks per weekday, month or year, the named file has one column of
ISO dates, and the code groups by that column as it is (a dict key, `groupby("date")`), it groups by
the weekday's name, the month (2024-03) or the year; the person is told."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: grouped by the {unit} of {column}, as the request asks (the code grouped by each date)."
_UNITS = [
    ("weekday", re.compile(r"\b(?:days?\s+of\s+the\s+week|week\s*days?|per\s+weekday|which\s+weekday)\b", re.I)),
    ("month", re.compile(r"\b(?:(?:per|each|every|by|a)\s+month|monthly|months?\s+by\s+months?)\b", re.I)),
    ("year", re.compile(r"\b(?:(?:per|each|every|by|a)\s+year|yearly|annual(?:ly)?)\b", re.I)),
]
_WEEKDAY = '_dt.date.fromisoformat({text}[:10]).strftime("%A")'


def asked_unit(request: str) -> str | None:
    found = [unit for unit, rx in _UNITS if rx.search(request)]
    return found[0] if len(found) == 1 else None


def _key(text: str, unit: str, pandas: bool) -> str:
    if unit == "weekday":
        return f'pd.to_datetime({text}).dt.day_name()' if pandas else _WEEKDAY.format(text=text)
    cut = 7 if unit == "month" else 4
    return f"{text}.str[:{cut}]" if pandas else f"{text}[:{cut}]"


def regrouped(code: str, column: str, unit: str) -> str:
    """`code` with its groups keyed by `column` as it is keyed by the `unit` of it."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    edits = []

    def is_column(node: ast.expr) -> bool:
        return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == column

    for n in ast.walk(tree):
        if isinstance(n, ast.Subscript) and is_column(n.slice) and n.slice.lineno == n.slice.end_lineno:
            key = n.slice  # groups[r["date"]]
            text = ast.get_source_segment(code, key) or ""
            edits.append((key.lineno, key.col_offset, key.end_col_offset or 0, _key(text, unit, False)))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "groupby" and n.args:
            arg, frame = n.args[0], n.func.value
            if isinstance(arg, ast.Constant) and arg.value == column or is_column(arg):
                text = f"{ast.get_source_segment(code, frame)}[{column!r}]"
                edits.append((arg.lineno, arg.col_offset, arg.end_col_offset or 0, _key(text, unit, True)))
    if not edits:
        return code
    new = rewrite(code, edits)
    if unit == "weekday" and "_dt." in new:
        new = "import datetime as _dt\n" + new
    if "pd." in new and not re.search(r"^\s*import pandas as pd\b", new, re.M):
        new = "import pandas as pd\n" + new
    return new


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.named_month import date_column

    if block.lang != "python":
        return None
    unit = asked_unit(instruction(turn.request))
    if unit is None:
        return None
    found = date_column(turn.request, Path.cwd())
    if found is None or found[1] not in block.code:
        return None
    new = regrouped(block.code, found[1], unit)
    if new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(unit=unit, column=found[1]))


rule = Rule(
    name="date groups", setting="check_answers", check=check,
    summary="asked for something per weekday, month or year of a named file with one column of ISO dates, code that "
            "groups by that column as it is (`groups[r[\"date\"]]`, `groupby(\"date\")`) groups by the weekday's name, "
            "the month or the year; the person is told")
