"""Line tests: code that reads a CSV file's raw lines (`for line in f`) and tests each line as text
meets two slips that match nothing and print a confident 0. Asked how many guests had said yes, the
0.5B model counted `line.startswith("yes")` in a file whose lines start with the guest's name (yes is
the second column); and a raw line keeps its "\\n", so `line.endswith("yes")` or the last field of
`line.split(",")` never equals a value; nor does a whole line (`customer == "Pro"` over the lines of
customers.csv counted 0 Pro customers, ho36). Before the code runs, a `startswith` of a value that starts
no line but is the whole value of one column, or a whole line compared with such a value, becomes a
test of that column's field, and an
`endswith` or a split of a raw line whose last field is used drops the line's end first. The person is told."""
from __future__ import annotations

import ast
import csv
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {changes}."
MAX_READ = 1_000_000
_OPENS = re.compile(r"""\bopen\(\s*r?['"]([^'"\n]+\.csv)['"]""")
_STRIP = '.rstrip("\\r\\n")'


def _raw_lines(tree: ast.AST) -> set[str]:
    """Names of loop variables that hold a file's raw lines: `for line in f` (f from `with open(...) as f`),
    `for line in open(...)`, `for line in f.readlines()`."""
    files = {item.optional_vars.id for n in ast.walk(tree) if isinstance(n, ast.With) for item in n.items
             if isinstance(item.optional_vars, ast.Name) and isinstance(item.context_expr, ast.Call)
             and isinstance(item.context_expr.func, ast.Name) and item.context_expr.func.id == "open"}
    names = set()
    for n in ast.walk(tree):
        if not (isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.target, ast.Name)):
            continue
        it = n.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "readlines":
            it = it.func.value
        if isinstance(it, ast.Name) and it.id in files or isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
                and it.func.id == "open":
            names.add(n.target.id)
    reassigned = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    return names - reassigned


def _rows(path: Path) -> list[list[str]] | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:MAX_READ]
    except OSError:
        return None
    if '"' in text or "\t" in text:
        return None  # quoted fields: a split on "," would cut them
    return [r for r in csv.reader(text.splitlines()) if r]


def _column(rows: list[list[str]], value: str) -> int | None:
    """The one column (not the first) whose fields are `value` somewhere, when no line starts with it."""
    if any(",".join(r).startswith(value) for r in rows):
        return None
    cols = {i for r in rows[1:] for i, v in enumerate(r) if i and v.strip() == value}
    return cols.pop() if len(cols) == 1 else None


def _index(node: ast.AST) -> int | None:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return value if isinstance(value, int) else None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "open(" not in block.code:
        return None
    files = [Path(f) for f in dict.fromkeys(_OPENS.findall(block.code)) if Path(f).is_file()]
    if len(files) != 1:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    lines = _raw_lines(tree)
    rows = _rows(files[0]) if lines else None
    if not rows:
        return None
    last = len(rows[0]) - 1
    # a split's last field keeps the line break: `line.split(",")[-1]`, or `[2]` of three columns
    ends = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.slice, (ast.Constant, ast.UnaryOp))
            and _index(n.slice) in (-1, last)}
    edits, changes = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                and n.func.value.id in lines and n.lineno == n.end_lineno):
            continue
        var, attr = n.func.value, n.func.attr
        value = n.args[0].value if n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str) else None
        if attr == "startswith" and value and (k := _column(rows, value)) is not None:
            new = f"{var.id}{_STRIP}.split(\",\")[{k}].strip() == {value!r}"
            edits.append((n.lineno, n.col_offset, n.end_col_offset or 0, new))
            changes.append(f"{ast.unparse(n)} → {new} ({value} is the {rows[0][k]} column, not the start of a line)")
        elif attr == "endswith" or attr == "split" and id(n) in ends:
            end = var.end_col_offset or 0
            edits.append((var.lineno, end, end, _STRIP))
            changes.append(f"{var.id}.{attr} → {var.id}{_STRIP}.{attr} (each line ends in a line break)")
    for n in ast.walk(tree):  # `line == "Pro"`: a whole line is never one field
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Eq, ast.NotEq))
                and isinstance(n.left, ast.Name) and n.left.id in lines and isinstance(n.comparators[0], ast.Constant)
                and isinstance(n.comparators[0].value, str) and n.lineno == n.end_lineno):
            continue
        value = n.comparators[0].value
        cols = {i for r in rows[1:] for i, v in enumerate(r) if v.strip() == value}
        if len(cols) == 1 and not any(",".join(r) == value for r in rows):
            k = cols.pop()
            op = "==" if isinstance(n.ops[0], ast.Eq) else "!="
            new = f"{n.left.id}{_STRIP}.split(\",\")[{k}].strip() {op} {value!r}"
            edits.append((n.lineno, n.col_offset, n.end_col_offset or 0, new))
            changes.append(f"{ast.unparse(n)} → {new} ({value} is a field of the {rows[0][k]} column, not a whole line)")
    if not edits:
        return None
    block.message["content"] = rewrite(block.code, edits)
    return Verdict(warning=NOTE.format(changes="; ".join(dict.fromkeys(changes))))


rule = Rule(
    name="line tests", setting="repair_slips", check=check,
    summary="code that tests a CSV's raw lines has, before it runs, a `line.startswith(\"yes\")` of a value that "
            "starts no line but fills one column, or a whole line compared with such a value (`line == \"Pro\"`), made a "
            "test of that column's field, and a raw line's "
            "`endswith`, or a split whose last field is used, made to drop the line break first; the person is told")
