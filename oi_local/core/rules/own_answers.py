"""Own answers: after the loop's own whole code (a rule's ready code, `Ask.own`) ran cleanly for a question,
the 0.5B model went on writing code in the same turn, and its last output became the answer: "32 lines of
auth.log have failed password", then its own count of 464 (a development run); "20 lines ... have 404", then
0. A block sent after such a run for a question is not run: the turn ends with the answer to that output
(a change asked for is left alone: more may be needed for it)."""
from __future__ import annotations

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import LONG, Block, Turn, instruction, split


def check(turn: Turn, block: Block) -> Verdict | None:
    own = turn.state.get("own code")
    last = turn.runs[-1] if turn.runs else None
    if not own or last is None or last.failed or last.interrupted or last.code.strip() != own or block.code.strip() == own:
        return None
    from oi_local.core.writes import question

    # the person's own words, and of a long request the question after the pasted text where there is one: a pasted
    # manual says "remove" somewhere, and "copied straight out of my inbox" before it is no change asked for (either
    # made a pasted question a task, and the model's code after its answer from the loop's search ran)
    parts = split(turn.request) if len(turn.request) > LONG else None
    return Verdict(repeated=True) if question(parts[2] if parts and parts[2] else instruction(turn.request)) else None


rule = Rule(
    name="own answers", setting="repair_slips", check=check,
    summary="after the loop's own whole code ran cleanly for a question, more code the model sends in that turn is "
            "not run: the turn ends with the answer to that output")
