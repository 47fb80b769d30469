"""Cut-off replies: code that the reply did not finish (max_tokens reached inside the block, or the
repetition rule stopped it) is not run, and the model hears why."""
from __future__ import annotations

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

DEGENERATE_NOTE = "The reply fell into an endless repetition and was stopped, so that code was not run."
LENGTH_NOTE = "The reply was cut off (max_tokens) inside a code block, so the incomplete code was not run."


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.degenerate:
        return Verdict(note=DEGENERATE_NOTE, stop=True)
    if not block.closed and turn.engine.llm.last_finish_reason == "length":
        return Verdict(note=LENGTH_NOTE, stop=True)
    return None


rule = Rule(
    name="cut-off code", setting="skip_cut_off", check=check,
    summary="a code block the reply did not finish (max_tokens reached inside it, or stopped as a repetition) is "
            "not run, and the model is told why")
