"""Those files: a follow-up about "those" or "them" after an answer that listed files means the files listed.
Told which three recipes held peanuts, then "move those into a new folder", the 0.5B model moved all seven
files of the folder, typing each name from the folder's listing (ho45, a development run). Code for such a
follow-up that names files here which the last answer's output did not list is not run; the request is asked
afresh once (sampled, the try hidden), with the files the output listed."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction

NOTE = ("(Write one ```python block that does what I asked, for the files the last output listed, and no others: "
        "{files}. The first try also used {others}.)")
SHOWN = "Not run: the request means the files the last output listed, and the code also uses {others}; asked afresh."
_THOSE = re.compile(r"\b(?:those|these|them|they|ones|that list)\b", re.I)
MAX_FILES = 2000


def _listed(messages: list[dict[str, Any]], start: int, names: set[str]) -> list[str]:
    """The file names here that the last output before this turn printed (by name or path)."""
    last = next((str(m.get("content") or "") for m in reversed(messages[:start])
                 if m.get("role") == "computer" and m.get("type") == "console"), "")
    at = {}
    for name in names:
        m = re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", last) if name in last else None
        if m:
            at[name] = m.start()
    return sorted(at, key=at.__getitem__)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["those files"] or not turn.steps_left or turn.start == 0:
        return None
    request = instruction(turn.request)
    if not _THOSE.search(request):
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    from oi_local.core.pycheck import folder_files

    here = {os.path.basename(f) for f in folder_files(Path.cwd(), MAX_FILES)}
    listed = _listed(turn.engine.messages, turn.start, here)
    if len(listed) < 1:
        return None
    used = [os.path.basename(n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    others = [u for u in dict.fromkeys(used) if u in here and u not in listed and u.lower() not in request.lower()]
    if not others:
        return None
    turn.counts["those files"] += 1
    return Verdict(note=SHOWN.format(others=", ".join(others[:4])),
                   ask=Ask(NOTE.format(files=", ".join(listed[:20]), others=", ".join(others[:4])),
                           code_retry(turn.engine, 23), hide=True))


rule = Rule(
    name="those files", setting="check_answers", check=check,
    summary="code for a follow-up about \"those\" or \"them\" that uses files here which the last output did not list "
            "is not run; the request is asked afresh once (sampled, the try hidden), with the files listed")
