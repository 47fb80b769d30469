"""Two numbers: a question that asks for two amounts ("how many jpeg photos are in camera? ... and how
much space do they take up together?") is not answered by one printed number. The 0.5B model summed
the sizes and answered "25600 bytes." with no count (ho34-jpeg-count-size); asked how many orders
were over 250 euros "and what do they come to together?", it printed the count and the orders (ho37). When the request asks two
how-many/how-much questions and the last clean run printed one number, alone or on one short labelled
line ("Pending orders: 8" for how many are pending and what they add up to, ho36), the model is asked
once for code that prints both."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, asks_back, code_retry, instruction

NOTE = ("(Not answered yet: I asked two things, {first} and {second}, and the code printed one number. Write one "
        "```python block that prints both, each with its label.)")
# one amount asked for: "how many ...", "how much space", "how big", "what's the total ...", "what's their total"
_TAIL = r"(?:(?!\band\b)[^.?!,;]){0,40}"  # "and" starts the next ask
AMOUNT = re.compile(r"\bhow\s+(?:many|much|big|large|long|old|often)\b" + _TAIL + "|"
                    r"\bwhat(?:'s|\s+is|\s+was|\s+are|\s+were)?\s+(?:the\s+|its\s+|their\s+)?(?:total|sum|average|size|count)\b" + _TAIL
                    + "|" + r"\bwhat\s+(?:do|does|did)\s+(?:they|it|those|these|the\s+\w+)\s+(?:come|add|amount|total)\b" + _TAIL,
                    re.I)
MAX_LABELLED = 60  # characters of a one-line output with a label: "Pending orders: 8" (a sentence is longer)
_NUMBERS = re.compile(r"\d[\d,]*(?:\.\d+)?")
_ONE_NUMBER = re.compile(r"\s*[-+]?[£$€]?\d[\d,]*(?:\.\d+)?\s*(?:bytes?|[kmg]i?b)?\s*", re.I)


# Records printed after the number ("9 orders over 250" and then each order as a dict; "(464.83, [{...}, ...])"):
# they show the rows, they do not answer the second question.
_DUMP = re.compile(r"[\[{].*", re.S)


def _one_number(output: str, request: str = "") -> bool:
    """The output is one number, alone or after a label on one short line ("Pending orders: 8"; a
    number the request gives, as in "orders over 250", is part of the label), leaving out records
    printed after it."""
    text = _DUMP.sub("", output).strip().strip("(,").strip()
    if _ONE_NUMBER.fullmatch(text):
        return True
    given = set(_NUMBERS.findall(request))
    # "9 rows -> 9": one number said twice is one number
    return len(text) <= MAX_LABELLED and "\n" not in text and len({n for n in _NUMBERS.findall(text) if n not in given}) == 1


def asked_two(request: str) -> tuple[str, str] | None:
    """The first two amounts a request asks for, in its words, or None for fewer."""
    found = [m.group(0).strip() for m in AMOUNT.finditer(instruction(request))]
    return (found[0], found[1]) if len(found) >= 2 else None


def follow_up(turn: Turn) -> Ask | None:
    if not (turn.steps and turn.steps_left) or turn.counts["two numbers"] >= 1 or asks_back(turn.engine):
        return None
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.failed or last.interrupted or not _one_number(last.output, instruction(turn.request)):
        return None
    two = asked_two(turn.request)
    if two is None:
        return None
    turn.counts["two numbers"] += 1
    return Ask(NOTE.format(first=f'"{two[0]}"', second=f'"{two[1]}"'), code_retry(turn.engine, 41))


def finish(turn: Turn) -> str | None:
    """Asked for both and still one number printed: the turn says the second was not worked out (asked how
    many orders and what they come to, the 0.5B model printed the count twice and answered "Total orders: 9")."""
    last = turn.runs[-1] if turn.runs else None
    if not turn.counts["two numbers"] or last is None or last.failed or last.interrupted \
            or not _one_number(last.output, instruction(turn.request)):
        return None
    two = asked_two(turn.request)
    return f'This is not done: I asked two things, "{two[0]}" and "{two[1]}", and the code printed one number.' if two else None


rule = Rule(
    name="two numbers", setting="check_answers", follow_up=follow_up, finish=finish,
    summary="a question that asks for two amounts (\"how many ... and how much space ...\") whose last clean run "
            "printed one number (alone or on one short labelled line) is asked once for code that prints both, and says "
            "it is not done if the last run still printed one")
