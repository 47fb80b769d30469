"""Fresh retries: after a failed run a small model explains the error, makes up a result or sends
the same code again (at temperature 0 it writes the same code). A fresh answer to the request alone
(the failed attempt hidden), sampled, with the error named, often works. Never for a request that
may be destructive: there a failure is where it stops (a retry would be a second try at wiping)."""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import CAREFUL_WORDS, RETRY_TEMPERATURE, Turn, code_prefix

NOTE = (
    "(Write one ```python block that does this and prints the result. A first try failed with: "
    "{error} Write different code.)"
)


def follow_up(turn: Turn) -> Ask | None:
    failure = turn.failure
    allowed = int(getattr(turn.engine, "fresh_retries", None) or 0)
    if not (failure and turn.counts["fresh retry"] < allowed and turn.steps_left
            and not CAREFUL_WORDS.search(turn.request)):
        return None
    turn.counts["fresh retry"] += 1
    n = turn.counts["fresh retry"]
    return Ask(NOTE.format(error=failure), {"temperature": RETRY_TEMPERATURE, "seed": n, **code_prefix(turn.engine)},
               hide=True)


rule = Rule(
    name="fresh retries", setting="fresh_retries", off=0, follow_up=follow_up, after_repeat=True,
    summary="after a failed run that the model answers without a fix (or with the same code), the request is asked "
            "afresh (sampled, the error named), up to N times; never for possibly destructive requests (small set: 2)")
