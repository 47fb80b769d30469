"""Repetition: small models can fall into "99999..." or the same line forever; the reply is stopped
there (closing the stream cancels the generation) instead of paying for max_tokens. So is counting:
asked to plot a CSV, the 0.5B model wrote a list of dates "2025-03-01", "2025-03-02", ... past
"2025-03-80" until max_tokens (1,024 tokens, 52 s of a 30-task run's 426 s), one item per number."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule

SPAN = 160  # chars of strictly periodic text at the end of a reply that mean a degenerate loop
UNIT = 40  # longest repeated unit looked for (a short line)
# A longer unit (a few lines said again and again) must come back LONG_COPIES times in a row: the
# 0.5B model wrote the same two 200-character lines until max_tokens (1,024 tokens, 21.6 s).
LONG_UNIT = 400
LONG_COPIES = 3
COUNT_SPAN = 480  # chars at the end of a reply that count up one by one: about 34 items (a month's
COUNT_ITEMS = 32  # 31 dates written out is long-winded but meant)
_NUMBER = re.compile(r"\d+")


def _start(text: str, span: int, p: int) -> int:
    """Where text that is p-periodic over its last `span` characters begins to be, plus one unit."""
    i = len(text) - span
    while i > 0 and text[i - 1] == text[i - 1 + p]:
        i -= 1
    return i + p


def _counting(text: str) -> int | None:
    """Where a run of items that differ only in numbers that go up by one each time ("2025-03-07",
    "2025-03-08", ...) begins, when it fills the last COUNT_SPAN characters; else None. Data written
    out by hand is not a count: that is range()'s job."""
    tail = text[-COUNT_SPAN:]
    shape = _NUMBER.sub("#", tail)
    for p in range(2, UNIT + 1):
        if shape[p:] != shape[:-p]:
            continue
        if "\n" in shape[:p]:
            return None  # line after line of numbered code may be meant (values[0], values[1], ...)
        per_item = shape[:p].count("#")
        numbers = [int(n) for n in _NUMBER.findall(tail)][1:-1]  # the first and last may be cut in two
        if not per_item or len(numbers) < per_item * COUNT_ITEMS:
            return None
        steps = {(i % per_item, numbers[i + per_item] - numbers[i]) for i in range(len(numbers) - per_item)}
        if len({i for i, _ in steps}) == len(steps) and {d for _, d in steps} <= {0, 1} and (any(d == 1 for _, d in steps)):
            return len(text) - COUNT_SPAN
        return None
    return None


def cut(text: str) -> int | None:
    """Where a degenerate repetition begins (keeping one copy of the unit), or None. It fires only
    when the last SPAN characters are one unit of 1-UNIT characters over and over, or the end is
    one longer unit (up to LONG_UNIT) LONG_COPIES times in a row; real code or prose is never that
    regular for so long."""
    if len(text) < SPAN:
        return None
    if len(text) >= COUNT_SPAN and (at := _counting(text)) is not None:
        return at
    tail = text[-SPAN:]
    for p in range(1, UNIT + 1):
        if tail[p:] == tail[:-p]:
            return _start(text, SPAN, p)
    for p in range(UNIT + 1, min(LONG_UNIT, len(text) // LONG_COPIES) + 1):
        span = LONG_COPIES * p
        tail = text[-span:]
        if tail[p:] == tail[:-p]:
            if any(tail[q:] == tail[:-q] for q in range(1, UNIT + 1)):
                return None  # "999...": a short unit, which the SPAN rule cuts keeping less
            return _start(text, span, p)
    return None


rule = Rule(
    name="repetition", setting="stop_repeats", cut=cut,
    summary="a reply that falls into an endless repetition (\"99999...\", the same line or the same few lines over and over, or "
            "items that count up one by one, \"2025-03-01\", \"2025-03-02\", ...) is stopped "
            "there; code it was writing is not run")
