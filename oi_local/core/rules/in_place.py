"""In place: asked to clean up emails.txt "in place", the 0.5B model wrote the cleaned list to a new
cleaned_emails.txt and left the file as it was (ho49, read after that set's end). When a request says
the one file it names is to be changed where it is ("in place", "in the same file", "overwrite it",
"save it back"), Python code that writes only new files, all under one name, has that name swapped
for the named file's before it runs, and the person is told. Not when the write happens inside a
block that reads the file as it goes (`with open(a) as f, open(b, "w")`): opened for writing there,
the file would be emptied before it is read."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.asked_column import swapped
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: the code wrote {new} (a new file); the request asks for {file} to be changed in place."
ASKED = re.compile(r"\bin[\s-]+place\b|\b(?:in|to|into|back\s+(?:in|to|into))\s+the\s+same\s+file\b|"
                   r"\boverwrit\w*\s+(?:it|the\s+(?:file|original|old\s+one))\b|\b(?:save|write)\s+(?:it\s+|them\s+)?back\b|"
                   # "just save it over the same file" (ho56)
                   # "Sort the names in members.txt alphabetically and save the file." (ho57: sorted_names.txt was written)
                   r"\bsave\s+(?:the|that|this)\s+file\b(?!\s+(?:as|to|in|into|under|with|somewhere)\b)|"
                   r"\b(?:save|write|put)\s+(?:it\s+|them\s+)?over\s+(?:it|the\s+(?:same|original|old)\b)|"
                   r"\b(?:don'?t|do\s+not|no\s+need\s+to)\s+(?:make|create|write)\s+a\s+new\s+file\b", re.I)
_WRITES = {"to_csv", "to_json", "to_excel", "write_text", "write_bytes"}


def asked(request: str, cwd: Path) -> Path | None:
    """The one file the request asks to change where it is, or None."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    if not ASKED.search(words):
        return None
    files = [p for p in mentioned_paths(words, cwd) if p.is_file()]
    return files[0] if len(files) == 1 else None


def _mode(call: ast.Call) -> str:
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else "r"


def _written(tree: ast.AST) -> list[tuple[str, int]]:
    """The file names the code writes, as written: open(name, "w"), Path(name).write_text(), df.to_csv(name)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        target = None
        if name == "open" and node.args and any(c in _mode(node) for c in "wax"):
            target = node.args[0]
        elif name in _WRITES and isinstance(f, ast.Attribute):
            inner = f.value
            if name in ("write_text", "write_bytes"):
                target = inner.args[0] if isinstance(inner, ast.Call) and inner.args else None
            elif node.args:
                target = node.args[0]
        if isinstance(target, ast.Constant) and isinstance(target.value, str):
            found.append((target.value, target.lineno))
    return found


def _reads_as_it_goes(tree: ast.AST, file: str, line: int) -> bool:
    """The write on `line` is inside a with or for whose head opens or walks the named file."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.For, ast.AsyncWith, ast.AsyncFor)):
            head = node.items if isinstance(node, (ast.With, ast.AsyncWith)) else [node.iter]
            names = {n.value for h in head for n in ast.walk(h) if isinstance(n, ast.Constant)}
            if file in names and node.lineno <= line <= (node.end_lineno or node.lineno):
                return True
    return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["in place"]:
        return None
    cwd = Path.cwd()
    target = asked(turn.request, cwd)
    if target is None:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    written = _written(tree)
    base = cwd.resolve()
    if not written or any((base / w).resolve() == target.resolve() for w, _ in written):
        return None  # nothing written, or the named file is
    new = {w for w, _ in written}
    if len(new) != 1 or any((base / n).exists() for n in new):
        return None  # two new files (a report beside the change), or another file that is there
    name = str(target.relative_to(base)) if target.is_relative_to(base) else str(target)
    # the code names the file the way the request does; a swap keeps it read before it is written
    if not any(isinstance(n, ast.Constant) and n.value == name for n in ast.walk(tree)) \
            or any(_reads_as_it_goes(tree, name, line) for _, line in written):
        return None
    old = written[0][0]
    turn.counts["in place"] += 1
    block.message["content"] = swapped(block.code, old, name)
    return Verdict(warning=NOTE.format(new=old, file=name))


rule = Rule(
    name="in place", setting="repair_slips", check=check,
    summary="a request to change the one file it names where it is (\"in place\", \"in the same file\", \"overwrite it\", "
            "\"save it back\"): Python code that writes only one new file instead, after reading the named file whole, "
            "writes the named file (the person is told); never where the file is read as it is written")
