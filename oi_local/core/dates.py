"""Dates a request names ("17 march 2025", "Jan 9, 2026", "2025-03-17", "6 January") and the
date literals code writes (`datetime(2025, 3, 17)`, `date(2026, 1, 9)`)."""
from __future__ import annotations

import ast
import re
from datetime import date
from typing import NamedTuple

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?P<{}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_DAY = r"(?P<{}>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<{}>(?:19|20)\d\d))?"
_FORMS = re.compile(
    r"\b(?:" + _DAY.format("d1") + r"\s+(?:of\s+)?" + _MONTH.format("m1") + _YEAR.format("y1") + r"|"
    + _MONTH.format("m2") + r"\s+" + _DAY.format("d2") + _YEAR.format("y2") + r"|"
    r"(?P<y3>(?:19|20)\d\d)-(?P<m3>0?[1-9]|1[0-2])-(?P<d3>[12]\d|3[01]|0?[1-9]))\b", re.I)
_A_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


class Named(NamedTuple):
    year: int | None  # None: the text gave no year ("6 January")
    month: int
    day: int


def _valid(y: int, m: int, d: int) -> bool:
    try:
        date(y, m, d)
    except ValueError:
        return False
    return True


def named_dates(text: str) -> list[Named]:
    """The calendar dates `text` names, in order. A day and month with no year of their own take the
    year that closes the same phrase ("from 6 January to 5 May 2025"); else the year stays unknown."""
    return list(dict.fromkeys(n for n, _ in named_dates_at(text)))


def named_dates_at(text: str) -> list[tuple[Named, int]]:
    """named_dates with where each one ends in `text`."""
    found: list[tuple[Named, int]] = []
    for m in _FORMS.finditer(text):
        g = m.groupdict()
        y: int | None
        if g["y3"]:
            y, mo, d = int(g["y3"]), int(g["m3"]), int(g["d3"])
        else:
            word = g["m1"] or g["m2"]
            mo = _MONTHS.index(word[:3].lower()) + 1
            d = int(g["d1"] or g["d2"])
            year = g["y1"] or g["y2"]
            later = _A_YEAR.search(text, m.end(), m.end() + 40)
            y = int(year) if year else int(later.group()) if later and "." not in text[m.end():later.start()] else None
        if _valid(y or 2000, mo, d):  # 2000: a leap year, so "29 February" with no year stands
            found.append((Named(y, mo, d), m.end()))
    return found


_CALLS = {"date", "datetime"}


class Literal(NamedTuple):
    node: ast.Call  # the call; its first three arguments are int constants
    year: int
    month: int
    day: int
    held_by: str | None = None  # the name it is assigned to (`start = date(...)`)


def date_literals(code: str) -> list[Literal]:
    """`date(y, m, d)` and `datetime(y, m, d, ...)` calls (also `datetime.date(...)`) with the three
    written as numbers."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    held = {id(a.value): a.targets[0].id for a in ast.walk(tree)
            if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)}
    out = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call) or len(n.args) < 3:
            continue
        f = n.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        nums = [a.value for a in n.args[:3] if isinstance(a, ast.Constant) and type(a.value) is int]
        if name in _CALLS and len(nums) == 3:
            out.append(Literal(n, nums[0], nums[1], nums[2], held.get(id(n))))
    return out


def corrected(lit: Literal, named: list[Named]) -> Named | None:
    """The named date a literal was meant to be, when it is none of them: its month and day swapped
    (`date(2026, 9, 1)` for "9 jan 2026"), or, not a date at all, the one named date of its year
    whose day it put in the month's place (`datetime(2025, 17, 1)` for "17 march 2025"), or the first of the
    month and year of exactly one named date (`datetime(2025, 3, 1)` for "3 March 2025")."""
    def same(n: Named, m: int, d: int) -> bool:
        return (n.year in (None, lit.year)) and (n.month, n.day) == (m, d)

    if any(same(n, lit.month, lit.day) for n in named):
        return None
    swapped = [n for n in named if same(n, lit.day, lit.month)]
    if len(swapped) == 1 and lit.day != lit.month:
        return Named(lit.year, swapped[0].month, swapped[0].day)
    if not _valid(lit.year, lit.month, lit.day):
        put = [n for n in named if n.year == lit.year and n.day == lit.month]
        if len(put) == 1:
            return put[0]
    if lit.day == 1:
        # the month's first day for a named day of it: `datetime(2025, 3, 1)` for "from 3 March 2025" (ho42)
        month = [n for n in named if n.year == lit.year and n.month == lit.month]
        if len(month) == 1:
            return month[0]
    return None


def spelled(n: Named) -> str:
    y = n.year if n.year is not None else "YEAR"
    return f"date({y}, {n.month}, {n.day})"
