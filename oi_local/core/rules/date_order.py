"""Date order: the oldest of dated things has the smallest year, the newest the largest. Asked which
book of books.csv was the oldest, the 0.5B model took `max(..., key=<the year>)` (ho32-multi-books).
When the request asks for the oldest or earliest (or the newest, latest, most recent) and the code
takes one max or min (`max(`, `.idxmax()`, `.nlargest(`) keyed on a year or date column (its name
says year, date, born, published, founded, released, built or made), the other way round from the
request, it is turned before it runs; the person is told. Ages are not dates: the oldest person has
the largest age, and a column named age is left alone."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {changes} (the {word} has the {which} {what})."
EARLIEST = re.compile(r"\b(?:oldest|earliest|first\s+(?:published|released|built|made|founded))\b", re.I)
LATEST = re.compile(r"\b(?:newest|latest|most\s+recent(?:ly)?)\b", re.I)
_DATED = r"[\w ]*(?:year|date|born|published|founded|released|built|made|when)[\w ]*"
# max(rows, key=lambda r: r["year"]) / df["year"].idxmax() / df.nlargest(1, "year") / df.sort_values(...) is not taken
_CALLS = [
    (re.compile(rf"""\b(max|min)\((?=[^\n]*\bkey\s*=[^\n]*['"]{_DATED}['"])""", re.I), {"max": "min", "min": "max"}),
    (re.compile(rf"""\[\s*['"]{_DATED}['"]\s*\]\s*\.\s*(idxmax|idxmin|max|min)\(""", re.I),
     {"idxmax": "idxmin", "idxmin": "idxmax", "max": "min", "min": "max"}),
    (re.compile(rf"""\.(nlargest|nsmallest)\(\s*\d+\s*,\s*['"]{_DATED}['"]""", re.I), {"nlargest": "nsmallest", "nsmallest": "nlargest"}),
]
_BIG = {"max", "idxmax", "nlargest"}


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    early, late = EARLIEST.search(turn.request), LATEST.search(turn.request)
    if bool(early) == bool(late):  # neither, or both asked
        return None
    wanted_big = bool(late)
    found = [(m, swap) for pattern, swap in _CALLS for m in pattern.finditer(block.code)]
    if len(found) != 1:
        return None
    m, swap = found[0]
    name = m.group(1)
    if (name.lower() in _BIG) == wanted_big:
        return None
    new_name = swap[name.lower()]
    code = block.code[:m.start(1)] + new_name + block.code[m.end(1):]
    block.message["content"] = code
    said = late or early
    word = said.group(0).lower() if said else ""
    return Verdict(warning=NOTE.format(changes=f"{name} became {new_name}", word=word,
                                       which="largest" if wanted_big else "smallest", what="year or date"))


rule = Rule(
    name="date order", setting="repair_slips", check=check,
    summary="asked for the oldest or earliest (or the newest, latest, most recent), code that takes one max or min "
            "keyed on a year or date column the other way round (`max(..., key=lambda r: r[\"year\"])` for the oldest) "
            "is turned before it runs; an age column is left alone; the person is told")
