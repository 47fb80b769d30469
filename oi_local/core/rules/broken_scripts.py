"""Broken scripts: code that writes text into a Python script that is there, when that text is not
Python, breaks the script for good. Asked to fix pace.py, the 0.5B model wrote the script's own
docstring, prose alone, over it: the next run failed with a SyntaxError in pace.py, and the person's
script was gone. Such code is not auto-run: shown and confirmed, or not run and the request asked
afresh once (as for writes for a question). Only a text the code gives whole (a string, or a name
given one string) is checked, and only where it does not compile. The other way round too: a Python
script written over a data file that is there (asked to fix trip_costs.py, the fixed script was
written into trip_costs.txt, the data it reads; ho40)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.question_writes import refuse
from oi_local.core.rules.turn import Block, Turn

NOTE = ("Not run: this code writes text into {path} that is not Python ({error}); it would break the script. "
        "Write the whole corrected script.")
WARNING = "this code writes text into {path} that is not Python ({error}); it would break the script."
_SCRIPTS = (".py",)


def _text(tree: ast.AST, node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        given = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == node.id]
        return _text(tree, given[0]) if len(given) == 1 and not isinstance(given[0], ast.Name) else None
    return None


def _opened_for_writing(call: ast.AST) -> str | None:
    """The path of `open("x.py", "w")`."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open" and call.args):
        return None
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    path = call.args[0]
    if isinstance(mode, ast.Constant) and mode.value in ("w", "wt") and isinstance(path, ast.Constant) \
            and isinstance(path.value, str):
        return path.value
    return None


def written_texts(code: str) -> list[tuple[str, str]]:
    """(path, text) for each whole text the code writes to a path: `with open(p, "w") as f: f.write(t)`,
    `open(p, "w").write(t)`, `Path(p).write_text(t)`."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    handles = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.With):
            for item in node.items:
                path = _opened_for_writing(item.context_expr)
                if path and isinstance(item.optional_vars, ast.Name):
                    handles[item.optional_vars.id] = path
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and len(node.args) == 1):
            continue
        target, method = node.func.value, node.func.attr
        path = None
        if method == "write":
            path = handles.get(target.id) if isinstance(target, ast.Name) else _opened_for_writing(target)
        elif method == "write_text" and isinstance(target, ast.Call) and isinstance(target.func, ast.Name) \
                and target.func.id == "Path" and target.args and isinstance(target.args[0], ast.Constant):
            path = str(target.args[0].value)
        text = _text(tree, node.args[0]) if path else None
        if path and text is not None:
            found.append((path, text))
    return found


def _head(path: str) -> str:
    """The start of a file that is there (a data file already holding Python is a script kept as text)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(20_000)
    except OSError:
        return ""


def with_text(code: str, old: str, new: str) -> str | None:
    """`code` with the one string that holds `old` made to hold `new`: written as it was when it is
    there word for word (a triple-quoted script), else as a literal in its place (one line), or None."""
    if code.count(old) == 1:
        return code.replace(old, new)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    spots = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value == old]
    if len(spots) != 1 or spots[0].lineno != spots[0].end_lineno:
        return None
    s = spots[0]
    lines = code.splitlines(keepends=True)
    raw = lines[s.lineno - 1].encode()
    lines[s.lineno - 1] = (raw[:s.col_offset] + repr(new).encode() + raw[s.end_col_offset or 0:]).decode()
    return "".join(lines)


DATA_NOTE = ("Not run: this code writes a Python script over {path}, a data file that is there; it would lose what "
             "{path} holds. Write the script into the .py file the request names.")
DATA_WARNING = "this code writes a Python script over {path}, a data file that is there; it would lose what it holds."
_PROGRAM = re.compile(r"^\s*(?:import|from|def|class|for|with|print\()|\bopen\(", re.M)
MIN_PROGRAM_LINES = 3


def _program(text: str) -> bool:
    """A text that is a Python program: it compiles, has a few lines and reads like code, not data."""
    if len([ln for ln in text.splitlines() if ln.strip()]) < MIN_PROGRAM_LINES or len(_PROGRAM.findall(text)) < 2:
        return False
    try:
        compile(text, "<text>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    for path, text in written_texts(block.code):
        if not path.endswith(_SCRIPTS) and Path(path).is_file() and _program(text) and not _program(_head(path)):
            # Asked to fix trip_costs.py, the 0.5B model's first block wrote the fixed script into
            # trip_costs.txt, the data it reads (ho40): the person's data would be gone.
            return refuse(turn, DATA_NOTE.format(path=path), DATA_WARNING.format(path=path))
        if not path.endswith(_SCRIPTS) or not Path(path).is_file():
            continue
        try:
            compile(text, path, "exec")
        except SyntaxError as e:
            error = f"line {e.lineno}: {e.msg}"
        else:
            continue
        return refuse(turn, NOTE.format(path=path, error=error), WARNING.format(path=path, error=error))
    return None


rule = Rule(
    name="broken scripts", guards=True, setting="confirm_destructive", check=check,
    summary="code that writes a text that is not Python (prose, a docstring cut loose) over a Python script that "
            "is there, or a Python script over a data file that is there (trip_costs.txt for trip_costs.py), is not "
            "auto-run: shown and confirmed, or, where no one can confirm, not run and the request asked afresh once")
