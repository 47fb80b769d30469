"""Copy sources: a request for a copy ("copy that one here and call it latest.txt", "back up my
notes") leaves the original as it is. Asked that, the 0.5B model wrote `open("reports/q_report.txt",
"w").write("latest.txt")`: the report it was to copy, replaced by its new name (ho33-multi-newest-copy).
Code for a copy request that writes over a file there (`open(p, "w")`, `.write_text`, a shell `>`)
which the request does not name as the copy's name is not auto-run, as for a question (question
writes): shown and confirmed, or not run and the request asked afresh once. A request that also asks
for a change (edit, update, replace, append ...) is left alone: writing over is then what it asks."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.question_writes import refuse
from oi_local.core.rules.turn import SHELLS, Block, Turn

COPY = re.compile(r"\b(?:cop(?:y|ies|ying)|back\s*(?:it\s+|them\s+)?up|backup|duplicate)\b", re.I)
# Other changes asked beside the copy: writing over a file may then be the point.
CHANGES = re.compile(r"\b(?:edit|updat|replac|overwrit|fix|chang|append|add|insert|merg|combin|join|renam|mov|"
                     r"convert|sort|clean|remov|delet|modif|correct|fill|clear|empt|reset|"
                     r"translat|format|strip|trim)\w*", re.I)
NOTE = ("Not run: this code writes over {paths}, and the request asks for a copy: the original stays as it "
        "is. {where}")
WARNING = "this code writes over {paths}, and the request asks for a copy, which leaves the original as it is."


def copy_only(request: str) -> bool:
    from oi_local.core.writes import unnegated

    text = unnegated(request)
    return bool(COPY.search(text)) and not CHANGES.search(COPY.sub(" ", text))


def overwritten(lang: str, code: str) -> list[str]:
    """The literal paths the code opens for writing from the start (`open(p, "w")`, `Path(p).write_text`,
    a shell `> p`): appends and copies are not writing over."""
    from oi_local.core.deletions import _literal, _name

    found: list[str] = []
    if lang in SHELLS:
        return [m.group(1) for m in re.finditer(r"(?<![0-9&<>])>\s*([^\s;&|<>]+)", code)
                if m.group(1) not in ("/dev/null", "&1", "&2")]
    if lang != "python":
        return []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if _name(func) == "open" and not isinstance(func, ast.Attribute) and node.args:
            mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "w" in mode.value:
                found += _literal(node.args[0], {})
        elif isinstance(func, ast.Attribute) and func.attr in ("write_text", "write_bytes"):
            found += _literal(func.value, {})
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.outputs import TARGET

    request = turn.request
    if not copy_only(request):
        return None
    named = {os.path.basename(m.group(1).rstrip(".")) for m in TARGET.finditer(request)}
    over = [p for p in dict.fromkeys(overwritten(block.lang, block.code))
            if os.path.basename(p) not in named and Path(os.path.expanduser(p)).is_file()]
    if not over:
        return None
    paths = ", ".join(over[:4])
    where = f"Write the copy to {sorted(named)[0]}." if len(named) == 1 else "Write the copy to a new file."
    return refuse(turn, NOTE.format(paths=paths, where=where), WARNING.format(paths=paths))


rule = Rule(
    name="copy sources", guards=True, setting="confirm_destructive", check=check,
    summary="code for a request that asks only for a copy (\"copy that one here and call it latest.txt\", \"back up "
            "my notes\") that writes over a file there the request does not name as the copy (`open(p, \"w\")`, "
            "`.write_text`, a shell `>`) is not auto-run: shown and confirmed, or, where no one can confirm, not run "
            "and the request asked afresh once")
