"""Data case: code that tests the data for a word in a case the data never writes it in (`"failed" in
line` for a log that says FAILED, `row["status"] == "paid"` for a column of Paid) matches nothing and
prints a confident 0. Asked how many nights a pasted backup log failed, the 0.5B model's code
answered "failed 0 times". When the word is nowhere in the data as written and the data writes it
in exactly one other case, the code's word is spelled that way before it runs, and the person is
told. (slips.value_case does this for whole cells of a named CSV; this is for words in any text the
code reads: logs, pasted text, the files it opens.) Code that lowers or folds case itself (`.lower()`, `re.I`) is left as it is, and so is a
word the data has in two cases (which one was meant is not known)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {changes} (the data writes it so; the code's test minds case)."
MAX_READ = 1_000_000  # bytes read of each file
_FOLDS = re.compile(r"\.(?:lower|upper|casefold|title|capitalize)\(|\bre\.I\b|IGNORECASE|case=False")
_METHODS = ("startswith", "endswith", "count", "find", "index", "rfind")


def tested(tree: ast.AST) -> list[ast.Constant]:
    """The string constants the code tests the data with: `"x" in line`, `v == "x"`, `s.startswith("x")`."""
    found: list[ast.AST] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Compare) and all(isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq)) for op in n.ops):
            found += [n.left, *n.comparators]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _METHODS:
            found += n.args[:1]
    return [c for c in found if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.lineno == c.end_lineno
            and 3 <= len(c.value) <= 60 and re.search(r"[A-Za-z]", c.value) and c.value.lower() != c.value.upper()]


def _data(turn: Turn, code: str) -> str:
    """The text of the files the request names and the code opens (a pasted text's file too)."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.unknown_values import _OPENS

    paths = [p for p in mentioned_paths(turn.request, Path.cwd()) if p.is_file()]
    paths += [Path(f) for f in _OPENS.findall(code) if Path(f).is_file()]
    parts = []
    for p in dict.fromkeys(paths):
        try:
            with open(p, "rb") as f:
                parts.append(f.read(MAX_READ).decode("utf-8", "replace"))
        except OSError:
            continue
    return "\n".join(parts)


def respelled(code: str, data: str) -> tuple[str, list[str]]:
    """`code` with each tested word the data has only in one other case spelled that way, and the changes."""
    if not data or _FOLDS.search(code):
        return code, []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    spots: list[tuple[ast.Constant, str]] = []
    for const in tested(tree):
        word = str(const.value)
        cases = set() if word in data else set(re.findall(re.escape(word), data, re.I))
        if len(cases) == 1:
            spots.append((const, cases.pop()))
    if not spots:
        return code, []
    code = rewrite(code, [(c.lineno, c.col_offset, c.end_col_offset or c.col_offset, repr(new)) for c, new in spots])
    return code, [f'"{old}" → "{new}"' for old, new in dict.fromkeys((str(c.value), new) for c, new in spots)]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    new, changes = respelled(block.code, _data(turn, block.code))
    if not changes or new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes=", ".join(changes)))


rule = Rule(
    name="data case", setting="repair_slips", check=check,
    summary="code that tests the data for a word in a case the data never writes it in (`\"failed\" in line` for a "
            "log of FAILED, `== \"paid\"` for a column of Paid), when the data has it in exactly one other case and "
            "the code does not fold case itself, has the word spelled as the data has it; the person is told")
