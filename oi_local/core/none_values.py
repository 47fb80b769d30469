"""Records with no value compared: `task['due'] < "2025-03-10"` fails with "'<' not supported between instances
of 'NoneType' and 'str'" when one task has `"due": null`. Asked which to-dos were overdue, the 0.5B model met it
on its third try, and the turn ended there (ho39, a development run of session 50). The records with no value
are skipped where they are compared: `task['due'] is not None and task['due'] < ...`."""
from __future__ import annotations

import ast
import re

from oi_local.core.pycheck import rewrite

NONE_COMPARED = re.compile(r"TypeError: '(?:<|>|<=|>=)' not supported between instances of '(\w+)' and '(\w+)'")


def none_skipped(code: str, line: int | None, output: str) -> tuple[str, str] | None:
    """(the value compared, the code with the records that lack it skipped there) for such an error on `line`
    of a test (`if`, a comprehension's `if`, `while`), or None."""
    m = NONE_COMPARED.search(output)
    if m is None or line is None or "NoneType" not in m.groups() or m.group(1) == m.group(2):
        return None
    side = 0 if m.group(1) == "NoneType" else 1
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    tests = {id(n.test) for n in ast.walk(tree) if isinstance(n, (ast.If, ast.While, ast.IfExp))}
    tests |= {id(t) for n in ast.walk(tree) if isinstance(n, ast.comprehension) for t in n.ifs}
    for n in ast.walk(tree):
        if (isinstance(n, ast.Compare) and id(n) in tests and len(n.ops) == 1 and n.lineno == n.end_lineno == line
                and isinstance(n.ops[0], (ast.Lt, ast.Gt, ast.LtE, ast.GtE))):
            value = (n.left, n.comparators[0])[side]
            text, whole = ast.get_source_segment(code, value), ast.get_source_segment(code, n)
            if text is None or whole is None or not isinstance(value, (ast.Subscript, ast.Call, ast.Attribute, ast.Name)):
                continue
            fixed = rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or 0, f"{text} is not None and {whole}")])
            return text, fixed.strip()
    return None
