"""Prose blocks: when the loop asks for code it may start the reply with the fence already written
(`prefill_code`), and a small model with nothing to compute then writes its sentence inside it: asked
afresh after averaging an id column, the 0.5B model replied ```` ```python ```` "orders_export.csv does not
have it." and the SyntaxError that followed led it to count a made-up date instead (ho39). A Python
block of one to three lines that does not compile and reads as a sentence (words, no brackets,
operators or keywords of code) is not run: it is the model's answer, said as one, and the turn goes on
as after any answer.
A block that is the loop's own note written back ("Not run: the same code already answered the earlier
request; ..." in a ```python fence, ho44 on the dateless prompt) is not run either: it failed as a
SyntaxError and counted as a failed try. The model is told so and asked again."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

MAX_LINES = 3
_CODE_SIGNS = re.compile(r"[=(){}\[\]<>`$|;]|^\s*(?:import|from|def|class|for|while|if|print|return|with|try)\b|"
                         r"^\s*[#@]|\b(?:True|False|None)\b", re.M)
_WORD = re.compile(r"^[A-Za-z][\w'’.,:!?-]*$")


def is_prose(code: str) -> bool:
    from oi_local.core.pycheck import compiles

    text = code.strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines or len(lines) > MAX_LINES or _CODE_SIGNS.search(text) or compiles(text):
        return False
    tokens = text.split()
    words = [t for t in tokens if _WORD.match(t) or re.fullmatch(r"\d[\d,.]*%?[.,]?", t)]
    return len(tokens) >= 3 and len(words) == len(tokens)


ECHO = "Not run: that block is my note written back, not code. Reply with a ```python block that does what I asked."
_LOOP_WORDS = ("Not run:", "Changed before it ran:", "Output of the code:", "This is not done:", "Note:")


def echoed(turn: Turn, code: str) -> bool:
    """The block is a note the loop gave (or starts as one), not code."""
    text = code.strip()
    return text.startswith(_LOOP_WORDS) or any(len(n) >= 20 and n.strip()[:60] in text for n in turn.notes)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang not in ("python", "shell", "bash", "sh"):
        return None
    if echoed(turn, block.code) and turn.counts["echoed"] < 1:
        from oi_local.core.pycheck import compiles

        if block.lang != "python" or not compiles(block.code):
            turn.counts["echoed"] += 1  # once a turn: written back again, it runs and fails as it would
            return Verdict(note=ECHO, again=True)
    if block.lang != "python" or not is_prose(block.code):
        return None
    return Verdict(answer=True)


rule = Rule(
    name="prose blocks", setting="repair_slips", check=check,
    summary="a ```` ```python ```` block of one to three lines that does not compile and reads as a sentence "
            "(\"orders_export.csv does not have it.\") is not run: it is taken as the model's answer; a block that is the "
            "loop's own note written back (\"Not run: ...\") is not run and the model is asked again")
