"""Those: a follow-up about "those" or "them" means the records the last answer picked. Asked how many
things in stock.json had gone below their reorder level (6), then "ok, write the names of those into
reorder.txt", the 0.5B model looped over every item and wrote all 13 names (ho37). Where the code
before this request picked records in a loop or comprehension with one condition, and the new code
walks the same records with no condition at all, it walks only those the condition picks; the person
is told."""
from __future__ import annotations

import ast
import re
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: only the records the last code picked ({condition}), as the request says {word}."
_THOSE = re.compile(r"\b(those|these|them|they|ones)\b", re.I)


def _picked(code: str) -> tuple[str, str, ast.expr] | None:
    """(records' source, loop name, condition) of the last code's one filter over records."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.For) and isinstance(n.target, ast.Name) and n.body:
            first = n.body[0]
            if isinstance(first, ast.If) and not first.orelse:
                found.append((ast.unparse(n.iter), n.target.id, first.test))
        elif isinstance(n, (ast.ListComp, ast.GeneratorExp, ast.SetComp)) and len(n.generators) == 1:
            gen = n.generators[0]
            if isinstance(gen.target, ast.Name) and len(gen.ifs) == 1:
                found.append((ast.unparse(gen.iter), gen.target.id, gen.ifs[0]))
    sources = {s for s, _, _ in found}
    return found[0] if len(found) == 1 or len(sources) == 1 and found else None


def _renamed(test: ast.expr, old: str, new: str) -> str:
    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> Any:
            return ast.copy_location(ast.Name(id=new, ctx=node.ctx), node) if node.id == old else node

    return ast.unparse(Rename().visit(ast.parse(ast.unparse(test), mode="eval")).body)


def _earlier_code(messages: list[dict[str, Any]]) -> str | None:
    """The last Python code before the newest request that ran without an error."""
    last = max((i for i, m in enumerate(messages) if m["role"] == "user" and m["type"] == "message"), default=0)
    before = messages[:last]
    for i in range(len(before) - 1, -1, -1):
        m = before[i]
        if m["role"] == "assistant" and m["type"] == "code" and (m.get("format") or "python") == "python":
            out = before[i + 1] if i + 1 < len(before) else {}
            if out.get("role") == "computer" and not out.get("exit_code") and "Traceback" not in str(out.get("content")):
                return str(m["content"])
    return None


def body_under_if(lines: list[str], loop: ast.For, test: str) -> list[tuple[int, int, int, str]]:
    """The edits that put a for loop's body (on lines of its own) under `if test:`."""
    indent = " " * loop.body[0].col_offset
    first = loop.body[0].lineno
    return [(line, 0, 0, (f"{indent}if {test}:\n" if line == first else "") + ("    " if lines[line - 1].strip() else ""))
            for line in range(first, (loop.end_lineno or loop.lineno) + 1)]


def narrowed(code: str, source: str, var: str, test: ast.expr) -> tuple[str, str]:
    """`code` with its unfiltered walks over `source` filtered by `test`, and the condition as shown."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, ""
    lines = code.splitlines(keepends=True)
    edits: list[tuple[int, int, int, str]] = []
    shown = ""
    for n in ast.walk(tree):
        if isinstance(n, ast.For) and isinstance(n.target, ast.Name) and ast.unparse(n.iter) == source:
            if any(isinstance(s, ast.If) for s in n.body) or n.body[0].lineno == n.lineno:
                continue
            shown = _renamed(test, var, n.target.id)
            edits += body_under_if(lines, n, shown)
        elif isinstance(n, (ast.ListComp, ast.GeneratorExp, ast.SetComp)) and len(n.generators) == 1:
            gen = n.generators[0]
            if isinstance(gen.target, ast.Name) and not gen.ifs and ast.unparse(gen.iter) == source \
                    and gen.iter.end_lineno == gen.iter.lineno:
                shown = _renamed(test, var, gen.target.id)
                end = gen.iter.end_col_offset or 0
                edits.append((gen.iter.lineno, end, end, f" if {shown}"))
    return (rewrite(code, edits) if edits else code), shown


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    word = _THOSE.search(instruction(turn.request))
    if word is None or "if " not in (earlier := _earlier_code(turn.engine.messages) or ""):
        return None
    picked = _picked(earlier)
    if picked is None:
        return None
    new, shown = narrowed(block.code, *picked)
    if new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(condition=shown, word=f'"{word.group(1)}"'))


rule = Rule(
    name="those", setting="repair_slips", check=check,
    summary="a follow-up about \"those\" or \"them\" (\"write the names of those into reorder.txt\"), whose code walks "
            "the records the code before it filtered with one condition, with no condition, walks only the records "
            "that condition picked; the person is told")
