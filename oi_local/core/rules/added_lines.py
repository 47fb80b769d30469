"""Added lines: asked to add "milk" as a new last line to shopping.txt, the 0.5B model's code appended
"milk" and then "bread", a line already in the list (files-append-line, session 46's whole suite). Python
code that appends to a file (mode "a") and writes typed-in lines, one of which is a text the request quotes,
has the writes of unquoted typed-in lines taken out before it runs; the person is told. Writes of
anything else (a newline, a variable, an f-string) are left alone."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: the code also added {lines}, which the request does not ask for; left out."
_QUOTED = re.compile(r"[\"“']([^\"”'\n]{1,200})[\"”']")
_ADDS = re.compile(r"\b(?:add|append|put|insert|write)\b", re.I)


def _appends(tree: ast.AST) -> set[str]:
    """Names of handles opened for appending: `with open(p, "a") as f` and `f = open(p, "a")`."""
    found = set()
    for node in ast.walk(tree):
        pairs = ([(i.context_expr, i.optional_vars) for i in node.items] if isinstance(node, ast.With)
                 else [(node.value, node.targets[0])] if isinstance(node, ast.Assign) and len(node.targets) == 1 else [])
        for call, name in pairs:
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open" \
                    and isinstance(name, ast.Name) and any(isinstance(a, ast.Constant) and str(a.value).startswith("a")
                                                           for a in [*call.args[1:2], *(k.value for k in call.keywords if k.arg == "mode")]):
                found.add(name.id)
    return found


def _written(node: ast.stmt, handles: set[str]) -> str | None:
    """The typed-in text of a statement `f.write("...")` (or print(..., file=f)) on an appending handle."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return None
    call = node.value
    if isinstance(call.func, ast.Attribute) and call.func.attr == "write" and isinstance(call.func.value, ast.Name) \
            and call.func.value.id in handles and len(call.args) == 1 and isinstance(call.args[0], ast.Constant):
        return str(call.args[0].value)
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or '"a"' not in block.code and "'a'" not in block.code:
        return None
    words = instruction(turn.request)
    quoted = {q.strip().lower() for q in _QUOTED.findall(words)}
    if not quoted or not _ADDS.search(words):
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    handles = _appends(tree)
    writes = [(n, t) for n in ast.walk(tree) if isinstance(n, ast.stmt) and (t := _written(n, handles)) is not None]
    said = [n for n, t in writes if t.strip().lower() in quoted]
    extra = [(n, t) for n, t in writes if t.strip() and t.strip().lower() not in quoted]
    if not said or not extra:
        return None
    lines = block.code.splitlines(keepends=True)
    for n, _ in sorted(extra, key=lambda e: e[0].lineno, reverse=True):
        if n.lineno != n.end_lineno or lines[n.lineno - 1].strip() != ast.get_source_segment(block.code, n):
            return None  # not a line of its own: left as written
        lines[n.lineno - 1] = ""
    try:
        ast.parse("".join(lines))
    except SyntaxError:
        return None  # the write was a block's only line
    block.message["content"] = "".join(lines)
    return Verdict(warning=NOTE.format(lines=", ".join(repr(t.strip()) for _, t in extra)))


rule = Rule(
    name="added lines", setting="repair_slips", check=check,
    summary="code that appends a text the request quotes (\"add \\\"milk\\\" to shopping.txt\") and other typed-in lines "
            "besides has those other lines left out before it runs; the person is told")
