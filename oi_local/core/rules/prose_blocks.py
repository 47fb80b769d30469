"""Prose blocks: when the loop asks for code it may start the reply with the fence already written
(`prefill_code`), and a small model with nothing to compute then writes its sentence inside it: asked
afresh after averaging an id column, the 0.5B model replied ```` ```python ```` "orders_export.csv does not
have it." and the SyntaxError that followed led it to count a made-up date instead (ho39). A Python
block of one to three lines that does not compile and reads as a sentence (words, no brackets,
operators or keywords of code) is not run: it is the model's answer, said as one, and the turn goes on
as after any answer."""
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


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or not is_prose(block.code):
        return None
    return Verdict(answer=True)


rule = Rule(
    name="prose blocks", setting="repair_slips", check=check,
    summary="a ```` ```python ```` block of one to three lines that does not compile and reads as a sentence "
            "(\"orders_export.csv does not have it.\") is not run: it is taken as the model's answer")
