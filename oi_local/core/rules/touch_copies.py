"""Touch copies: asked to copy this week's files from work_docs into usb, the 0.5B model wrote
`Path("usb/" + p.name).touch()` in its loop over the files: four empty files, and it answered that
all of them were there (ho38). Where the request asks for a copy, a `.touch()` in a loop over files
of a path made from the loop's file's name is a copy of that file (`shutil.copy2(p, ...)`); the
person is told."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: {changes} (touch() makes an empty file; the request asks for a copy)."
_COPY = re.compile(r"\b(?:cop(?:y|ies|ied|ying)|back\s*(?:it|them)?\s*up|duplicate)\b", re.I)


def copies(code: str) -> tuple[str, list[str]]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, changes = [], []
    for loop in ast.walk(tree):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)):
            continue
        var = loop.target.id
        for n in ast.walk(loop):
            if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and not n.value.args
                    and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "touch"):
                continue
            target = n.value.func.value
            uses_name = any(isinstance(a, ast.Attribute) and a.attr == "name" and isinstance(a.value, ast.Name)
                            and a.value.id == var for a in ast.walk(target))
            if not uses_name or n.lineno != n.end_lineno:
                continue
            new = f"shutil.copy2({var}, {ast.get_source_segment(code, target)})"
            edits.append((n.lineno, n.col_offset, n.end_col_offset or 0, new))
            changes.append(f"{ast.unparse(n.value)} → {new}")
    if not edits:
        return code, []
    new_code = rewrite(code, edits)
    if not re.search(r"^\s*import shutil\b", new_code, re.M):
        new_code = "import shutil\n" + new_code
    return new_code, changes


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or ".touch(" not in block.code or not _COPY.search(instruction(turn.request)):
        return None
    new, changes = copies(block.code)
    if not changes:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="touch copies", setting="repair_slips", check=check,
    summary="asked for a copy, a `.touch()` in a loop over files, of a path made from the loop's file's name "
            "(`Path(\"usb/\" + p.name).touch()`), copies that file there (`shutil.copy2(p, ...)`); the person is told")
