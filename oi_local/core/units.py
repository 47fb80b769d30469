"""Units a request asks an amount in, other than the unit its column holds: "runs.csv has my runs in miles.
what's the total distance in kilometres?" The 0.5B model (and the loop's own total) summed the miles and
answered in miles (ho51). `asked_in(words, column)` gives the unit asked for and the factor from the
column's unit, when both are known and differ."""
from __future__ import annotations

import re

# name pattern -> (kind, unit's size in the kind's base unit, the short name said in the answer)
_UNITS: list[tuple[str, str, float, str]] = [
    (r"km|kms|kilomet(?:re|er)s?", "length", 1000.0, "km"),
    (r"mi|miles?", "length", 1609.344, "miles"),
    (r"m|metres?|meters?", "length", 1.0, "m"),
    (r"ft|feet|foot", "length", 0.3048, "feet"),
    (r"kg|kgs|kilos?|kilograms?", "mass", 1.0, "kg"),
    (r"lbs?|pounds?", "mass", 0.45359237, "lb"),
    (r"l|litres?|liters?", "volume", 1.0, "litres"),
    (r"gal|gallons?", "volume", 3.785411784, "gallons"),  # US gallons
    (r"h|hrs?|hours?", "time", 3600.0, "hours"),
    (r"mins?|minutes?", "time", 60.0, "minutes"),
]
_WEIGHT = re.compile(r"\b(?:weigh\w*|lbs?|kg|kilos?|mass)\b", re.I)  # "pounds" is money unless weight is meant


def unit_of(word: str) -> tuple[str, float, str] | None:
    for pattern, kind, size, short in _UNITS:
        if re.fullmatch(pattern, word, re.I):
            return kind, size, short
    return None


def _column_unit(column: str) -> tuple[str, float, str] | None:
    parts = [p for p in re.split(r"[^a-zA-Z]+", column) if p]
    found = [u for u in (unit_of(p) for p in parts[1:] or parts) if u]  # "distance_miles": the unit after the measure
    return found[-1] if found else None


def asked_in(words: str, column: str) -> tuple[str, float] | None:
    """(the unit asked for, the factor from the column's unit) when the request asks the amount "in <unit>"
    ("in km", "converted to kilometres") and the column's unit, by its name or the request's "in miles", differs."""
    said = []  # (unit, in a question's sentence)
    for sentence in re.split(r"(?<=[.?!])\s+", words):
        question = bool(re.search(r"\?|\b(?:what|how|total|sum|average|convert\w*)\b", sentence, re.I))
        said += [(u, question) for m in re.finditer(r"\b(?:in|into|to|as)\s+([a-z]+)\b", sentence, re.I)
                 if (u := unit_of(m.group(1)))]
    held = _column_unit(column)
    if held is not None:
        targets = [u for u, _ in said if u[0] == held[0] and u[2] != held[2]]
    else:  # "my runs are in miles. what's the total in km?": the question's unit, from the other one said
        targets = [u for u, q in said if q]
        held = next((u for u, q in said if not q and targets and u[0] == targets[-1][0] and u[2] != targets[-1][2]), None)
    if not targets or held is None or held[0] != targets[-1][0] or held[2] == targets[-1][2]:
        return None
    target = targets[-1]
    if target[0] == "mass" and not _WEIGHT.search(words + " " + column):
        return None
    return target[2], held[1] / target[1]
