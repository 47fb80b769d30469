"""Unused numbers: code for a calculation the request spells out ("the bill is 186.40, add a 15% tip
and split it between 4 people") that leaves out one of the request's numbers answers another
question. The 0.5B model dropped the 4 people, and set `petrol_per_100_km = 6.4` (or `tip = 186.40 * 0.15`) and
never used it, and printed the result of what was left. Such code is not run; the request is asked afresh (up to twice, sampled, the try hidden),
with the numbers it must use named. Only for requests that name no file (the numbers are the data)
and code that uses some of them as typed-in numbers (it is working from them)."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction

NOTE = "(Write one ```python block that does what I asked, using every number I gave: {numbers}.)"
SHOWN = "Not run: the code leaves out {missing} from the request; asked afresh."
# A number in the person's words: "186.40", "15%", "1,200", not part of a name ("v2", "file3.txt"),
# a date or a time ("2025-06-05", "10:30"), nor a year (2024).
_NUMBER = re.compile(r"(?<![\w.,/:-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(%| ?percent\b)?(?![\w/:-]|\.\d|,\d{3})", re.I)
# A precision, not data: "2 decimal places pls", "to 3 dp", "rounded to 2" (leaving the 2 out of the
# mean of eight swim times, the code was refused, and the retry averaged the 2 in: 36.44 for 40.74).
_PRECISION = re.compile(r"\s*(?:decimal|dp\b|d\.p\.|places\b|digits\b|sig\w*\b|significant\b)", re.I)
_ROUND_TO = re.compile(r"\bround\w*\s+(?:it\s+|that\s+|them\s+)?(?:off\s+)?to\s+$", re.I)
# Asked afresh up to twice, each time with another seed: the retry for a fuel cost "for a 575 km trip" at
# "6.4 litres per 100 km" used the 6.4 and left out the 575 (1209.6 printed; the speed set on the dateless prompt).
TRIES = 2
_FILE = re.compile(r"\b[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}\b|/")


def request_numbers(request: str) -> list[tuple[str, float, bool]]:
    """(as written, value, a percentage) for each number of a request, in order."""
    found = []
    for m in _NUMBER.finditer(request):
        whole, frac, pct = m.group(1), m.group(2) or "", m.group(3)
        value = float(whole.replace(",", "") + frac)
        if not frac and not pct and 1900 <= value <= 2100:
            continue  # a year
        if not frac and not pct and (_PRECISION.match(request, m.end()) or _ROUND_TO.search(request[:m.start()])):
            continue
        found.append((m.group(0).strip(), value, bool(pct)))
    return found


# A conversion ("350°F for 12 minutes, what's that in Celsius?") needs only the numbers in the asked unit's
# kind: the code converting 350 was refused for leaving out the 12 minutes (ho48, read after that set's end).
_KINDS = {
    "temperature": r"°\s?[cfk]?|degrees?|deg|[cf]|celsius|centigrade|fahrenheit|kelvin",
    "mass": r"g|grams?|kg|kilos?|kilograms?|lbs?|pounds?|oz|ounces?|stones?|st",
    "length": r"mm|cm|m|metres?|meters?|km|kilomet(?:re|er)s?|mi|miles?|ft|feet|foot|inch(?:es)?|in|yards?|yd",
    "volume": r"ml|millilit(?:re|er)s?|l|lit(?:re|er)s?|cups?|tbsp|tablespoons?|tsp|teaspoons?|gallons?|gal|pints?|fl ?oz",
    "speed": r"mph|km/?h|kph|knots?",
    "time": r"s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?",
}
_TARGET = re.compile(r"\b(?:in|into|to|as)\s+(?:degrees\s+)?(?P<unit>[°a-z/ ]{1,14}?)\s*(?:[?.!,]|$|please|pls|instead)", re.I)


def _kind(unit: str) -> str | None:
    unit = unit.strip().lower()
    return next((k for k, units in _KINDS.items() if re.fullmatch(units, unit)), None)


def _converted(request: str, asked: list[tuple[str, float, bool]]) -> list[tuple[str, float, bool]]:
    """The numbers a unit conversion needs: those written in a unit of the asked unit's kind. All of
    them when the request asks for no conversion or none of its numbers has such a unit."""
    targets = {_kind(m.group("unit")) for m in _TARGET.finditer(request)} - {None}
    if len(targets) != 1:
        return asked
    kind = targets.pop()
    units = _KINDS[str(kind)]
    kept = [a for a in asked if re.search(rf"(?<![\w.,]){re.escape(a[0])}\s?(?:{units})(?![a-z])", request, re.I)]
    return kept or asked


def _code_numbers(code: str) -> list[float] | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    # `petrol_per_100_km = 6.4` and the name never read again: the 6.4 is not used; nor the 0.15 of
    # `tip = 186.40 * 0.15` with `tip` never read (the bill split by 4 without its tip: ho3-compute-tip-split)
    idle = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assign) and len(a.targets) == 1
            and isinstance(a.targets[0], ast.Name) and a.targets[0].id not in loaded for n in ast.walk(a.value)}
    return [float(n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, (int, float)) and not isinstance(n.value, bool) and id(n) not in idle]


def _used(value: float, pct: bool, numbers: list[float]) -> bool:
    close = [value] + ([value / 100, 1 + value / 100, 1 - value / 100] if pct else [])
    if value == int(value):
        close += [value + 1, value - 1]  # range(1, 101) for "1 to 100"
    return any(abs(n - c) < 1e-9 for n in numbers for c in close)


def missing(request: str, code: str) -> list[str]:
    """The request's numbers the code does not use, when it uses some of them; else []."""
    if _FILE.search(request):
        return []
    asked = _converted(request, request_numbers(request))
    numbers = _code_numbers(code)
    if len(asked) < 2 or not numbers:
        return []
    gone = [text for text, value, pct in asked if not _used(value, pct, numbers)]
    return gone if len(gone) < len(asked) else []


def _own_words(request: str) -> str:
    """The person's words of a request: a pasted log's numbers are data, not a calculation asked for
    (asked about a pasted boiler log, the first code was refused for leaving out 63 of its readings)."""
    return instruction(request)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["unused numbers"] >= TRIES or turn.runs:
        return None
    request = _own_words(turn.request)
    gone = missing(request, block.code)
    if not gone:
        return None
    turn.counts["unused numbers"] += 1
    every = ", ".join(text for text, _, _ in request_numbers(request))
    return Verdict(note=SHOWN.format(missing=", ".join(gone)),
                   ask=Ask(NOTE.format(numbers=every), code_retry(turn.engine, 10 + turn.counts["unused numbers"]), hide=True))


rule = Rule(
    name="unused numbers", setting="check_answers", check=check,
    summary="the first code for a calculation the request spells out (no file named) that uses some of the request's "
            "numbers but leaves one out (a bill split \"between 4 people\" never divided by 4) is not run; the request "
            "is asked afresh (up to twice, sampled), with its numbers named")
