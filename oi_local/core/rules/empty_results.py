"""Empty results: a question whose code ran cleanly but printed nothing, `None`, `[]`, `{}` or
`nan` has no answer yet: most often the code looked in the wrong place (a key or folder that is
not there) or forgot to print. The request is asked afresh once (sampled, the empty output named),
as after a failure (core/rules/fresh_retries.py): at temperature 0 the model only repeats itself
(the 0.5B model filtered a JSON file on a key it did not have, printed None and answered "None")."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import CAREFUL_WORDS, RETRY_TEMPERATURE, Turn, code_prefix

EMPTY = re.compile(r"(None|\[\]|\{\}|\(\)|set\(\)|nan|NaN|Empty DataFrame.*|Series\(\[\].*)?", re.S)
NOTE = (
    "(Write one ```python block that does this and prints the result. A first try ran but printed "
    "{shown}, so it found nothing: look at how the data is really laid out. Write different code.)"
)


def empty(output: str) -> bool:
    """The output has no result in it."""
    return EMPTY.fullmatch(output.strip()) is not None


def follow_up(turn: Turn) -> Ask | None:
    from oi_local.core.writes import question

    last = turn.runs[-1] if turn.runs else None
    if not (last and not last.failed and not last.interrupted and empty(last.output)
            and turn.counts["empty result"] < 1 and turn.steps_left
            and question(turn.request) and not CAREFUL_WORDS.search(turn.request)):
        return None
    turn.counts["empty result"] += 1
    shown = repr(last.output.strip()[:40]) if last.output.strip() else "nothing"
    return Ask(NOTE.format(shown=shown), {"temperature": RETRY_TEMPERATURE, "seed": 1, **code_prefix(turn.engine)},
               hide=True)


rule = Rule(
    name="empty results", setting="retry_empty_results", follow_up=follow_up, after_repeat=True,
    summary="a question whose code ran cleanly but printed nothing, None, [], {} or nan is asked afresh once "
            "(sampled, the empty output named); never for possibly destructive requests")
