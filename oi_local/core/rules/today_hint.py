"""Today hint: the small prompt set's system message carries no date, so the prompt a request gets is the
same on every day and the model's code for it too. With "today is {date}" in it, the 0.5B model wrote other
code for 16 of the 30 speed tasks on 6 December than on 5 December from prompts the same but for the date,
and four of them failed (BENCHMARKS.md, session 44): a tool that answers worse on some days. Only a request
whose answer depends on the day (today, ago, until, ages, due, overdue, "this week") needs the date; it
gets "Today is 2026-12-06 (a Sunday)." with it; of a request that pastes a text, only its questions count. Never
stored."""
from __future__ import annotations

import datetime
import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

# Words of a request whose answer depends on the day it is asked: "today", "overdue", "how old", "ago",
# "this week". Not a date or a month alone: asked "What date will it be 100 days after 17 March 2025?"
# with today's date beside it, the 0.5B model counted from 17 December 2026; nor "now", "current",
# "latest", "oldest": asked for "the current combination" of a padlock, it printed the date (ho44).
TIME_WORDS = re.compile(
    r"\b(?:today|todays|tonight|tomorrow|yesterday|ago|since|until|till|due|overdue|deadlines?|"
    r"expir\w*|ages?|aged|old|birthdays?|upcoming|this|next|last|past|coming)\b", re.I)
# "this"/"next"/"last"/"past"/"coming"/"now" mean time only before a unit of time ("this file" does not)
_UNIT_AFTER = re.compile(r"\s+(?:\w+\s+)?(?:days?|nights?|weeks?|weekend|months?|years?|quarters?|time|monday|tuesday|"
                         r"wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|"
                         r"september|october|november|december)\b", re.I)
_NEEDS_UNIT = {"this", "next", "last", "past", "coming"}
# "days left", "weeks to go", "what day is it"
_LEFT = re.compile(r"\b(?:days?|weeks?|months?|years?)\s+(?:left|remaining|to\s+go)\b|\bwhat\s+(?:day|date|year|month)\s+is\s+it\b",
                   re.I)
HINT = "Today is {date} (a {weekday})."


def speaks_of_time(request: str) -> bool:
    if _LEFT.search(request):
        return True
    for m in TIME_WORDS.finditer(request):
        if m.group(0).lower() not in _NEEDS_UNIT or _UNIT_AFTER.match(request, m.end()):
            return True
    return False


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    from oi_local.core.rules.long_request import pasted_parts, question_parts
    from oi_local.core.rules.turn import instruction

    words = instruction(request)  # the person's words, not a pasted thread's "last week"
    if pasted_parts(engine, request) is not None:
        # of words around a pasted text, the questions: "Here's the last few weeks of our backup log. Which night did it
        # first fail?" is about the log's dates, and given today's, the 0.5B model answered with it (ho30, development)
        words = " ".join(question_parts(words))
    if not speaks_of_time(words):
        return None
    today = datetime.date.today()
    return Addition(hint=HINT.format(date=today.isoformat(), weekday=today.strftime("%A")))


rule = Rule(
    name="today hint", setting="file_hints", prompt=prompt,
    summary="the small prompt set's system message carries no date, so a request's prompt (and the code the model writes "
            "for it) is the same every day; a request whose answer depends on the day (today, ago, until, ages, due, overdue, "
            "\"this week\", \"days left\"; not a date or a month alone; of a pasted text's request, its questions) gets \"Today is 2026-12-06 (a Sunday).\" with it, never stored (small set: on)")
