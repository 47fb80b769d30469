"""Named dates: asked about "17 march 2025 to 9 jan 2026", the 0.5B model wrote `datetime(2025, 17, 1)`
(the day in the month's place, the month lost) three times over, and `date(2026, 9, 1)` for 9 January.
A date literal that is none of the request's dates but is one of them with its month and day swapped,
or is no date at all and holds the day of the one named date of its year, is written as that date
before the code runs (the person is told). When code still fails with "month must be in 1..12" or
"day is out of range", the note spells the request's dates in Python's order (year, month, day).
Asked "how many days until 19 July 2026? and what day of the week will that be", the 0.5B model printed
the weekday of the first date (the one counted from) in all five runs; asked the weekday after the
last date it names, code that prints the first date's weekday prints the last one's.
Asked "how many days are there from 14 march 2025 to 2 november 2025?", the 0.5B model wrote
`date(2025, 3, 14) - date(2025, 1, 1)` (ho40): counted from the year's start. In a subtraction of two
date literals where one is a named date and the other none, and the request names exactly two dates,
the subtraction becomes the later named date less the earlier."""
from __future__ import annotations

import ast
import re

from oi_local.core.dates import (
    Named,
    corrected,
    date_literals,
    named_dates,
    named_dates_at,
    spelled,
)
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed to fit the dates the request names: {changes}."
FAILED = ("Note: dates are written year, month, day. The dates in the request are {dates}; use those numbers "
          "in this order.")
_OUT_OF_RANGE = ("month must be in 1..12", "day is out of range for month")
_WEEKDAY_ASKED = re.compile(r"\b(?:day of the week|weekday|what day)\b", re.I)
_START_ASKED = re.compile(r"\b(?:first|start|starting|from)\b", re.I)


def _weekday_of_last(text: str) -> tuple[Named, Named] | None:
    """(first, last) named dates when the weekday is asked after the last one, not of the first."""
    at = named_dates_at(text)
    if len({n for n, _ in at}) < 2:
        return None
    first, last = at[0][0], at[-1][0]
    # "... what day of the week is 19 November 2025?": asked just before the last date is said again
    for phrase in _WEEKDAY_ASKED.finditer(text):
        said = [n for n, end in at if phrase.end() < end <= phrase.end() + 40]
        if said and said[0] == last and last != first:
            return first, last
    after = text[at[-1][1]:]
    asked = _WEEKDAY_ASKED.search(after)
    if not asked or _START_ASKED.search(after[asked.start():]):
        return None
    return first, last


def _is(named: Named, lit: tuple[int, int, int]) -> bool:
    return named.year in (None, lit[0]) and (named.month, named.day) == lit[1:]


def weekday_target(code: str, first: Named, last: Named) -> list[tuple[ast.Name, str]]:
    """Names in `x.strftime("%A")` / `x.weekday()` / `x.isoweekday()` that hold the first named date,
    with the name that holds the last one."""
    held = {lit.held_by: (lit.year, lit.month, lit.day) for lit in date_literals(code) if lit.held_by}
    firsts = {n for n, v in held.items() if _is(first, v)}
    lasts = [n for n, v in held.items() if _is(last, v)]
    if not firsts or len(lasts) != 1:
        return []
    spots = []
    for n in ast.walk(ast.parse(code)):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.value.id in firsts:
            day_format = any(isinstance(a, ast.Constant) and isinstance(a.value, str) and "%A" in a.value for a in n.args)
            if n.func.attr in ("weekday", "isoweekday") or (n.func.attr == "strftime" and day_format):
                spots.append((n.func.value, lasts[0]))
    return spots


def span_fixes(code: str, named: list[Named]) -> list[tuple[ast.BinOp, str]]:
    """`date(..) - date(..)` of a named date and one that is none, with the subtraction meant: the later of
    exactly two named dates (with years) less the earlier, written with the code's own call."""
    if len(named) != 2 or any(n.year is None for n in named):
        return []
    lits = {(lit.node.lineno, lit.node.col_offset): lit for lit in date_literals(code)}
    early, late = sorted(named, key=lambda x: (x.year or 0, x.month, x.day))
    out = []
    for n in ast.walk(ast.parse(code)):
        if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) and n.lineno == n.end_lineno):
            continue
        a, b = lits.get((n.left.lineno, n.left.col_offset)), lits.get((n.right.lineno, n.right.col_offset))
        if a is None or b is None:
            continue
        named_a = any(_is(x, (a.year, a.month, a.day)) for x in named)
        named_b = any(_is(x, (b.year, b.month, b.day)) for x in named)
        if named_a != named_b:
            call = ast.get_source_segment(code, a.node.func) or "date"
            out.append((n, f"{call}({late.year}, {late.month}, {late.day}) - {call}({early.year}, {early.month}, {early.day})"))
    return out


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or ("date" not in block.code):
        return None
    words = instruction(turn.request)
    named = named_dates(words)
    if not named:
        return None
    fixes = [(lit, new) for lit in date_literals(block.code) if (new := corrected(lit, named))]
    edits: list[tuple[int, int, int, str]] = []
    changes = []
    for lit, new in sorted(fixes, key=lambda f: (f[0].node.lineno, f[0].node.col_offset)):
        first, third = lit.node.args[0], lit.node.args[2]
        if first.lineno == third.end_lineno:
            edits.append((first.lineno, first.col_offset, third.end_col_offset or 0, f"{lit.year}, {new.month}, {new.day}"))
            changes.append(f"({lit.year}, {lit.month}, {lit.day}) -> ({lit.year}, {new.month}, {new.day})")
    code = rewrite(block.code, edits)
    # the weekday asked of the last date, on the dates as corrected (`datetime(2025, 3, 1)` made 3 March first)
    pair = _weekday_of_last(words)
    weekday = weekday_target(code, *pair) if pair else []
    for name, last in weekday:
        changes.append(f"the weekday is of {last} (the last date named), not {name.id}")
    code = rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or 0, last) for n, last in weekday])
    spans = [] if weekday else span_fixes(code, named)  # on the dates as corrected ("date(2025, 14, 3)")
    for node, span in spans:
        changes.append(f"{ast.get_source_segment(code, node)} -> {span} (the span between the two dates named)")
    code = rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or 0, span) for n, span in spans])
    if not changes:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


def on_failure(turn: Turn, lang: str, code: str, output: str) -> str | None:
    if not any(s in output for s in _OUT_OF_RANGE):
        return None
    named = named_dates(instruction(turn.request))
    return FAILED.format(dates=", ".join(spelled(n) for n in named)) if named else None


rule = Rule(
    name="named dates", setting="repair_slips", check=check, on_failure=on_failure,
    summary="a date literal (`date(y, m, d)`, `datetime(...)`) that is none of the dates the request names but is one "
            "with month and day swapped, or is no date and holds the day of the one named date of its year, or is the "
            "first of the one named date's month, is written as that date before it runs; a \"month must be in 1..12\" failure is told the request's "
            "dates in year, month, day order; asked the weekday after (or of) the last of two or more named dates, code that "
            "prints the first one's weekday prints the last one's; in a subtraction of two date literals, one named and one not, "
            "when the request names exactly two dates, the subtraction becomes the later named date less the earlier")
