"""Told numbers: a change that also asks for a number ("Add utilities, 140 a month, to budget.json and
tell me the new monthly total") is done when the number is said. The 0.5B model wrote the file,
printed "budget.json updated" and answered that (ho34-mt-budget-json): nothing gave the total. When
no clean run of the turn printed a digit, the model is asked once for code that prints it. So is a
two-part question, "which site had the most birds, and how many?", answered by code that printed the
site alone (ho44). A change that asks to be told anything else ("Sort the names in members.txt and save the file.
Then tell me whose name comes first now.") is asked for it once when no clean run of the turn printed anything: the
0.5B model's code wrote a file, printed nothing, and the answer was "The code ran without errors and printed
nothing." (ho57, session 58's start run)."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, asks_back, code_retry, instruction

NOTE = "(Not answered yet: I also asked you to tell me {what}, and nothing printed it. Write one ```python block that prints it.)"
# "tell me the new monthly total", "and let me know how many there are", "show me the sum"
TOLD = re.compile(r"\b(?:tell|show|give|let)\s+me\s+(?:know\s+)?((?:the\s+|what\s+|how\s+)[^.?!\n]{3,60})", re.I)
_NUMBERISH = re.compile(r"\b(?:total|sum|how (?:much|many|long)|average|mean|count|number|amount|cost|size|price)\b", re.I)
_DIGIT = re.compile(r"\d")
# "tell me whose name comes first now", "let me know which ones failed", "show me where it went"
TOLD_ANY = re.compile(r"\b(?:tell|show|give|let)\s+me\s+(?:know\s+)?((?:the|what|how|which|who|whose|whom|where|when|"
                      r"whether|if)\s+[^.?!\n]{3,60})", re.I)
# A two-part question: "which site had the most birds, and how many?" The 0.5B model printed the site
# alone and answered with it (ho44): the second part is a number to tell as well.
SECOND = re.compile(r"\b(?:which|who|what)\b(?:[^.?!\n]|\.(?=\w)){3,100}?[,;]?\s+and\s+(how\s+(?:many|much|long|often)\b[^.?!\n]{0,40})",
                    re.I)


def told(request: str) -> str | None:
    """What number the request asks to be told, in its words, or None."""
    words = instruction(request)
    for m in TOLD.finditer(words):
        what = m.group(1).strip().rstrip(",;:")
        if _NUMBERISH.search(what):
            return what
    second = SECOND.search(words)
    return second.group(1).strip().rstrip(",;:") if second else None


def told_any(request: str) -> str | None:
    """What the request asks to be told, number or not, in its words, or None."""
    m = TOLD_ANY.search(instruction(request))
    return m.group(1).strip().rstrip(",;:") if m else None


def follow_up(turn: Turn) -> Ask | None:
    if not (turn.steps and turn.steps_left) or turn.counts["told"] >= 1 or asks_back(turn.engine):
        return None
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.failed or last.interrupted:
        return None
    clean = [r.output for r in turn.runs if not r.failed]
    if any(_DIGIT.search(out) for out in clean):
        return None
    what = told(turn.request) or (told_any(turn.request) if not any(out.strip() for out in clean) else None)
    if what is None:
        return None
    turn.counts["told"] += 1
    return Ask(NOTE.format(what=what), code_retry(turn.engine, 37))


rule = Rule(
    name="told numbers", setting="check_answers", follow_up=follow_up,
    summary="a request that also asks to be told a number (\"... and tell me the new monthly total\") whose clean "
            "runs printed no digit at all, or to be told anything else (\"then tell me whose name comes first\") whose "
            "clean runs printed nothing, is asked once for code that prints it")
