"""Named today: "It's 10 March 2025 today. Which of the tasks in todo.json are overdue?" The 0.5B
model wrote `today = datetime.datetime.now()` (ho39): the machine's clock, not the day the person
named, so every answer is for another day. When the request names today's date ("today is ...",
"it's ... today", "as of ..."), `datetime.now()`, `datetime.today()` and `date.today()` in the code
become that date (`datetime(2025, 3, 10)`); the person is told."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: {changes} (the request says today is {day})."
NEAR = 30  # characters between the date and "today"
_CLOCK = {("datetime", "now"), ("datetime", "today"), ("date", "today")}


# "today is 10 March 2025", "today's date is ...", "it is now ...", "as of ...", "today (10 March 2025)"
_BEFORE = re.compile(r"(?:\btoday(?:'s\s+date)?\s+is|\bit(?:'s|\s+is)\s+now|\bas\s+of|\btoday\s*[(,:])\s*(?:the\s+)?$",
                     re.I)
# "it's 10 March 2025 today", "10 March 2025 is today"
_AFTER = re.compile(r"^[\s,]*(?:today|now|is\s+today)\b", re.I)


def today_named(request: str) -> tuple[int, int, int] | None:
    """The date the request says today is, with its year; None when it names none or several."""
    from oi_local.core.dates import _FORMS, named_dates

    found = set()
    for m in _FORMS.finditer(request):
        named = named_dates(m.group(0))
        if not named or named[0].year is None:
            continue
        if _BEFORE.search(request[max(0, m.start() - NEAR):m.start()]) or _AFTER.match(request[m.end():m.end() + NEAR]):
            found.add((named[0].year, named[0].month, named[0].day))
    return found.pop() if len(found) == 1 else None


def clock_calls(code: str) -> list[ast.Call]:
    """`datetime.now()`, `datetime.datetime.now()`, `date.today()`, `datetime.date.today()`, ... with no arguments."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and not n.args and not n.keywords and isinstance(n.func, ast.Attribute)):
            continue
        owner = n.func.value
        kind = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        if (kind, n.func.attr) in _CLOCK and n.lineno == n.end_lineno:
            found.append(n)
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or ("now()" not in block.code and "today()" not in block.code):
        return None
    day = today_named(instruction(turn.request))
    calls = clock_calls(block.code) if day else []
    if not day or not calls:
        return None
    y, m, d = day
    edits, changes = [], []
    for call in calls:
        assert isinstance(call.func, ast.Attribute)
        owner = ast.get_source_segment(block.code, call.func.value) or ""
        new = f"{owner}({y}, {m}, {d})"
        edits.append((call.lineno, call.col_offset, call.end_col_offset or 0, new))
        changes.append(f"{ast.get_source_segment(block.code, call)} → {new}")
    block.message["content"] = rewrite(block.code, edits)
    return Verdict(warning=NOTE.format(changes="; ".join(dict.fromkeys(changes)), day=f"{y}-{m:02d}-{d:02d}"))


rule = Rule(
    name="named today", setting="repair_slips", check=check,
    summary="a request that names today's date (\"it's 10 March 2025 today\", \"as of 1 June 2024\") has "
            "`datetime.now()`, `datetime.today()` and `date.today()` in its code made that date "
            "(`datetime(2025, 3, 10)`) before it runs; the person is told")
