"""File handles: asked how many words lighthouse.txt has and how often a name comes up, the 0.5B model
wrote `print(len(f.read().split()))` and then `f.count('Marguerite')` inside `with open(...) as f:`
(ho40): a file object has no count(), and a second f.read() would give "". Where code in such a block
calls a text method on the file object (count, split, lower, find, ...), the text is read once at the
block's start (`text = f.read()`), and each `f.read()` and `f.<method>(` there uses it; the person is
told."""
from __future__ import annotations

import ast

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {name}.{methods}() is asked of the text read once from {name} (a file object has no {first}())."
# str methods a text file object lacks (readlines, read, write are its own)
TEXT_METHODS = {"count", "split", "splitlines", "lower", "upper", "find", "rfind", "index", "replace", "strip",
                "startswith", "endswith", "casefold", "partition", "isdigit"}


def _text_name(tree: ast.AST) -> str:
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return next(x for x in ("text", "file_text", "text_read") if x not in used)


def repaired(code: str) -> tuple[str, str, list[str]]:
    """(code with text methods of a `with open(...) as f:` handle asked of its text, the handle, the methods)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, "", []
    for w in ast.walk(tree):
        if not isinstance(w, ast.With):
            continue
        for item in w.items:
            call, var = item.context_expr, item.optional_vars
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open"
                    and isinstance(var, ast.Name)):
                continue
            mode = call.args[1] if len(call.args) > 1 else None
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wab+"):
                continue
            uses = [(n, n.func) for s in w.body for n in ast.walk(s) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == var.id]
            wrong = [f.attr for _, f in uses if f.attr in TEXT_METHODS]
            other = [f.attr for _, f in uses if f.attr not in TEXT_METHODS | {"read"}]
            if not wrong or other or any(n.lineno != n.end_lineno for n, _ in uses):
                continue
            text = _text_name(tree)
            first = w.body[0]
            edits = [(first.lineno, 0, 0, " " * first.col_offset + f"{text} = {var.id}.read()\n")]
            for n, f in uses:
                if f.attr == "read":
                    if n.args:
                        break
                    edits.append((n.lineno, n.col_offset, n.end_col_offset or 0, text))
                else:
                    edits.append((f.value.lineno, f.value.col_offset, f.value.end_col_offset or 0, text))
            else:
                methods = list(dict.fromkeys(wrong))
                return rewrite(code, edits), var.id, methods
    return code, "", []


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "open(" not in block.code:
        return None
    code, name, methods = repaired(block.code)
    if not methods:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(name=name, methods="(), .".join(methods), first=methods[0]))


rule = Rule(
    name="file handles", setting="repair_slips", check=check,
    summary="a text method (count, split, lower, find, ...) called on the file object of `with open(...) as f:` "
            "is asked of the file's text, read once at the block's start (`text = f.read()`, which each `f.read()` "
            "there then uses) before the code runs; the person is told")
