"""Named dates: asked about "17 march 2025 to 9 jan 2026", the 0.5B model wrote `datetime(2025, 17, 1)`
(the day in the month's place, the month lost) three times over, and `date(2026, 9, 1)` for 9 January.
A date literal that is none of the request's dates but is one of them with its month and day swapped,
or is no date at all and holds the day of the one named date of its year, is written as that date
before the code runs (the person is told). When code still fails with "month must be in 1..12" or
"day is out of range", the note spells the request's dates in Python's order (year, month, day)."""
from __future__ import annotations

from oi_local.core.dates import corrected, date_literals, named_dates, spelled
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "The dates are written as the request names them (year, month, day): {changes}."
FAILED = ("Note: dates are written year, month, day. The dates in the request are {dates}; use those numbers "
          "in this order.")
_OUT_OF_RANGE = ("month must be in 1..12", "day is out of range for month")


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or ("date" not in block.code):
        return None
    named = named_dates(instruction(turn.request))
    if not named:
        return None
    fixes = [(lit, new) for lit in date_literals(block.code) if (new := corrected(lit, named))]
    if not fixes:
        return None
    lines = block.code.splitlines(keepends=True)
    changes = []
    for lit, new in sorted(fixes, key=lambda f: (f[0].node.lineno, f[0].node.col_offset), reverse=True):
        first, third = lit.node.args[0], lit.node.args[2]
        if first.lineno != third.end_lineno:
            continue
        raw = lines[first.lineno - 1].encode()
        text = f"{lit.year}, {new.month}, {new.day}".encode()
        lines[first.lineno - 1] = (raw[:first.col_offset] + text + raw[third.end_col_offset or 0:]).decode()
        changes.append(f"({lit.year}, {lit.month}, {lit.day}) -> ({lit.year}, {new.month}, {new.day})")
    if not changes:
        return None
    block.message["content"] = "".join(lines)
    return Verdict(warning=NOTE.format(changes="; ".join(reversed(changes))))


def on_failure(turn: Turn, lang: str, code: str, output: str) -> str | None:
    if not any(s in output for s in _OUT_OF_RANGE):
        return None
    named = named_dates(instruction(turn.request))
    return FAILED.format(dates=", ".join(spelled(n) for n in named)) if named else None


rule = Rule(
    name="named dates", setting="repair_slips", check=check, on_failure=on_failure,
    summary="a date literal (`date(y, m, d)`, `datetime(...)`) that is none of the dates the request names but is one "
            "with month and day swapped, or is no date and holds the day of the one named date of its year, is "
            "written as that date before it runs; a \"month must be in 1..12\" failure is told the request's "
            "dates in year, month, day order")
