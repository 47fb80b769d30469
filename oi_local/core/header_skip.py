"""Header skip: code that walks a CSV file's lines (or `csv.reader` rows) in a `for` loop reads its
header as data; `float("amount")` fails. Asked to fix total.py, which crashed so, the 0.5B model
rewrote it around the error three times and never skipped the line (ho39). `skipped` starts such a
walk at the second line: `for line in f:` → `for line in list(f)[1:]:`."""
from __future__ import annotations

import ast

from oi_local.core.pycheck import rewrite


def _opens(node: ast.AST, file: str) -> bool:
    """`open("expenses.csv", ...)` of that file name, for reading."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open" and node.args):
        return False
    first = node.args[0]
    mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
    reading = mode is None or isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "r" in mode.value
    return isinstance(first, ast.Constant) and first.value == file and reading


def _walks(node: ast.AST, handles: set[str], file: str) -> bool:
    """A handle of the file, `open(file)` itself, or `csv.reader(` one of those `)`."""
    if isinstance(node, ast.Name):
        return node.id in handles
    if _opens(node, file):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "reader"
            and len(node.args) >= 1 and _walks(node.args[0], handles, file) and not isinstance(node.args[0], ast.Call))


def skipped(code: str, file: str) -> str | None:
    """`code` with its one `for` loop over the lines or csv.reader rows of `file` started at the second
    line, or None when there is no such single loop (or the code skips a line already)."""
    if "next(" in code or "[1:]" in code or "islice" in code:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    handles = {i.optional_vars.id for n in ast.walk(tree) if isinstance(n, ast.With) for i in n.items
               if isinstance(i.optional_vars, ast.Name) and _opens(i.context_expr, file)}
    handles |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and _opens(n.value, file)
                for t in n.targets if isinstance(t, ast.Name)}
    loops = [n.iter for n in ast.walk(tree) if isinstance(n, ast.For) and _walks(n.iter, handles, file)]
    if len(loops) != 1 or loops[0].lineno != loops[0].end_lineno:
        return None
    it = loops[0]
    segment = ast.get_source_segment(code, it)
    if segment is None:
        return None
    return rewrite(code, [(it.lineno, it.col_offset, it.end_col_offset or 0, f"list({segment})[1:]")])
