"""Repetition: small models can fall into "99999..." or the same line forever; the reply is stopped
there (closing the stream cancels the generation) instead of paying for max_tokens."""
from __future__ import annotations

from oi_local.core.rules.base import Rule

SPAN = 160  # chars of strictly periodic text at the end of a reply that mean a degenerate loop
UNIT = 40  # longest repeated unit looked for (a short line)


def cut(text: str) -> int | None:
    """Where a degenerate repetition begins (keeping one copy of the unit), or None. It fires only
    when the last SPAN characters are one unit of 1-UNIT characters over and over; real code or
    prose is never that regular for so long."""
    if len(text) < SPAN:
        return None
    tail = text[-SPAN:]
    for p in range(1, UNIT + 1):
        if tail[p:] == tail[:-p]:
            i = len(text) - SPAN
            while i > 0 and text[i - 1] == text[i - 1 + p]:
                i -= 1
            return i + p
    return None


rule = Rule(
    name="repetition", setting="stop_repeats", cut=cut,
    summary="a reply that falls into an endless repetition (\"99999...\", the same line over and over) is stopped "
            "there; code it was writing is not run")
