"""Appended header: asked to add a row for Omar to quiz.csv, the 0.5B model opened it with "a" and called
`writer.writeheader()` before the row (ho3): a second "name,points" line in the middle of the data, read
back as a row. Where code opens a CSV file that is there and not empty for appending and a DictWriter on
that handle writes its header, the header line is dropped before the code runs; the person is told."""
from __future__ import annotations

import ast
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: no header is appended to {file} (it has one already)."


def _appends(call: ast.expr) -> str | None:
    """The file of `open("x.csv", "a", ...)` (a constant name), or None."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open" and call.args):
        return None
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    name = call.args[0]
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "a" in mode.value \
            and isinstance(name, ast.Constant) and isinstance(name.value, str):
        return name.value
    return None


def dropped(code: str, folder: Path) -> tuple[str, list[str]]:
    """`code` without the `w.writeheader()` lines of DictWriters on a handle appending to a CSV that has lines."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    lines = code.splitlines(keepends=True)
    gone, files = set(), []
    for w in ast.walk(tree):
        if not isinstance(w, ast.With):
            continue
        for item in w.items:
            file = _appends(item.context_expr)
            if not file or not isinstance(item.optional_vars, ast.Name) or not (folder / file).is_file() \
                    or (folder / file).stat().st_size == 0:
                continue
            handle = item.optional_vars.id
            writers = {t.id for n in ast.walk(w) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                       and (getattr(n.value.func, "attr", None) or getattr(n.value.func, "id", None)) == "DictWriter"
                       and n.value.args and isinstance(n.value.args[0], ast.Name) and n.value.args[0].id == handle
                       for t in n.targets if isinstance(t, ast.Name)}
            for n in ast.walk(w):
                if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                        and n.value.func.attr == "writeheader" and isinstance(n.value.func.value, ast.Name) \
                        and n.value.func.value.id in writers and n.lineno == n.end_lineno \
                        and lines[n.lineno - 1].strip() == ast.get_source_segment(code, n):
                    gone.add(n.lineno)
                    files.append(file)
    if not gone:
        return code, []
    return "".join(ln for i, ln in enumerate(lines, 1) if i not in gone), list(dict.fromkeys(files))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "writeheader" not in block.code:
        return None
    code, files = dropped(block.code, Path.cwd())
    if not files:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(file=", ".join(files)))


rule = Rule(
    name="appended header", setting="repair_slips", check=check,
    summary="a DictWriter that writes its header into a CSV file opened for appending, which is there and has "
            "lines, has that `writeheader()` line dropped before the code runs; the person is told")
