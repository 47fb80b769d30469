"""Empty file: asked for "an empty file myproject/README.md", the 0.5B model wrote "My project" into
it (files-project-skeleton). Where the request asks for an empty file it names and the code writes a
text it typed in to that file, nothing is written (the file is still made), and the person is told."""
from __future__ import annotations

import ast
import os
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: {files} is left empty, as asked (the code wrote text into it)."


def _empty_asked(request: str) -> set[str]:
    """The file names the request asks to be empty: "an empty file a/README.md", "empty notes.txt"."""
    said = re.finditer(r"\bempty\s+(?:\w+\s+){0,2}?(?:file\s+(?:called\s+|named\s+)?)?['\"`]?((?:[\w-]+/)*[\w-]+\.\w{1,5})",
                       request, re.I)
    return {m.group(1) for m in said}


def emptied(code: str, names: set[str]) -> tuple[str, list[str]]:
    """`code` with each `f.write("...")` into a file opened by one of `names` writing "" instead."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, files = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.With):
            continue
        for item in node.items:
            call, handle = item.context_expr, item.optional_vars
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open"
                    and call.args and isinstance(call.args[0], ast.Constant) and isinstance(handle, ast.Name)):
                continue
            path = str(call.args[0].value)
            if path not in names and os.path.basename(path) not in {os.path.basename(n) for n in names}:
                continue
            for w in ast.walk(node):
                if isinstance(w, ast.Call) and isinstance(w.func, ast.Attribute) and w.func.attr == "write" \
                        and isinstance(w.func.value, ast.Name) and w.func.value.id == handle.id and len(w.args) == 1 \
                        and isinstance(w.args[0], ast.Constant) and w.args[0].value:
                    segment = ast.get_source_segment(code, w.args[0])
                    if segment:
                        edits.append((w.args[0].lineno, segment))
                        files.append(path)
    lines = code.splitlines(keepends=True)
    for lineno, segment in edits:
        lines[lineno - 1] = lines[lineno - 1].replace(segment, '""', 1)
    return "".join(lines), list(dict.fromkeys(files))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "empty" not in turn.request.lower():
        return None
    code, files = emptied(block.code, _empty_asked(instruction(turn.request)))
    if not files or code == block.code:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(files=", ".join(files)))


rule = Rule(
    name="empty file", setting="repair_slips", check=check,
    summary="asked for an empty file it names (\"an empty file myproject/README.md\"), code that writes text it typed "
            "in to that file writes nothing into it; the person is told")
