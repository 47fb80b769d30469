"""Distinct count: "How many different people actually signed up for the newsletter? signups.csv has doubles
in it: some folks signed up twice, sometimes with capital letters or a stray space in their email." The
0.5B model counted the addresses that came twice and answered "4 repeated" (ho41). When a request asks how
many different (unique, distinct) things, or how many without the doubles, one CSV file it names has one
column those words (or "email", "people", "name") point to, and the last run failed or printed no number
equal to that column's count of distinct values (spaces around and letter case aside), the loop offers its
own code that counts them, once a turn. A count that keeps case is taken too, unless the request says
case or spaces do not count."""
from __future__ import annotations

import csv
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not print how many different values {column} of {file} has, spaces and capitals aside."
HOW = "This block prints it; reply with it, then answer with the number it prints."
MAX_ROWS = 100_000
_ASKED = re.compile(r"\bhow\s+many\s+(?:\w+\s+){0,2}?(?:different|unique|distinct|individual|separate)\s+([\w\s]{0,30})|"
                    r"\bhow\s+many\b([^?.!]{0,60})\b(?:without|not\s+counting|excluding|minus|ignoring)\s+(?:the\s+)?"
                    r"(?:duplicates|dupes|doubles|repeats)|"
                    r"\bhow\s+many\s+(people|persons|customers|users|emails|addresses|names)\b[^?.!]*\b(?:actually|really)\b", re.I)
_LOOSE = re.compile(r"\b(?:capital|case|upper|lower|spaces?|whitespace|typos?)\b", re.I)
# what a person is counted by
_PEOPLE = {"people", "person", "persons", "folks", "users", "customers", "members", "subscribers", "signups", "sign"}


def asked(request: str, cwd: Path) -> tuple[str, str, bool] | None:
    """(file, column, whether case and spaces were said not to count) for such a request, or None."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _table, _tokens

    words = instruction(request)
    m = _ASKED.search(words)
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() == ".csv"]
    if m is None or len(files) != 1:
        return None
    table = _table(files[0])
    said = _tokens(next((g for g in m.groups() if g), ""))
    fits = [c for c in table if _tokens(c) & said]
    if said & _PEOPLE or "email" in words.lower():  # a person is counted by their address, else their name
        fits = [c for c in table if "email" in c.lower()] or [c for c in table if "name" in c.lower()] or fits
    if len(fits) != 1:
        return None
    base = cwd.resolve()
    file = str(files[0].relative_to(base)) if files[0].is_relative_to(base) else str(files[0])
    return file, fits[0], bool(_LOOSE.search(words)) or "email" in fits[0].lower()


def counts(file: str, column: str) -> tuple[int, int]:
    """(distinct values as written, distinct values spaces and case aside), blanks left out."""
    with open(file, newline="", encoding="utf-8", errors="replace") as f:
        values = [(r.get(column) or "") for _, r in zip(range(MAX_ROWS), csv.DictReader(f))]
    return len({v for v in values if v.strip()}), len({v.strip().casefold() for v in values if v.strip()})


def ready_code(file: str, column: str) -> str:
    return (f"import csv\nwith open({file!r}, newline='', encoding='utf-8', errors='replace') as f:\n"
            f"    values = [(r[{column!r}] or '').strip() for r in csv.DictReader(f)]\n"
            f"distinct = {{v.casefold() for v in values if v}}  # spaces around and capitals do not make another one\n"
            f"print(len(distinct), 'different', {column!r}, 'values', f'({{len([v for v in values if v])}} rows)')")


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["distinct count"]:
        return None
    try:
        found = asked(turn.request, Path.cwd())
        exact, loose = counts(found[0], found[1]) if found else (0, 0)
    except (OSError, csv.Error):
        return None
    if found is None or not loose:
        return None
    printed = {int(n) for n in re.findall(r"(?<![\w.])\d+(?![\w]|\.\d)", last.output[:5000])}
    if not last.failed and (loose in printed or (exact in printed and not found[2])):
        return None
    turn.counts["distinct count"] += 1
    return own_code(turn.engine, NOTE.format(column=found[1], file=found[0]), ready_code(found[0], found[1]), HOW)


rule = Rule(
    name="distinct count", setting="check_answers", after_run=after_run,
    summary="asked how many different (unique, distinct) things, or how many without the doubles, of one column of a "
            "named CSV: a run that failed or printed no such count (spaces and capitals aside) gets the loop's own code "
            "that counts them (once a turn)")
