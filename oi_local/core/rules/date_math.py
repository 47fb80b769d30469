"""Date math: CSV dates are text, and the 0.5B model subtracted them as numbers. Asked whose
subscription lasted longest, it wrote `int(row["started"]) - int(row["cancelled"])` over ISO dates,
then `float(...)`, then the bare strings: five failed runs, each told the value is a date (ho36).
A subtraction of two columns of a CSV the turn reads, whose values are all ISO dates (each side bare
or wrapped in int() or float()), is made a subtraction of dates in days before the code runs:
`abs((date.fromisoformat(a) - date.fromisoformat(b)).days)` (how long between them; the model's order
of the two is as often backwards as not). The person is told.
And dates read as dates, then cut as text: `pd.read_csv(..., parse_dates=["order_date"])` and then
`df["order_date"].str[:7]` for the month, "Can only use .str accessor with string values" (ho6); where
a column given to parse_dates is cut with .str, it is read as text."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {pairs} are subtracted as dates, in days (CSV dates are text, not numbers)."
TEXT_NOTE = "Changed before it ran: {columns} is read as text, as the code cuts it with .str (read as dates, .str fails)."
_ISO = re.compile(r"\d{4}-\d\d-\d\d")


def _column(side: ast.expr) -> tuple[ast.Subscript, str] | None:
    """The `row["col"]` of a side, bare or in int()/float(), with its column."""
    if isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id in ("int", "float") \
            and len(side.args) == 1:
        side = side.args[0]
    if isinstance(side, ast.Subscript) and isinstance(side.slice, ast.Constant) and isinstance(side.slice.value, str):
        return side, side.slice.value
    return None


def date_columns(turn: Turn, code: str) -> set[str]:
    """The columns of the CSV files the turn reads whose values are all ISO dates."""
    from oi_local.core.rules.text_numbers import _csv_files, columns_where

    return columns_where(_csv_files(turn, code), lambda v: bool(_ISO.fullmatch(v)))


def as_dates(code: str, columns: set[str]) -> tuple[str, list[str]]:
    """`code` with each one-line subtraction of two date columns made one of dates in days, and the pairs."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, pairs = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) and n.lineno == n.end_lineno):
            continue
        left, right = _column(n.left), _column(n.right)
        if left is None or right is None or left[1] not in columns or right[1] not in columns:
            continue
        sa, sb = ast.get_source_segment(code, left[0]), ast.get_source_segment(code, right[0])
        if not sa or not sb:
            continue
        edits.append((n.lineno, n.col_offset, n.end_col_offset or n.col_offset,
                      f"abs((date.fromisoformat({sa}) - date.fromisoformat({sb})).days)"))
        pairs.append(f"{left[1]} and {right[1]}")
    if not edits:
        return code, []
    code = rewrite(code, edits)
    if not re.search(r"^from datetime import .*\bdate\b(?!time)", code, re.M):
        code = "from datetime import date\n" + code
    return code, list(dict.fromkeys(pairs))


def kept_as_text(code: str) -> tuple[str, list[str]]:
    """`code` with `parse_dates=[...]` dropped from read_csv when a column it names is cut with `.str`."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    cut = {n.value.slice.value for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "str"
           and isinstance(n.value, ast.Subscript) and isinstance(n.value.slice, ast.Constant)
           and isinstance(n.value.slice.value, str)}
    edits, columns = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "read_csv"):
            continue
        for k in n.keywords:
            named = [e.value for e in k.value.elts if isinstance(e, ast.Constant)] if k.arg == "parse_dates" \
                and isinstance(k.value, (ast.List, ast.Tuple)) else []
            if named and set(named) <= cut and k.value.lineno == k.value.end_lineno:
                segment = ast.get_source_segment(code, k)
                if segment:
                    edits.append(segment)
                    columns += [str(c) for c in named]
    for segment in edits:
        code = re.sub(r",\s*" + re.escape(segment), "", code, count=1)
    return code, columns


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    code, columns = kept_as_text(block.code) if "parse_dates" in block.code else (block.code, [])
    pairs: list[str] = []
    if "-" in code:
        code, pairs = as_dates(code, date_columns(turn, code))
    if not (pairs or columns) or code == block.code:
        return None
    block.message["content"] = code
    notes = [NOTE.format(pairs=", ".join(pairs))] if pairs else []
    notes += [TEXT_NOTE.format(columns=", ".join(columns))] if columns else []
    return Verdict(warning=" ".join(notes))


rule = Rule(
    name="date math", setting="repair_slips", check=check,
    summary="a subtraction of two CSV columns of ISO dates, bare or in int()/float() (`int(r[\"started\"]) - "
            "int(r[\"cancelled\"])`), is made a subtraction of dates in days before it runs, and a column read with "
            "`parse_dates` that the code cuts with `.str` is read as text; the person is told")
