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
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: the rows of {file} are read from the second line (the first is its header: {header})."
COUNT_NOTE = "Changed before it ran: the count of {file}'s lines leaves out its header ({header})."
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


# "how many books are in books.csv": rows asked for, not lines ("how many lines", "rows incl. the header")
_HOW_MANY = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\b", re.I)
_LINES = re.compile(r"\blines?\b|\bheader|\bincl", re.I)


def _whole_lines(node: ast.AST) -> bool:
    """`f.readlines()`, `open(p).readlines()`, `f.read().splitlines()`, `f.read().split("\\n")`."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr == "readlines":
        return True
    inner = node.func.value
    return node.func.attr in ("splitlines", "split") and isinstance(inner, ast.Call) and \
        isinstance(inner.func, ast.Attribute) and inner.func.attr == "read" and \
        (node.func.attr == "splitlines" or (len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == "\n"))


def counted_lines(tree: ast.AST) -> list[ast.Call]:
    """`len(...)` of all of a file's lines: `len(f.readlines())`, or `len(lines)` with `lines = f.readlines()`
    given once, and `sum(1 for _ in f)` over an opened file."""
    given = [(n.targets[0].id, _whole_lines(n.value)) for n in ast.walk(tree) if isinstance(n, ast.Assign)
             and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)]
    lines = {name for name, whole in given if whole} - {name for name, whole in given if not whole}
    handles = {i.optional_vars.id for n in ast.walk(tree) if isinstance(n, ast.With) for i in n.items
               if isinstance(i.optional_vars, ast.Name)}
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and len(n.args) == 1) or n.lineno != n.end_lineno:
            continue
        a = n.args[0]
        if n.func.id == "len" and (_whole_lines(a) or (isinstance(a, ast.Name) and a.id in lines)):
            found.append(n)
        elif n.func.id == "sum" and isinstance(a, ast.GeneratorExp) and isinstance(a.elt, ast.Constant) and a.elt.value == 1 \
                and len(a.generators) == 1 and not a.generators[0].ifs and isinstance(a.generators[0].iter, ast.Name) \
                and a.generators[0].iter.id in handles:
            found.append(n)
    return found


def _rows_counted(turn: Turn, block: Block, code: str, file: str, header: list[str]) -> Verdict | None:
    """Asked how many things a CSV lists, code that counts its lines counts its header as one: the
    0.5B model's `len(f.readlines())` said 12 books for a books.csv of 11 and a header."""
    own = instruction(turn.request)
    if not _HOW_MANY.search(own) or _LINES.search(own):
        return None
    try:
        calls = counted_lines(ast.parse(code))
    except SyntaxError:
        return None
    if len(calls) != 1:
        return None
    call = calls[0]
    segment = ast.get_source_segment(code, call) or ""
    block.message["content"] = rewrite(code, [(call.lineno, call.col_offset, call.end_col_offset or 0, f"({segment} - 1)")])
    return Verdict(warning=COUNT_NOTE.format(file=file, header=", ".join(header)))


def check(turn: Turn, block: Block) -> Verdict | None:
    code = block.code
    if block.lang != "python" or _SKIPS.search(code):
        return None
    if "csv.reader(" not in code and "DictReader" not in code and "read_csv" not in code:
        opened = set(re.findall(r"""open\(\s*['"]([^'"]+\.csv)['"]""", code))
        header = _header(Path(next(iter(opened)))) if len(opened) == 1 else None
        return _rows_counted(turn, block, code, next(iter(opened)), header) if header else None
    if "csv.reader(" not in code:
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
            "row is a header (no number in it, one in the next row), walks from the second row; asked how many things "
            "such a CSV lists (not how many lines), code that counts its lines (`len(f.readlines())`) leaves the header "
            "out; the person is told")
