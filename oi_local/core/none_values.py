"""Records with no value compared: `task['due'] < "2025-03-10"` fails with "'<' not supported between instances
of 'NoneType' and 'str'" when one task has `"due": null`. Asked which to-dos were overdue, the 0.5B model met it
on its third try, and the turn ended there (ho39, a development run of session 50). The records with no value
are skipped where they are compared: `task['due'] is not None and task['due'] < ...`."""
from __future__ import annotations

import ast
import re

from oi_local.core.pycheck import rewrite

NONE_COMPARED = re.compile(r"TypeError: '(?:<|>|<=|>=)' not supported between instances of '(\w+)' and '(\w+)'")


SKIPPED = "some records have no value for {name} (None), and None cannot be compared. Skip them where they are compared"
STARTED = ("{name} starts as None, and None cannot be compared. Take the first value while {name} is None, "
           "then compare")


def _started_none(tree: ast.Module) -> set[str]:
    """Names the code's own top level sets to None (a running best's start)."""
    return {t.id for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
            and n.value.value is None for t in n.targets if isinstance(t, ast.Name)}


def none_skipped(code: str, line: int | None, output: str) -> tuple[str, str] | None:
    """(what to do, the code so mended) for such an error on `line` of a test (`if`, a comprehension's `if`,
    `while`): the records that lack the value skipped there, or a running best that starts as None set by the
    first value; or None."""
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
            if isinstance(value, ast.Name) and value.id in _started_none(tree):
                # `lowest = None` then `if cost < lowest:`: a running best not yet set takes the first value
                # (told to skip it, the 0.5B model never set it, and printed None; ho51's stock follow-up)
                fixed = rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or 0, f"{text} is None or {whole}")])
                return STARTED.format(name=text), fixed.strip()
            fixed = rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or 0, f"{text} is not None and {whole}")])
            return SKIPPED.format(name=text), fixed.strip()
    return None
