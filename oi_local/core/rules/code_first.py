"""Code first: a first reply without code, to a request that needs some, is asked once for code.

Small models answer arithmetic, dates and questions about files from memory, wrongly. Asked once,
afresh: the guess is left out of the prompt (shown the guess, the model prints it), and the ask is
not stored, so the history stays the user's.
"""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, careful, code_prefix, newest_reply

NUDGE = "(Do not answer from memory. Write one ```python block that finds the answer and prints it.)"

# Requests a prose answer is right for: never pushed towards code.
_CHAT = re.compile(
    r"^\s*(tell me (a|an|about)|write (me )?(a|an) (story|poem|joke|haiku|song|letter|email)|"
    r"explain|describe|summari[sz]e|why\b|what do you think)", re.I)
# A greeting or thanks before the request ("hi, our backup program emails ... did it fail?"): alone it
# is chat; before a request it is only politeness (a long paste opening "hi," got no code).
_POLITE = re.compile(r"^\s*(?:(?:hi|hello|hey|hiya|thanks|thank you|cheers)\b(?: there| so much| again)?[\s,.!:;-]*)+", re.I)


def answered_from_memory(turn: Turn) -> bool:
    """The reply has no code though the request needs some. Not pushed: a reply that asks something
    back, a short chat message, a possibly destructive request."""
    reply = newest_reply(turn.engine)
    if reply is None:
        return False
    text, said = _POLITE.sub("", turn.request), str(reply.get("content", "")).strip()
    if len(text.split()) < 4 or careful(text) or _CHAT.search(text) or _from_shown_lines(turn, said):
        return False
    return not said.endswith("?") or said_back(said, text)


def said_back(said: str, request: str) -> bool:
    """The reply's closing question is the request's own, said back ("I won't do that. <the request>"
    is no question to the person; the 0.5B model answered a long paste so)."""
    last = re.split(r"(?<=[.!?])\s+|\n", said.strip())[-1]
    return len(last) >= 20 and " ".join(last.split()) in " ".join(request.split())


_ISO = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")


def _from_shown_lines(turn: Turn, said: str) -> bool:
    """The answer cites a date, or only numbers, of the pasted lines the model was shown (long requests: the lines that
    hold a rare word of the question). Asked whether a pasted backup log had failed, the 0.5B model
    answered "it failed on night 7, November 7th" from the shown FAIL line; pushed to code, its regex
    missed the line and it answered "No backup failed"."""
    from oi_local.core.dates import named_dates
    from oi_local.core.rules.long_request import shown_lines

    shown = shown_lines(turn.engine, turn.request)
    days = {(int(m), int(d)) for _, m, d in _ISO.findall(shown)}
    if days and any((n.month, n.day) in days for n in named_dates(said)):
        return True
    # a short answer whose every number is in the shown sentences: asked for the padlock's new combination, the
    # 0.5B model answered "3948" from the shown "The new combination is 3948."; pushed to code, it printed a
    # Subject line (ho44, a development run of session 54)
    numbers = _NUMBER.findall(said)
    return bool(shown) and len(said) <= 200 and any(len(n) >= 2 for n in numbers) and \
        all(n in set(_NUMBER.findall(shown)) for n in numbers)


_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,:]\d+)*(?![\w])")


def follow_up(turn: Turn) -> Ask | None:
    if not (turn.first and answered_from_memory(turn)):
        return None
    return Ask(NUDGE, code_prefix(turn.engine), hide=True)


rule = Rule(
    name="code first", setting="code_first", follow_up=follow_up,
    summary="a first reply without code is asked once for code (\"do not answer from memory\"), unless it asks "
            "something back or the request may be destructive (small set: on)")
