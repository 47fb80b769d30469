"""Header row: code that walks `csv.reader(f)` over a file whose first line is its header treats the
header as data: `float("hours")` fails, or `totals["name"]` is a KeyError. In the development runs
7 of 18 blocks with `csv.reader` failed so, and the 0.5B model's next tries kept the walk. When the
file the code opens has a header (no number in its first row, one in its second) and the reader is
only walked in a `for` loop, the walk starts at the second row (the person is told)."""
from __future__ import annotations

import ast
import csv
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: the rows of {file} are read from the second line (the first is its header: {header})."
_NUMBER = re.compile(r"\s*[-+]?[£$€]?\d[\d,]*(?:\.\d+)?%?\s*")
_SKIPS = re.compile(r"\bnext\(|\[1:\]|islice|has_header")


def _is_reader(node: ast.AST) -> bool:
    f = node.func if isinstance(node, ast.Call) else None
    return isinstance(f, ast.Attribute) and f.attr == "reader" and isinstance(f.value, ast.Name) and f.value.id == "csv"


def _header(path: Path) -> list[str] | None:
    """The file's first row when it reads as a header: no number in it, a number in the next row."""
    try:
        with path.open(newline="", encoding="utf-8", errors="replace") as f:
            rows = [r for _, r in zip(range(2), csv.reader(f))]
    except OSError:
        return None
    if len(rows) < 2 or any(_NUMBER.fullmatch(c) for c in rows[0]) or not any(_NUMBER.fullmatch(c) for c in rows[1]):
        return None
    return rows[0]


def walked_readers(tree: ast.AST) -> list[ast.Call]:
    """`csv.reader(...)` calls whose rows are only walked by one `for` loop: `for row in csv.reader(f)`,
    or `reader = csv.reader(f)` with `reader` used once, as a `for` loop's iterable."""
    found = [n.iter for n in ast.walk(tree) if isinstance(n, ast.For) and _is_reader(n.iter)]
    uses: dict[str, list[ast.Name]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            uses.setdefault(n.id, []).append(n)
    loops = {id(n.iter) for n in ast.walk(tree) if isinstance(n, ast.For)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and _is_reader(n.value):
            used = uses.get(n.targets[0].id, [])
            if len(used) == 1 and id(used[0]) in loops:
                found.append(n.value)
    return [c for c in found if isinstance(c, ast.Call)]


def check(turn: Turn, block: Block) -> Verdict | None:
    code = block.code
    if block.lang != "python" or "csv.reader(" not in code or _SKIPS.search(code):
        return None
    opened = {f for f, rest in re.findall(r"""open\(\s*['"]([^'"]+\.csv)['"]([^)]*)\)""", code)
              if not re.search(r"""['"][wax+]""", rest)}
    if len(opened) != 1:
        return None
    file = opened.pop()
    header = _header(Path(file))
    try:
        calls = walked_readers(ast.parse(code)) if header else []
    except SyntaxError:
        return None
    if not header or len(calls) != 1:
        return None
    call = calls[0]
    if call.lineno != call.end_lineno:
        return None
    segment = ast.get_source_segment(code, call) or ""
    block.message["content"] = rewrite(code, [(call.lineno, call.col_offset, call.end_col_offset or 0, f"list({segment})[1:]")])
    return Verdict(warning=NOTE.format(file=file, header=", ".join(header)))


rule = Rule(
    name="header row", setting="repair_slips", check=check,
    summary="code that only walks `csv.reader(f)` in a `for` loop over the one CSV file it opens, when that file's first "
            "row is a header (no number in it, one in the next row), walks from the second row; the person is told")
