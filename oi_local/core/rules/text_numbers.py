"""Text numbers: csv gives every value as text, so `max(rows, key=lambda r: r["amount"])` compares
"95.60" with "240.00" letter by letter and picks 95.60 as the biggest, without an error. Asked which
month of orders.csv brought in the most, the 0.5B model answered from such a max; sorting expenses
by amount and the longest run of a running log went the same way (three tasks of the recorded runs of
sessions 23-28; a JSON file's numbers are numbers, and are left alone). When the key is one column of a CSV the code or the request reads,
and every value of that column is a number, the key is made `float(...)` before the code runs.
So is a row's value compared with a number (`if r["total_eur"] > 250`): asked to pull out the orders over
250 euros, the run stopped with "'>' not supported between instances of 'str' and 'int'", and the
0.5B model's next try lost the file it was asked to write (ho37). So is a row's value added up
(`totals[c] += row["amount"]`, the first `totals[c] = row["amount"]`): asked for totals per category as
JSON, the 0.5B model's code glued "12.50" and "8.00" into "12.508.00" and wrote that, without an error
(ho41)."""
from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {changes} (CSV values are text: \"95.60\" sorts after \"240.00\")."
_OPENS = re.compile(r"""\b(?:open|read_csv)\(\s*r?['"]([^'"\n]+\.(?:csv|tsv))['"]""", re.I)
_ORDERS = {"max", "min", "sorted", "sort", "nlargest", "nsmallest"}


def _keys(tree: ast.AST) -> list[tuple[ast.Subscript, str]]:
    """The `r["col"]` bodies of `key=lambda r: r["col"]` given to max/min/sorted/.sort, with their column."""
    found = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        name = n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id if isinstance(n.func, ast.Name) else ""
        if name not in _ORDERS:
            continue
        for k in n.keywords:
            lam = k.value
            if k.arg == "key" and isinstance(lam, ast.Lambda) and len(lam.args.args) == 1:
                body, arg = lam.body, lam.args.args[0].arg
                if isinstance(body, ast.Subscript) and isinstance(body.value, ast.Name) and body.value.id == arg \
                        and isinstance(body.slice, ast.Constant) and isinstance(body.slice.value, str) \
                        and body.lineno == body.end_lineno:
                    found.append((body, body.slice.value))
    return found


def _loop_names(tree: ast.AST) -> set[str]:
    """Names bound by a for loop or a comprehension: the rows walked (`for r in reader`)."""
    targets = [n.target for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension))]
    return {t.id for t in targets if isinstance(t, ast.Name)}


def _compared(tree: ast.AST) -> list[tuple[ast.Subscript, str]]:
    """The `r["col"]` of a row walked by a loop, compared with a number (`r["total"] > 250`), with its column."""
    rows = _loop_names(tree)
    found = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Compare) or not all(isinstance(op, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)) for op in n.ops):
            continue
        sides = [n.left, *n.comparators]
        if not any(isinstance(s, ast.Constant) and type(s.value) in (int, float) for s in sides):
            continue
        for s in sides:
            if isinstance(s, ast.Subscript) and isinstance(s.value, ast.Name) and s.value.id in rows \
                    and isinstance(s.slice, ast.Constant) and isinstance(s.slice.value, str) and s.lineno == s.end_lineno:
                found.append((s, s.slice.value))
    return found


def _row_value(node: ast.AST, rows: set[str]) -> str | None:
    """The column of `r["col"]` on one line, `r` a row walked by a loop."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in rows \
            and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) and node.lineno == node.end_lineno:
        return node.slice.value
    return None


def _base(node: ast.AST) -> str:
    """`totals` of `totals[c]` or `totals`."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _added(tree: ast.AST) -> list[tuple[ast.Subscript, str]]:
    """The `r["col"]` added into a total (`t += r["col"]`), and those first put in a total that is added to
    (`totals[c] = r["col"]` beside `totals[c] += ...`), with their column."""
    rows = _loop_names(tree)
    sums = {_base(n.target) for n in ast.walk(tree) if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add)}
    found = []
    for n in ast.walk(tree):
        value: ast.AST | None = None
        if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add):
            value = n.value
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and _base(n.targets[0]) in sums - {""}:
            value = n.value
        col = _row_value(value, rows) if value is not None else None
        if col is not None and isinstance(value, ast.Subscript):
            found.append((value, col))
    return found


def _taken(tree: ast.AST) -> list[tuple[ast.Subscript, str]]:
    """The `r["col"]` a comprehension hands to max, min or sorted (`max(o["amount"] for o in orders)`), with its
    column: asked for the biggest order, the 0.5B model's code took "58.90" over "412.80" (ho51)."""
    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("max", "min", "sorted") and n.args \
                and isinstance(n.args[0], (ast.GeneratorExp, ast.ListComp)):
            rows = {g.target.id for g in n.args[0].generators if isinstance(g.target, ast.Name)}
            col = _row_value(n.args[0].elt, rows)
            if col is not None and isinstance(n.args[0].elt, ast.Subscript):
                found.append((n.args[0].elt, col))
    return found


def _number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def columns_where(paths: list[Path], test: Callable[[str], bool]) -> set[str]:
    """The columns of these CSV files whose values (two or more) all pass `test`."""
    from oi_local.core.rules.asked_column import SUFFIXES, _table

    found = set()
    for p in paths:
        if p.is_file() and p.suffix.lower() in SUFFIXES:
            for column, values in _table(p).items():
                given = [v for v in values if v]
                if len(given) >= 2 and all(test(v) for v in given):
                    found.add(column)
    return found


def numeric_columns(paths: list[Path]) -> set[str]:
    """The columns of these CSV files whose values (two or more) are all numbers."""
    return columns_where(paths, _number)


def _csv_files(turn: Turn, code: str) -> list[Path]:
    """The CSV files the request names and this code or the turn's earlier code opens."""
    from oi_local.core.hints import mentioned_paths

    paths = mentioned_paths(turn.request, Path.cwd())
    for text in [code, *(r.code for r in turn.runs)]:
        paths += [Path(f) for f in _OPENS.findall(text)]
    return list(dict.fromkeys(paths))


def as_numbers(code: str, columns: set[str]) -> tuple[str, list[str]]:
    """`code` with each order key on a numeric column made float(...), and the columns changed."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    spots = [(body, col) for body, col in [*_keys(tree), *_compared(tree), *_added(tree), *_taken(tree)]
             if col in columns]
    if not spots:
        return code, []
    lines = code.splitlines()
    edits = []
    for body, _ in spots:
        raw = lines[body.lineno - 1].encode()[body.col_offset:body.end_col_offset].decode()
        edits.append((body.lineno, body.col_offset, body.end_col_offset or body.col_offset, f"float({raw})"))
    return rewrite(code, edits), list(dict.fromkeys(col for _, col in spots))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or not ("key=" in block.code or "+=" in block.code or re.search(r"[<>]|\b(?:max|min|sorted)\(", block.code)):
        return None
    new, changed = as_numbers(block.code, numeric_columns(_csv_files(turn, block.code)))
    if not changed or new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes=", ".join(f"{c} is read as a number" for c in changed)))


rule = Rule(
    name="text numbers", setting="repair_slips", check=check,
    summary="an order key that is one CSV column (`max(rows, key=lambda r: r[\"amount\"])`), whose values are all "
            "numbers but are read as text (\"95.60\" after \"240.00\"), is made `float(...)` before the code runs; so is "
            "such a column of a walked row compared with a number (`if r[\"total\"] > 250`, a TypeError), "
            "or added into a total (`totals[c] += r[\"amount\"]`, \"12.50\" + \"8.00\" glued into \"12.508.00\"), or handed to max, min "
            "or sorted by a comprehension (`max(o[\"amount\"] for o in orders)`)")
