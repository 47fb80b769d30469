"""Repeated code: small models re-send code that already ran instead of answering. It is not run
again: the turn ends with a request for a plain answer, or after a failure, a fresh sampled answer
or a fix ask (the rules with `after_repeat`)."""
from __future__ import annotations

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn


def check(turn: Turn, block: Block) -> Verdict | None:
    ran = {(r.lang, r.code.strip()) for r in turn.runs}
    return Verdict(repeated=True) if (block.lang, block.code.strip()) in ran else None


rule = Rule(
    name="repeated code", setting="stop_repeats", check=check,
    summary="code that already ran this turn is not run again: a failure is retried afresh or the fix asked for "
            "again where those rules apply, else the model is asked once for a plain answer")
