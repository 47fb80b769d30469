"""Fresh retries: after a failed run a small model explains the error, makes up a result or sends
the same code again (at temperature 0 it writes the same code). A fresh answer to the request alone
(the failed attempt hidden), sampled, with the error named, often works. Code that ran cleanly but
printed nothing (or only `None`, `nan`, `[]`, the request's own words back, or a list of numbers where
one was asked for), asked a question, is retried the same way: it looked in the wrong place or forgot to print, and the 0.5B model then
answers "The code ran and printed nothing." (or "The answer is None."). Never for a request that
may be destructive (a retry would be a second try at wiping), nor after a failure no code can fix
(core/beyond_code.py: no network, a program or the user's package missing, a damaged file)."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import (
    Turn,
    asks_something,
    careful,
    code_retry,
    instruction,
)

NOTE = "(Write one ```python block that does this and prints the result. A first try {what} Write different code.)"

# Lines that stand for no value at all: what `print(result)` shows when the code found nothing.
_NO_VALUE = re.compile(r"(?:None|nan|NaN|\[\]|\{\}|\(\)|set\(\)|''|\"\"|Empty DataFrame.*|Columns: \[\]|Index: \[\]"
                       # empty collections of any kind: defaultdict(<class 'float'>, {}), Counter(), deque([])
                       r"|\w+\((?:<class '\w+'>, )?(?:\{\}|\[\]|\(\))?\)|Series\(\[\], .*\)|array\(\[\].*\))")


_WORDS = re.compile(r"\w+")
MIN_ECHO = 5  # words: a shorter output made of the request's words may be the answer ("notes.txt")


# Asked "How much am I paying a month for subscriptions?", the code printed each price, one per line,
# and the answer was that list. Only for a request that is one question (no "each", "which", "list";
# a change and a question together would be done twice by a retry).
MIN_LIST = 3
_NUMBER = re.compile(r"[-+]?[£$€]?\d[\d,]*(?:\.\d+)?%?")
_ONE = re.compile(r"\b(?:how (?:much|many|long)|total|sum|average|mean|median|highest|lowest|cheapest|biggest|largest|"
                  r"smallest)\b", re.I)
_MANY = re.compile(r"\b(?:each|every|per|list|all the|which|what are|show)\b|\?.*\?|"
                   r"\b(?:how|what|who|when)\b.*\band\s+(?:how|what|who|when)\b", re.I | re.S)


def _one_asked(request: str) -> bool:
    from oi_local.core.writes import question

    return bool(_ONE.search(request)) and not _MANY.search(request) and question(request)


def _counted_list(turn: Turn) -> bool:
    """Asked how many, the code printed one list of matches (["harbour", "harbour", ...]): the count is
    its length (the counts rule asks for it), not words of the request said back."""
    from oi_local.core.rules.counts import HOW_MANY, printed_list

    last = turn.runs[-1]
    return bool(HOW_MANY.search(instruction(turn.request))) and printed_list(last.code, last.output) is not None


def printed_nothing(turn: Turn) -> str | None:
    """For a request that asks something, how the last (clean) run printed nothing useful: no output,
    or only empty values (`None`, `nan`, `[]`): the code looked in the wrong place or returned nothing."""
    last = turn.runs[-1] if turn.runs else None
    if not (last and not last.failed and not last.interrupted):
        return None
    lines = [ln.strip() for ln in last.output.splitlines() if ln.strip()]
    if len(lines) >= MIN_LIST and all(_NUMBER.fullmatch(ln) for ln in lines) and _one_asked(turn.request):
        return f"ran but printed {len(lines)} numbers, one per line, where one answer was asked for."
    if not asks_something(turn.request):
        return None
    if not lines:
        return "ran but printed nothing."
    if all(_NO_VALUE.fullmatch(ln) for ln in lines):
        return f"ran but printed only {' '.join(lines)[:40]}, no answer."
    said = _WORDS.findall(last.output.lower())
    # the person's own words: lines of a pasted text printed by a search are what the question is answered from
    # (ho57's ticket export: the loop's own search was taken for words said back, and asked afresh)
    if len(said) >= MIN_ECHO and set(said) <= set(_WORDS.findall(instruction(turn.request).lower())) and not _counted_list(turn):
        return "ran but only printed words of the request back, no answer."  # print("The screen says E21 ...")
    return None


def follow_up(turn: Turn) -> Ask | None:
    from oi_local.core.beyond_code import beyond_code

    failure = turn.failure
    if failure and beyond_code(turn.runs[-1].output):
        return None
    what = f"failed with: {failure}" if failure else printed_nothing(turn)
    allowed = int(getattr(turn.engine, "fresh_retries", None) or 0)
    if not (what and turn.counts["fresh retry"] < allowed and turn.steps_left
            and not careful(turn.request)):
        return None
    turn.counts["fresh retry"] += 1
    n = turn.counts["fresh retry"]
    return Ask(NOTE.format(what=what), code_retry(turn.engine, n),
               hide=True)


rule = Rule(
    name="fresh retries", setting="fresh_retries", off=0, follow_up=follow_up, after_repeat=True, at_failure=True,
    summary="after a failed run that the model answers without a fix (or with the same code), or a question whose "
            "code printed nothing (or only `None`, `nan`, `[]`, the request's own words back, or one number a line "
            "where one answer was asked for), the request is asked "
            "afresh (sampled, the error named), up to N times; never for possibly destructive requests nor after a "
            "failure no code can fix (no network, a program or the user's own package missing, a damaged file) "
            "(small set: 2)")
