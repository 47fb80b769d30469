"""Answers: a final answer that is word for word one of the template's example answers (the 0.5B
model answered a file deletion with "1234 * 5678 is 7006652."), or that answers a question without
any of the short result the code printed ("The output is correct." after `Dana 2300.0`), is dropped
and asked for once more; a copied answer the second time gives way to the code's last output."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, asks_back, newest_reply

MAX_SHORT_OUTPUT = 200
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_][\w.@-]*\w", re.U)
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}


def parroted(turn: Turn) -> bool:
    """The newest reply is word for word an answer from the template's worked examples."""
    reply = newest_reply(turn.engine)
    if not reply:
        return False
    said = " ".join(str(reply.get("content", "")).split())
    return bool(said) and any(
        e.get("role") == "assistant" and " ".join(str(e.get("content", "")).split()) == said
        for e in (getattr(turn.engine, "examples", None) or []))


def _tokens(text: str) -> set[str]:
    found = set()
    for t in _TOKEN.findall(text):
        t = _NUMBER_WORDS.get(t.lower(), t)  # "One row." says 1
        if t[0].isdigit():  # 2300.0, 2300 and 2,300 are one number
            t = t.replace(",", "")
            t = t.rstrip("0").rstrip(".") if "." in t else t
        if len(t) >= 3 or t.isdigit():
            found.add(t.lower())
    return found


def _same_number(printed: str, said: str) -> bool:
    """1.4166666 printed, "about 1.42" said: the same number, rounded."""
    try:
        x, y = float(printed), float(said)
    except ValueError:
        return False
    places = len(said.split(".")[1]) if "." in said else 0
    return round(x, places) == y


def ungrounded(turn: Turn) -> bool:
    """A question answered without its result: the last run printed a short result ("Dana 2300.0")
    and the reply says none of it ("The output is correct. The code converts the salary...")."""
    from oi_local.core.writes import question

    output = turn.runs[-1].output if turn.runs else ""
    reply = newest_reply(turn.engine)
    result = getattr(turn.engine.computer, "last_result", None)
    if (not reply or asks_back(turn.engine) or not output.strip() or len(output) > MAX_SHORT_OUTPUT
            or getattr(result, "exit_code", 0) not in (None, 0)):
        return False
    request = turn.request
    if not question(request):
        return False
    printed = _tokens(output) - _tokens(request)
    said = _tokens(str(reply.get("content", "")))
    return bool(printed) and not printed & said and not any(_same_number(a, b) for a in printed for b in said)


def follow_up(turn: Turn) -> Ask | None:
    return Ask(final=True) if turn.steps and (parroted(turn) or ungrounded(turn)) else None


rule = Rule(
    name="answers", setting="check_answers", follow_up=follow_up, discard=parroted,
    summary="a final answer that copies one of the template's example answers word for word, or answers a question "
            "without any of the short result the code printed, is dropped and asked for once more; a copied answer "
            "the second time gives way to the code's last output")
