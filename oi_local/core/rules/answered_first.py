"""Answered first: asked "how many commits has Sam made in this repo?", the 0.5B model ran git log,
answered "Sam Ortiz has 7 commits, Lena Fischer has 4 commits." and went on in the same reply with
more code: shell text in a list comprehension, then a file that was never there; three failed runs
later the turn ended "not done" (ho49, read after that set's end). After a clean run for a question
that asks one thing, a block that follows, in the same reply, a sentence of the model's that gives
a number the run printed (not one the request gave) and does not say more is coming ("now", "next",
"let me") is not run: the turn ends with that answer."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

MAX_OUTPUT = 2000  # characters of the run's output: a longer one is data still to be worked on
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w]|\.\d)")
_MORE = re.compile(r"\b(?:now|next|then|also|let\s+me|let'?s|i\s+will|i'?ll|we\s+will|we'?ll|to\s+(?:find|get|calculate|"
                   r"compute|check|count|see|answer)|first|however|but|error|fail\w*|wrong|instead)\b|:\s*$", re.I)


def _said_before(turn: Turn, block: Block) -> str | None:
    """The model's sentence just before the block in the same reply, right after the last run's output."""
    messages = turn.engine.messages
    i = next((k for k, m in enumerate(messages) if m is block.message), None)
    if i is None or i < 2 or i - 1 < turn.state.get("reply from", 0):
        return None  # the sentence was an earlier reply (asked again after it), not this one
    said, before = messages[i - 1], messages[i - 2]
    if said.get("role") != "assistant" or said.get("type") != "message" or before.get("role") != "computer":
        return None
    return str(said.get("content", "")).strip()


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.two_numbers import asked_two
    from oi_local.core.writes import question

    last = turn.runs[-1] if turn.runs else None
    if last is None or last.failed or last.interrupted or len(last.output) > MAX_OUTPUT or block.code.strip() == last.code.strip():
        return None
    asked = instruction(turn.request)
    if not question(asked) or asked_two(turn.request) or asked.count("?") > 1:
        return None
    said = _said_before(turn, block)
    if not said or _MORE.search(said):
        return None
    given = {n.replace(",", "") for n in _NUMBER.findall(turn.request)}
    printed = {n.replace(",", "") for n in _NUMBER.findall(last.output)} - given
    if not {n.replace(",", "") for n in _NUMBER.findall(said)} & printed:
        return None
    return Verdict(repeated=True)


rule = Rule(
    name="answered first", setting="repair_slips", check=check,
    summary="after a clean run for a question that asks one thing, a block sent in the same reply after the model's "
            "own sentence giving a number the run printed (and not saying more is to come) is not run: the turn ends "
            "with that answer")
