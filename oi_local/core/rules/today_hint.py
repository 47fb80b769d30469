"""Today hint: the small prompt set's system message carries no date, so the prompt a request gets is the
same on every day and the model's code for it too. With "today is {date}" in it, the 0.5B model wrote other
code for 16 of the 30 speed tasks on 6 December than on 5 December from prompts the same but for the date,
and four of them failed (BENCHMARKS.md, session 44): a tool that answers worse on some days. Only a request
that speaks of time (today, dates, days, weeks, ages, due, overdue, ...) needs the date; it gets
"Today is 2026-12-06 (a Sunday)." with it. Never stored."""
from __future__ import annotations

import datetime
import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

# Words of a request that needs to know the day it is asked on.
TIME_WORDS = re.compile(
    r"\b(?:today|todays|tonight|tomorrow|yesterday|now|current(?:ly)?|dates?|dated|days?|daily|weeks?|weekly|weekdays?|"
    r"weekends?|months?|monthly|years?|yearly|annual|ages?|aged|old|older|oldest|birthdays?|born|ago|since|until|till|"
    r"due|overdue|deadlines?|expir\w*|late|recent\w*|latest|upcoming|next|last|this|past|calendar|anniversar\w*|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|"
    r"nov(?:ember)?|dec(?:ember)?|"
    r"\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4})\b", re.I)
# "this"/"next"/"last"/"past" mean time only before a unit of time ("this file" does not)
_UNIT_AFTER = re.compile(r"\s+(?:\w+\s+)?(?:days?|weeks?|weekend|months?|years?|quarters?|time|monday|tuesday|wednesday|"
                         r"thursday|friday|saturday|sunday)\b", re.I)
_NEEDS_UNIT = {"this", "next", "last", "past", "may", "mar", "now"}
HINT = "Today is {date} (a {weekday})."


def speaks_of_time(request: str) -> bool:
    for m in TIME_WORDS.finditer(request):
        word = m.group(0).lower()
        if word not in _NEEDS_UNIT:
            return True
        if word in ("may", "mar") and m.group(0)[0].isupper():
            return True  # "May 3", not "you may"
        if _UNIT_AFTER.match(request, m.end()):
            return True
    return False


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    if not speaks_of_time(request):
        return None
    today = datetime.date.today()
    return Addition(hint=HINT.format(date=today.isoformat(), weekday=today.strftime("%A")))


rule = Rule(
    name="today hint", setting="file_hints", prompt=prompt,
    summary="the small prompt set's system message carries no date, so a request's prompt (and the code the model writes "
            "for it) is the same every day; a request that speaks of time (today, dates, days, ages, due, overdue, a month's "
            "name, \"this week\") gets \"Today is 2026-12-06 (a Sunday).\" with it, never stored (small set: on)")
