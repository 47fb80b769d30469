"""Max rows: `df.max()` takes each column's largest value on its own, so `df.max().month` is the
month last in the alphabet, not the month of the largest number. Asked which month of rainfall.csv
was the wettest, the 0.5B model printed `rainfall.max().month` and answered September (ho33-multi-rainfall).
When the column so read holds text and the CSV the frame was read from has one number column, the
read becomes the row of that column's largest (or smallest) value, `df.loc[df["rain_mm"].idxmax(),
"month"]`, before the code runs, and the person is told."""
from __future__ import annotations

import ast
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {changes} (.max() takes each column's largest value on its own)."


def _frames(tree: ast.AST) -> dict[str, Path]:
    """Names given `pd.read_csv("x.csv")` (or read_table), with their file."""
    found = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                and n.value.func.attr in ("read_csv", "read_table") and n.value.args \
                and isinstance(n.value.args[0], ast.Constant) and isinstance(n.value.args[0].value, str):
            found[n.targets[0].id] = Path(n.value.args[0].value)
    return found


def _reads(tree: ast.AST) -> list[tuple[ast.expr, str, str, str]]:
    """Each `df.max().col` / `df.max()["col"]` (and min): (node, frame, max or min, column)."""
    found: list[tuple[ast.expr, str, str, str]] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute):
            call, column = n.value, n.attr
        elif isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str):
            call, column = n.value, n.slice.value
        else:
            continue
        if isinstance(call, ast.Call) and not call.args and not call.keywords and isinstance(call.func, ast.Attribute) \
                and call.func.attr in ("max", "min") and isinstance(call.func.value, ast.Name) \
                and n.lineno == n.end_lineno:
            found.append((n, call.func.value.id, call.func.attr, column))
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.asked_column import _table
    from oi_local.core.rules.text_numbers import numeric_columns

    if block.lang != "python" or ".m" not in block.code:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    frames = _frames(tree)
    edits, changes = [], []
    for node, frame, which, column in _reads(tree):
        path = frames.get(frame)
        if path is None or not path.is_file():
            continue
        columns = _table(path)
        numbers = numeric_columns([path])
        if column not in columns or column in numbers or len(numbers) != 1:
            continue
        new = f"{frame}.loc[{frame}[{next(iter(numbers))!r}].idx{which}(), {column!r}]"
        edits.append((node.lineno, node.col_offset, node.end_col_offset or 0, new))
        changes.append(f"{ast.unparse(node)} became {new}")
    if not edits:
        return None
    block.message["content"] = rewrite(block.code, edits)
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="max rows", setting="repair_slips", check=check,
    summary="`df.max().month` (or min) for a text column of a CSV with one number column becomes the row of that "
            "column's largest value, `df.loc[df[\"rain_mm\"].idxmax(), \"month\"]`, before the code runs (the "
            "column-wise max gave the month last in the alphabet); the person is told")
