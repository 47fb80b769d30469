"""Long decimals: an answer that gives a computed value with all of a float's digits
(58.43333333333333 for an average) is followed by that value to the decimals the request asked for,
two when it asked for none. The 0.5B model repeats what the code printed: in the recorded runs the
answers to three averages (one asked "to two decimals") ended with 15 decimals, and the person has
to round them by hand. The answer itself is left as it is; the rounded value is said after it."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule
from oi_local.core.rules.turn import Turn, last_words

_WORDS = {"no": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ASKED = re.compile(r"\b(\d|no|zero|one|two|three|four|five|six)[\s-]*(?:decimals?|decimal places?|decimal points?|d\.?p\.?)(?!\w)",
                    re.I)
_WHOLE = re.compile(r"\b(?:whole numbers?|nearest whole|integers?)\b", re.I)
_LONG = re.compile(r"(?<![\w.])-?\d+\.\d{3,}(?!\w|\.\d)")
UNASKED_MIN = 8  # decimals that only a float's repr prints (58.43333333333333), not a measured value (51.50735)
NAMES = {0: "no decimals", 1: "one decimal", 2: "two decimals", 3: "three decimals"}


def asked_decimals(request: str) -> int | None:
    """The decimals the request asks for ("to 2 decimal places", "two decimals", "a whole number")."""
    from oi_local.core.rules.rounding import CENTS

    m = _ASKED.search(request)
    if CENTS.search(request) and not m:
        return 2
    if m:
        word = m.group(1).lower()
        return int(word) if word.isdigit() else _WORDS[word]
    return 0 if _WHOLE.search(request) else None


def finish(turn: Turn) -> str | None:
    if not turn.runs or turn.runs[-1].failed:
        return None
    said = last_words(turn)
    asked = asked_decimals(turn.request)
    places = 2 if asked is None else asked
    least = UNASKED_MIN if asked is None else places + 1
    pairs = []
    for text in dict.fromkeys(_LONG.findall(said)):
        if len(text.split(".")[1]) < least:
            continue
        short = f"{float(text):.{places}f}"
        if not re.search(rf"(?<![\w.]){re.escape(short)}(?![\d])", said):
            pairs.append(f"{text} is {short}")
    if not pairs:
        return None
    return f"Rounded to {NAMES.get(places, f'{places} decimals')}: {'; '.join(pairs)}."


rule = Rule(
    name="long decimals", setting="widen_rounding", finish=finish,
    summary="an answer that gives a computed value with all of a float's digits (58.43333333333333) is followed by "
            "that value to the decimals the request asked for, two when it asked for none (\"Rounded to two decimals: "
            "58.43333333333333 is 58.43.\"); the answer itself is left as it is")
