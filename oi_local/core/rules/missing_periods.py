"""Missing periods: asked what was paid for electricity in 2021, of a folder whose files are
electricity_2022.csv, electricity_2023.csv and electricity_2024.csv, the 0.5B model read 2022's file, then a
made-up bills/2021.csv, then listed the files' sizes and answered with them (ho47); asked for March's
total of a file of January and February, it summed one made-up date's rows and answered "0" (ho34).
When a request that asks to change nothing names one year or one month the data it names cannot hold
(a folder whose every file is named by a year, or by a month, none of them the one asked; a CSV or JSON
file whose columns of ISO dates hold none in that year or month: asked how many tickets were closed in 2023,
of a file opened and closed in 2024-25, the model summed the opening dates as text, ho43), the code is not
run and the turn ends saying what is missing and what the data has."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, StopAndSay
from oi_local.core.rules.named_month import (
    MONTHS,
    dated_columns,
    missing_month_file,
    named_month,
    named_year,
    one_folder,
)
from oi_local.core.rules.turn import instruction

NOTE = "Not run: {gap}"
SAY = "{gap} So there is nothing for {when} to work out, and I have not guessed a figure."
_YEAR = re.compile(r"(?<![\w-])((?:19|20)\d\d)(?![\w-])")
# A part of a year: "Q4 2023", "the first half of 2023", "H2 2024" (asked for Q4 2023 of a file of 2024's
# first half, the 0.5B model filtered a region named "Sales" and printed nothing, twice: ho50)
_PART = re.compile(r"\b(q[1-4]|h[12]|(?:first|second|third|fourth|last)\s+(?:quarter|half))(?:\s+of)?\s+((?:19|20)\d\d)\b", re.I)
_PARTS = {"q1": (1, 3), "q2": (4, 6), "q3": (7, 9), "q4": (10, 12), "h1": (1, 6), "h2": (7, 12), "first quarter": (1, 3),
          "second quarter": (4, 6), "third quarter": (7, 9), "fourth quarter": (10, 12), "last quarter": (10, 12),
          "first half": (1, 6), "second half": (7, 12), "last half": (7, 12)}


def part_of_year(request: str) -> tuple[str, str, tuple[int, int]] | None:
    """(the words, the year, its first and last month) of the one part of a year the request names ("Q4 2023"),
    when it names no other year."""
    said = {(" ".join(m.group(1).lower().split()), m.group(2)) for m in _PART.finditer(request)}
    if len(said) != 1 or {y for _, y in said} != set(re.findall(r"\b(?:19|20)\d\d\b", request)):
        return None
    part, year = said.pop()
    return f"{part.upper() if len(part) == 2 else 'the ' + part + ' of'} {year}", year, _PARTS[part]


def missing_year_file(request: str, cwd: Path) -> str | None:
    """A sentence saying the folder the request names has no file for the year it names, when every file
    there is named by one year (electricity_2022.csv, 2023-bills.pdf)."""
    year, folder = named_year(request), one_folder(request, cwd)
    if year is None or folder is None:
        return None
    files = sorted(f.name for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    years = [set(_YEAR.findall(re.sub(r"[_.]", " ", f))) for f in files]
    if len(files) < 2 or any(len(y) != 1 for y in years) or any(year in y for y in years):
        return None
    return f"{folder.name}/ has no file for {year} (its files are {', '.join(files)})."


def missing_dates(request: str, cwd: Path) -> str | None:
    """A sentence saying the named file has no dates in the one year, or the one month, the request names: no
    column of ISO dates holds one ("how many tickets did we close in 2023?" of a file opened and closed in 2024-25)."""
    month, year, part = named_month(request), named_year(request), part_of_year(request)
    found = dated_columns(request, cwd) if month or year or part else None
    if found is None:
        return None
    name, columns = found
    dates = sorted({d.strip()[:10] for _, values in columns for d in values if d.strip()})
    if part is not None and month is None:
        when, (first, last) = part[0], part[2]
        hit = [d for d in dates if d[:4] == part[1] and first <= int(d[5:7]) <= last]
    elif month is not None:
        period = f"-{month[0]:02d}-"
        when = MONTHS[month[0] - 1].title() + (f" {month[1]}" if month[1] else "")
        hit = [d for d in dates if d[4:8] == period and (month[1] is None or d[:4] == month[1])]
    else:
        when, hit = str(year), [d for d in dates if d[:4] == year]
    if not dates or hit:
        return None
    return f"{name} has no rows dated in {when} (its dates run from {dates[0]} to {dates[-1]})."


def gap(request: str, cwd: Path) -> tuple[str, str] | None:
    """(sentence, the period in words) when the data the request names lacks the period it asks about."""
    from oi_local.core.writes import asks_change

    words = instruction(request)
    if asks_change(words):  # "add my 2021 bill to bills/": the period is to be made, not read
        return None
    month, year, part = named_month(words), named_year(words), part_of_year(words)
    found = (missing_month_file(words, cwd) if month else missing_year_file(words, cwd)) or missing_dates(words, cwd)
    if not found:
        return None
    return found, (MONTHS[month[0] - 1].title() + (f" {month[1]}" if month[1] else "")) if month else part[0] \
        if part else str(year)


def _found(request: str, cwd: Path) -> tuple[str, str] | None:
    got = gap(request, cwd)
    return (NOTE.format(gap=got[0]), SAY.format(gap=got[0], when=got[1])) if got else None


hooks = StopAndSay("missing periods", _found)


rule = Rule(
    name="missing periods", setting="repair_slips", check=hooks.check, finish=hooks.finish,
    summary="a request that changes nothing names one year, part of a year (\"Q4 2023\") or month the data it names cannot hold (a folder of files "
            "each named by another year or month, a file whose dates are all in other ones): the code is not run and "
            "the turn ends saying what is missing and what the data has")
