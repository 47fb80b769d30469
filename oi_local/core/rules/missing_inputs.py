"""Missing inputs: asked "What was our profit margin in Q2, according to sales.csv?" of a file with the columns
month, region, units and revenue, the 0.5B model typed two revenue figures from the preview into a sum and
answered -8.33 (ho42); asked how long orders take to be delivered, of a file with no delivery dates, it
averaged the order numbers (ho39). Some amounts need an input that a file either has or does not: a profit
or a margin needs what was spent, a delivery time needs when each order arrived, an age needs a birth date
or an age, who lives nearest needs where each one is. When the request asks for one of these from a CSV file it names, no column of that file can hold
the input, and the request does not give it either, the code is not run and the turn ends saying what the
file lacks, with its columns."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from oi_local.core.rules.base import Rule, StopAndSay
from oi_local.core.rules.turn import instruction

NOTE = "Not run: {file} has no column for {need} (its columns are {columns}); {what} cannot be worked out from it."
SAY = ("{file} does not have what {what} needs: there is no column for {need} (its columns are {columns}), so it cannot "
       "be worked out from this file. With {need} added, I can work it out.")
_ASKS_TO_ADD = re.compile(r"\b(?:add|create|make|insert|append|put)\b[^.?!]{0,40}\bcolumns?\b", re.I)


@dataclass(frozen=True)
class Need:
    asks: re.Pattern[str]  # the request asks for this amount
    what: str  # the amount, in words
    need: str  # the input it needs, in words
    column: re.Pattern[str]  # a column that could hold the input
    given: re.Pattern[str]  # the request gives the input itself ("costs were 4,000")


NEEDS = (
    Need(re.compile(r"\bprofit(?:s|ability)?\b|\bmargins?\b|\bmark-?ups?\b|\bnet\s+(?:income|earnings)\b", re.I),
         "a profit or margin", "costs (what was spent)",
         re.compile(r"cost|expens|spen[dt]|cogs|purchas|wholesale|profit|margin|net|outgo|paid_out|buy", re.I),
         re.compile(r"\b(?:costs?|expenses?|spen[dt]|cogs|outgoings)\b", re.I)),
    Need(re.compile(r"\b(?:takes?|took|taking)\b[^.?!]{0,50}\b(?:deliver\w*|arriv\w*)|\bdeliver(?:y|ies)\s+(?:times?|speed)\b|"
                    r"\bdays?\s+to\s+(?:deliver|arrive)\b|\bhow\s+(?:long|fast|quickly)\b[^.?!]{0,60}\b(?:deliver\w*|arriv\w*)", re.I),
         "a delivery time", "when each order was delivered",
         re.compile(r"deliver|arriv|receiv|days|duration|lead|transit", re.I),
         re.compile(r"\b(?:delivered|arrived)\s+(?:on|in|after)\b", re.I)),
    # "who lives nearest the boathouse?" of a list of names, phones and skills: the 0.5B model called a
    # weather API with a made-up key (ho44)
    Need(re.compile(r"\b(?:lives?|living|based|located|stays?|home)\b[^.?!]{0,40}\b(?:nearest|closest|furthest|farthest)\b|"
                    r"\b(?:nearest|closest|furthest|farthest)\b[^.?!]{0,40}\b(?:lives?|living|based|located|home)\b", re.I),
         "who or what is nearest", "where each one is (an address, a place or a distance)",
         re.compile(r"addr|street|road|post|zip|city|town|village|location|place|area|region|suburb|district|"
                    r"neighbo|lat|lon|lng|coord|dist|km|mile|far|near|geo|home|where|lives|map", re.I),
         re.compile(r"(?!)")),
    Need(re.compile(r"\b(?:average|mean|median|total)\s+age\b|\bhow\s+old\b|\bages?\s+of\b", re.I),
         "an age", "birth dates or ages",
         re.compile(r"age|birth|born|dob|year", re.I),
         re.compile(r"\bborn\b|\bbirth", re.I)),
)


def _header(p: Path) -> list[str]:
    from oi_local.core.rules.asked_column import _table

    return list(_table(p))


def missing(request: str, cwd: Path) -> tuple[str, str, str, str] | None:
    """(file, what, need, columns) when the request asks for an amount whose input the CSV it names lacks."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    if _ASKS_TO_ADD.search(words):
        return None
    need = next((n for n in NEEDS if n.asks.search(words) and not n.given.search(words)), None)
    if need is None:
        return None
    tables = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in (".csv", ".tsv")]
    if len(tables) != 1:
        return None  # none, or several files: the input may be in another one
    columns = _header(tables[0])
    if not columns or any(need.column.search(c) for c in columns):
        return None
    return tables[0].name, need.what, need.need, ", ".join(columns)


def _found(request: str, cwd: Path) -> tuple[str, str] | None:
    got = missing(request, cwd)
    if got is None:
        return None
    file, what, need, columns = got
    return (NOTE.format(file=file, need=need, columns=columns, what=what),
            SAY.format(file=file, what=what, need=need, columns=columns))


hooks = StopAndSay("missing inputs", _found)


rule = Rule(
    name="missing inputs", setting="repair_slips", check=hooks.check, finish=hooks.finish,
    summary="asked for an amount that needs an input (a profit or margin needs costs, a delivery time the delivery "
            "dates, an age birth dates, who is nearest where each one is) from one CSV file that has no column for it, and the request does not give "
            "it: the code is not run and the turn ends saying what the file lacks, with its columns")
