"""Typed means: "quick one - whats the average of 12.5, 18, 7.25, 30, 21.75, 9, 15.5 and 26". The 0.5B model
left out the 26; asked afresh with every number named, it added all eight and divided by 7 (20.0, not 17.5:
ho52). When a request names no file and asks for the average (mean) of a list of three or more numbers it
types, and nothing else in its words is a number (a count, a speed, a date), the mean is known before any code
runs: a run that failed or printed no number equal to it (to any rounding) gets the loop's own code that
prints it, once a turn. So does a reply without code whose numbers do not hold it."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import (
    Turn,
    instruction,
    last_words,
    own_code,
    printed_numbers,
)

NOTE = "(That did not print the average of the {n} numbers I gave: their sum divided by {n}."
HOW = "This block works it out; reply with it, then answer with the average it prints."
_ASKED = re.compile(r"\b(?:average|avg|mean)\b", re.I)
# another kind of average, or some numbers left out or picked: not the plain mean of all of them
_OTHER = re.compile(r"\b(?:weighted|moving|rolling|running|median|mode|geometric|harmonic|per|each|every|except|excluding|"
                    r"without|ignor\w*|leav\w*\s+out|drop\w*|top|highest|lowest|best|worst|first|last|speed|rate|growth)\b",
                    re.I)
_FILE = re.compile(r"\b[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}\b|/\w")
# a number as typed: "12.5", "-3", "$40", "18kg"; not part of a word, a date, a time or a version ("v2", "3:45")
_UNITS = (r"(?:%|°[cf]?|kg|kilos?|g|grams?|lbs?|pounds?|km|miles?|mi|m|cm|mm|mins?|minutes?|s|secs?|seconds?|hrs?|hours?|h|"
          r"ms|pts|points?|bpm|mb|gb|kb|k|ml|l|steps?|degrees?)")
_NUMBER = re.compile(rf"(?<![\w.:/-])([-−]?)[$£€]?(\d+(?:\.\d+)?)(?:\s?{_UNITS})?(?![\w:/]|-\d|\.\d|,\d{{3}}\b)", re.I)
_GAP = re.compile(r"\s*(?:,|;|\+|&)?\s*(?:(?:and|plus)\s+)?(?:then\s+)?", re.I)  # what may stand between two listed numbers
_PLACES = re.compile(r"\s*(?:decimal|dp\b|d\.p\.|places\b|digits\b)", re.I)
_ROUND_TO = re.compile(r"\bround\w*\s+(?:it\s+|that\s+|them\s+)?(?:off\s+)?to\s+$", re.I)


def asked(request: str) -> tuple[list[str], int | None] | None:
    """(the numbers as typed, the decimal places asked for) when the request asks the mean of a list it types."""
    words = instruction(request)
    if not _ASKED.search(words) or _OTHER.search(words) or _FILE.search(words) or re.search(r"\d,\d{3}\b", words):
        return None
    places, found = None, []
    for m in _NUMBER.finditer(words):
        if _PLACES.match(words, m.end()) or _ROUND_TO.search(words[:m.start()]):
            places = int(float(m.group(2)))
            continue
        found.append(m)
    if len(found) < 3 or any(not _GAP.fullmatch(words, a.end(), b.start()) for a, b in zip(found, found[1:])):
        return None  # not one list: "average speed, 120 km in 1.5 hours", or numbers in other places
    return [("-" if m.group(1) else "") + m.group(2) for m in found], places


def mean(numbers: list[str]) -> float:
    return sum(map(float, numbers)) / len(numbers)


def ready_code(numbers: list[str], places: int | None) -> str:
    shown = f"round(average, {places})" if places is not None else "round(average, 4)"
    return (f"numbers = [{', '.join(numbers)}]\naverage = sum(numbers) / len(numbers)\n"
            f"print('The average of the', len(numbers), 'numbers is', {shown})")


def holds(value: float, printed: set[float]) -> bool:
    """A printed number is `value`, or `value` rounded to some decimal places."""
    return any(abs(p - value) < 1e-6 or any(abs(p - round(value, k)) < 1e-9 for k in range(1, 7)) for p in printed)


def _offer(turn: Turn, printed: set[float], failed: bool) -> Ask | None:
    if turn.counts["typed means"]:
        return None
    found = asked(turn.request)
    if found is None or (not failed and holds(mean(found[0]), printed)):
        return None
    turn.counts["typed means"] += 1
    return own_code(turn.engine, NOTE.format(n=len(found[0])), ready_code(*found), HOW)


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted:
        return None
    return _offer(turn, printed_numbers(last.output), last.failed)


def follow_up(turn: Turn) -> Ask | None:
    """A reply without code: its numbers must hold the mean (the request's own numbers aside)."""
    if turn.runs:
        return None
    return _offer(turn, printed_numbers(last_words(turn)), False)


rule = Rule(
    name="typed means", setting="check_answers", after_run=after_run, follow_up=follow_up,
    summary="a request that names no file and asks the average of a list of three or more numbers it types: a run that "
            "failed or printed no number equal to their mean (to any rounding), or a reply without code that does not "
            "say it, gets the loop's own code that prints it (once a turn)")
