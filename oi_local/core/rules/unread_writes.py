"""Unread writes: a request to change a file's text ("change every date in meeting_notes.md to
YYYY-MM-DD", "sort the lines of names.txt", "add a heading to report.md") means reading it first. The
0.5B model often types the text it saw in the prompt into `f.write(...)` lines and opens the file
with "w": lines it left out are gone (ho43's date task lost the heading and blank lines, and the
dates stayed as they were). Python code that writes over a named text file that has content, and
reads no file before that write, is not run; the request is asked afresh once (sampled, the try
hidden): read the file, change its text in the code, write it back. Only where the typed-in text has
a line of the file as it is (a copy of its text, not new text: "change a.txt" to "two"). Not for a request that says to
write over the file or its contents, nor for scripts (a fixed script is often written out whole)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction

NOTE = ("(Write one ```python block that does what I asked. Read {path} in the code, change its text there, "
        "then write it back: the first try typed the text in, and lines it left out would be lost.)")
SHOWN = "Not run: the code writes over {path} without reading it (typed-in text loses what it leaves out); asked afresh."
TEXT_SUFFIXES = {".md", ".txt", ".csv", ".tsv", ".json", ".yaml", ".yml", ".ini", ".cfg", ".toml", ".log",
                 ".html", ".xml", ".rst"}
# a change to what the file holds
_CHANGE = re.compile(r"\b(?:chang\w*|convert\w*|replac\w*|updat\w*|edit\w*|sort\w*|add\w*|append\w*|insert\w*|"
                     r"remov\w*|delet\w*|strip\w*|capitali[sz]\w*|lowercase|uppercase|reformat\w*|format\w*|"
                     r"swap\w*|renumber\w*|number\w*|dedup\w*|tidy|fix\w*|correct\w*|put|turn\w*|rewrit\w*|trim\w*)\b",
                     re.I)
# ... unless the request says the old text goes: "overwrite notes.txt", "replace its contents with"
_OVER = re.compile(r"\b(?:overwrit\w*|contents?|from scratch|start (?:over|fresh)|clear|empty|blank|wipe)\b", re.I)
LIMIT = 1_000_000  # bytes: a larger file is left alone
MIN_LINE = 12  # characters: a line this long typed into the code as it is in the file is a copy of the file's text
_READ_CALLS = {"read", "read_text", "read_bytes", "readlines", "readline", "load", "safe_load", "read_csv",
               "read_json", "reader", "DictReader", "load_workbook"}


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _mode(node: ast.Call, method: bool) -> str:
    rest = node.args if method else node.args[1:]
    mode = rest[0] if rest else next((k.value for k in node.keywords if k.arg == "mode"), None)
    if mode is None:
        return "r"
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else "?"


def _path_of(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and _name(node.func) in ("Path", "PurePath") and len(node.args) == 1:
        return _path_of(node.args[0])
    return None


def writes_unread(code: str) -> list[str]:
    """Literal paths the code opens with "w" (or write_text) before any call that reads a file."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset))
    found: list[str] = []
    for node in calls:
        name = _name(node.func)
        path = None
        if name == "open":
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            via_path = owner is not None and _name(owner) not in ("io", "builtins", "codecs")  # Path("a").open("w")
            mode = _mode(node, via_path)
            target = owner if via_path else (node.args[0] if node.args else None)
            if "w" in mode and "+" not in mode:
                path = _path_of(target) if target is not None else None
            elif "r" in mode or mode == "?":
                return found  # a file is read before any later write
        elif name in ("write_text", "write_bytes") and isinstance(node.func, ast.Attribute):
            path = _path_of(node.func.value)
        elif name in _READ_CALLS:
            return found
        if path and path not in found:
            found.append(path)
    return found


def typed_lines(code: str) -> set[str]:
    """The lines of the code's string constants (what it would write), stripped."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    return {ln.strip() for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            for ln in n.value.splitlines() if len(ln.strip()) >= MIN_LINE}


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["unread writes"] >= 1:
        return None
    request = instruction(turn.request)
    if not _CHANGE.search(request) or _OVER.search(request):
        return None
    for path in writes_unread(block.code):
        p = Path(path)
        if p.suffix.lower() not in TEXT_SUFFIXES or p.name.lower() not in request.lower():
            continue
        try:
            if not p.is_file() or p.stat().st_size == 0 or p.stat().st_size > LIMIT:
                continue
            held = {ln.strip() for ln in p.read_text(encoding="utf-8", errors="replace").splitlines() if len(ln.strip()) >= MIN_LINE}
        except OSError:
            continue
        if not held & typed_lines(block.code):
            continue  # new text, not a copy of the file's: "change a.txt to say two" writes it over
        turn.counts["unread writes"] += 1
        return Verdict(note=SHOWN.format(path=path),
                       ask=Ask(NOTE.format(path=path), code_retry(turn.engine, 59), hide=True))
    return None


rule = Rule(
    name="unread writes", setting="check_answers", check=check,
    summary="code that writes over a named text file with content, for a request to change it, and reads no file "
            "first (typed-in text) is not run; the request is asked afresh once, sampled: read it, change it, write it back")
