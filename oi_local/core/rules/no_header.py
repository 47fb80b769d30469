"""No header: rows read with `csv.DictReader` or records read with `json.load` have no header row
left in them, but the 0.5B model walked them from the second (`for book in rows[1:]`), as if the
first were a header: turning books.json into books.csv, it left the first book out (ho6). Where a
name bound once to such rows is walked from `[1:]`, the whole list is walked, and the person is told."""
from __future__ import annotations

import ast

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: every row of {names} is used ({how} has no header row; [1:] would have left out the first)."


def _source(value: ast.expr) -> str | None:
    """"csv.DictReader" or "json.load" when the value is rows read by one (`list(csv.DictReader(f))`,
    `json.load(f)`, `json.load(f)["books"]`), else None."""
    while isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, str):
        value = value.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list" and len(value.args) == 1:
        return _source(value.args[0])
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name):
        name = f"{value.func.value.id}.{value.func.attr}"
        return name if name in ("csv.DictReader", "json.load", "json.loads") else None
    return None


def walked_from_second(code: str) -> tuple[str, list[tuple[str, str]]]:
    """`code` with `rows[1:]` walked by a for loop or comprehension made `rows`, for rows read by
    csv.DictReader or json.load; and (name, reader) of each changed."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    bound: dict[str, list[str | None]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            bound.setdefault(n.targets[0].id, []).append(_source(n.value))
        elif isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.target, ast.Name):
            bound.setdefault(n.target.id, []).append(None)
    read = {name: sources[0] for name, sources in bound.items() if len(sources) == 1 and sources[0]}
    walks = [n.iter for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension))]
    edits, changed = [], []
    for it in walks:
        if isinstance(it, ast.Subscript) and isinstance(it.value, ast.Name) and it.value.id in read \
                and isinstance(it.slice, ast.Slice) and it.slice.upper is None and it.slice.step is None \
                and isinstance(it.slice.lower, ast.Constant) and it.slice.lower.value == 1:
            segment = ast.get_source_segment(code, it)
            if segment:
                edits.append((segment, it.value.id))
                changed.append((it.value.id, read[it.value.id] or ""))
    for old, new in edits:
        code = code.replace(old, new, 1)
    return code, list(dict.fromkeys(changed))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "[1:]" not in block.code:
        return None
    code, changed = walked_from_second(block.code)
    if not changed or code == block.code:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(names=", ".join(n for n, _ in changed), how=" or ".join(dict.fromkeys(h for _, h in changed))))


rule = Rule(
    name="no header", setting="repair_slips", check=check,
    summary="rows read with `csv.DictReader` or records read with `json.load`, walked from the second (`rows[1:]`) as "
            "if the first were a header, are walked whole; the person is told")
