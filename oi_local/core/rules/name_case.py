"""Name case: asked how many PDFs were in Documents, the 0.5B model tested `f.endswith(".pdf")` and
missed the scans named `.PDF`. When the folders a request names (or the working folder) hold files
whose extension is the code's in another case, the test is made case-blind before the code runs:
`f.endswith(".pdf")` → `f.lower().endswith(".pdf")`, a glob `*.pdf` → `*.[pP][dD][fF]`, a shell
`find -name '*.pdf'` → `-iname`. The person is told."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, rewrite

NOTE = "Changed before it ran: the test for {exts} ignores case (there are files named {seen})."
MAX_FILES = 5000
_EXT = re.compile(r"^\.[a-z0-9]{1,5}$")
_GLOB = re.compile(r"^(.*\*)(\.[a-z0-9]{1,5})$")


def _other_case(folders: list[Path], exts: set[str]) -> dict[str, str]:
    """{".pdf": "scan_02.PDF"}: for each extension, a file under the folders that has it in another case."""
    found: dict[str, str] = {}
    seen = 0
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in files:
                seen += 1
                ext = os.path.splitext(name)[1]
                if ext.lower() in exts and ext != ext.lower():
                    found.setdefault(ext.lower(), name)
                if seen > MAX_FILES:
                    return found
    return found


def _folders(request: str) -> list[Path]:
    from oi_local.core.hints import mentioned_paths

    named = [p for p in mentioned_paths(request, Path.cwd()) if p.is_dir()]
    return named or [Path.cwd()]


Edit = tuple[int, int, int, str]


def _python(code: str) -> list[tuple[Edit, str]]:
    """Each case-blind edit of the code's extension tests, with the extension it tests."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found: list[tuple[Edit, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and len(node.args) == 1) \
                or not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
            continue
        arg, func, value = node.args[0], node.func, node.args[0].value
        glob = _GLOB.match(value)
        if func.attr == "endswith" and _EXT.match(value) and func.value.lineno == func.value.end_lineno and not (
                isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Attribute)
                and func.value.func.attr == "lower"):
            end = func.value.end_col_offset or 0
            found.append(((func.value.end_lineno or 0, end, end, ".lower()"), value))
        elif func.attr in ("glob", "rglob", "iglob") and glob and arg.lineno == arg.end_lineno:
            head, ext = glob.groups()
            blind = head + "." + "".join(f"[{c}{c.upper()}]" if c.isalpha() else c for c in ext[1:])
            found.append(((arg.lineno, arg.col_offset, arg.end_col_offset or 0, repr(blind)), ext))
    return found


_FIND_NAME = re.compile(r"(\bfind\b[^|;&\n]*?\s)-name(\s+['\"]?\*(\.[a-z0-9]{1,5})['\"]?)")


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang == "python":
        edits = _python(block.code)
        exts = {ext for _, ext in edits}
    elif block.lang in SHELLS:
        exts = {m.group(3) for m in _FIND_NAME.finditer(block.code)}
    else:
        return None
    other = _other_case(_folders(turn.request), exts) if exts else {}
    if not other:
        return None
    if block.lang == "python":
        new = rewrite(block.code, [edit for edit, ext in edits if ext in other])
    else:
        new = _FIND_NAME.sub(lambda m: f"{m.group(1)}-iname{m.group(2)}" if m.group(3) in other else m.group(0), block.code)
    if new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(exts=", ".join(sorted(other)), seen=", ".join(sorted(other.values()))))


rule = Rule(
    name="name case", setting="correct_paths", check=check,
    summary="a test of file names by extension (`f.endswith(\".pdf\")`, a glob `*.pdf`, `find -name '*.pdf'`) is made "
            "case-blind before it runs when the folders the request names hold files with that extension in another "
            "case (`scan.PDF`); the person is told")
