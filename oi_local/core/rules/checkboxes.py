"""Checkboxes: asked "how many things on my todo.txt list have I already ticked off?" of lines marked
"[x]" and "[ ]", the 0.5B model counted the "[ ]" lines: the ones not done (ho48, read after that set's
end). When a request asks about the done items (ticked off, checked, done, completed) or the ones not
done (still to do, open, left, unticked), and a file it names marks items with both "[x]" and "[ ]",
Python code that tests for the other mark only has the mark swapped before it runs, and the person is told."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.asked_column import swapped
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: the code looked for {old!r}, the mark of the items {other}; the request asks about the ones {asked}."
_NOT_DONE = re.compile(r"\b(?:not\s+(?:yet\s+)?(?:done|ticked|checked|finished|completed|crossed)|still\s+(?:to\s+do|open|left|"
                       r"need|pending)|left\s+to\s+do|un(?:ticked|checked|finished|done)|outstanding|remaining|open\s+(?:items|tasks|"
                       r"things|ones)|(?:haven'?t|have\s+not|didn'?t|did\s+not)\s+(?:\w+\s+)?(?:done|ticked|checked|finished|"
                       r"completed|crossed))\b", re.I)
_DONE = re.compile(r"\b(?:ticked|checked|crossed)(?:\s+off)?\b|\b(?:done|completed|finished)\b", re.I)
_MARKS = re.compile(r"\[([ xX])\]")


def asked(request: str, cwd: Path) -> tuple[str, str] | None:
    """("done" or "not done", the done mark as the file writes it) for a request about one kind of a named
    file's checkbox items, or None."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    not_done, done = bool(_NOT_DONE.search(words)), bool(_DONE.search(_NOT_DONE.sub(" ", words)))
    if not_done == done:
        return None  # neither asked about, or both ("how many are done and how many are left?")
    kind = "not done" if not_done else "done"
    for p in mentioned_paths(words, cwd):
        if p.is_file() and p.stat().st_size < 1_000_000:
            marks = set(_MARKS.findall(p.read_text(encoding="utf-8", errors="replace")))
            if " " in marks and marks - {" "}:
                return kind, "[X]" if "X" in marks and "x" not in marks else "[x]"
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["checkboxes"]:
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    kind, done = found
    try:
        used = {n.value for n in ast.walk(ast.parse(block.code)) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    except SyntaxError:
        return None
    marks = {m for u in used for m in ("[ ]", "[x]", "[X]") if m in u}
    wrong, right = ("[ ]", done) if kind == "done" else (done, "[ ]")
    if marks != {wrong}:
        return None  # both marks looked at, or the right one, or none
    changed = block.code
    for u in sorted(x for x in used if wrong in x):
        changed = swapped(changed, u, u.replace(wrong, right))
    if changed == block.code:
        return None
    turn.counts["checkboxes"] += 1
    block.message["content"] = changed
    other = "not done" if kind == "done" else "done"
    return Verdict(warning=NOTE.format(old=wrong, other=other, asked=kind))


rule = Rule(
    name="checkboxes", setting="repair_slips", check=check,
    summary="a request about the done items (ticked off, checked, completed) or the ones not done (still to do, open, "
            "unticked) of a named file marked with both \"[x]\" and \"[ ]\": Python code that tests for the other mark "
            "only has it swapped before it runs (the person is told)")
