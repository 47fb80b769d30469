"""Asked column: asked "what's my average resting heart rate in health/resting_hr.csv?" (columns date,
resting_bpm, hrv_ms, sleep_hours, steps), the 0.5B model averaged hrv_ms and answered 54.3 for 58.43.
When the words after "average", "total", "highest"... name exactly one column of the CSV files the
request names, and the code uses no such column but one column that no word of the request names,
that column is swapped for the asked one before the code runs, and the person is told. Only columns
of numbers, and only exact column names in string constants, are swapped; nothing is done when the words fit no column or more
than one (asked for the "average tip" of a file without tips, the honest answer is that there is none)."""
from __future__ import annotations

import ast
import csv
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: the column {old} → {new} (the request asks for the {words}, which is {new})."
SUFFIXES = {".csv", ".tsv"}
MAX_ROWS = 200
# "average resting heart rate in ...", "total weight of the parcels", "the highest score"
_ASKED = re.compile(r"\b(?:average|mean|median|total|sum|highest|lowest|maximum|minimum|max|min|biggest|largest|"
                    r"smallest)\s+((?:[A-Za-z][\w'-]*\s*){1,6})", re.I)
_LEADING = {"of", "the", "my", "our", "your", "a", "an", "all"}
_STOP = _LEADING | {"in", "per", "for", "over", "on", "by", "from", "across", "to", "at", "with", "this", "that",
                    "last", "each", "every", "is", "was", "are", "were", "and", "or", "column", "field", "value",
                    "values", "number", "amount", "so", "far", "when", "where", "which", "who", "do", "does", "did",
                    "i", "we", "you", "it", "has", "have", "had", "be", "been", "there", "than", "between", "how", "much",
                    "many", "what", "whats"}
_NAMES = {"amount", "number", "value"}  # a word that names a column when nothing else follows it


def _tokens(text: str) -> set[str]:
    """Lower-case words of a column name or a phrase, split at _, - and case changes, plural s dropped."""
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", text)
    return {w.lower().removesuffix("s") for w in words if len(w) > 1}


# What a superlative measures: asked which day in March was "the wettest", the 0.5B model took the
# day with the highest temp_c (ho36).
_MEASURES = {"wettest": "rain rainfall precipitation precip", "driest": "rain rainfall precipitation precip",
             "rainiest": "rain rainfall precipitation precip", "hottest": "temp temperature", "coldest": "temp temperature",
             "warmest": "temp temperature", "coolest": "temp temperature", "windiest": "wind", "sunniest": "sun sunshine",
             "heaviest": "weight", "lightest": "weight", "tallest": "height", "shortest": "height length duration",
             "cheapest": "price cost", "priciest": "price cost", "dearest": "price cost",
             # "which of those was the longest?" of books (title, author, pages, finished): the latest date was taken (ho58)
             "longest": "length duration page minute hour"}
_SUPERLATIVE = re.compile(r"\b(" + "|".join(_MEASURES) + r")\b", re.I)


# What a column measured in a unit is named by: asked for the "average ride time" of a file with date, route, km and
# minutes columns, the 0.5B model averaged km (ho58, session 59's start).
_TIME = "minute min mins hour hr hrs second sec secs duration"
_UNITS = {"time": _TIME, "duration": _TIME, "distance": "km kilometre kilometer mile mi metre meter m",
          "weight": "kg kilo kilogram lb lbs pound gram g", "height": "cm metre meter m inch"}


def asked_words(request: str) -> list[str]:
    """The words naming what is to be averaged, summed or compared: ["resting", "heart", "rate"]."""
    found: list[str] = [w for m in _SUPERLATIVE.finditer(request) for w in _MEASURES[m.group(1).lower()].split()]
    for m in _ASKED.finditer(request):
        words = m.group(1).split()
        while words and (words[0].lower() in _LEADING or words[0].lower() in _NAMES and words[1:2] == ["of"]):
            words.pop(0)  # "the total amount of rain": the rain
        if words and words[0].lower() in _NAMES:
            found.append(words[0].lower())  # "the average amount in spend.csv": a column called Amount
            continue
        for w in words:
            if w.lower() in _STOP:
                break
            found.append(w.strip("'").lower())
    return found


def _table(p: Path) -> dict[str, list[str]]:
    """The columns of a CSV file with their first values (up to MAX_ROWS rows)."""
    try:
        with p.open(encoding="utf-8", errors="replace", newline="") as f:
            lines = [line for _, line in zip(range(MAX_ROWS + 1), f)]
    except OSError:
        return {}
    first = lines[0] if lines else ""
    delimiter = "\t" if p.suffix == ".tsv" or first.count("\t") > first.count(",") else ";" \
        if first.count(";") > first.count(",") else ","
    rows = list(csv.reader(lines, delimiter=delimiter))
    if not rows:
        return {}
    header = [c.strip() for c in rows[0]]
    return {c: [r[i].strip() for r in rows[1:] if i < len(r)] for i, c in enumerate(header) if c}


def _numeric(values: list[str], amounts: bool = False) -> bool:
    """A column of numbers (the only kind an average or total is taken of): a date is not one;
    `amounts`: nor is "$12.50" one unless asked for (code that reads it must drop the sign)."""
    from oi_local.core.number_signs import amount

    filled = [v for v in values if v]
    if amounts:
        return bool(filled) and all(amount(v) is not None for v in filled)
    try:
        for v in filled:
            float(v.replace(",", ""))
    except ValueError:
        return False
    return bool(filled)


def asked_column(request: str, cwd: Path, amounts: bool = False, earlier: str = "") -> tuple[str, list[str], str] | None:
    """(the one column the request's asked words name, the named files' numeric columns, the words), or None;
    `amounts`: a column of amounts ("$12.50") is a numeric one; `earlier`: the request before, whose files a follow-up
    that names none is about."""
    found = _asked(request, cwd, amounts, earlier)
    if found is None:
        return None
    column, columns, words = found
    return column, [c for c, number in columns.items() if number], words


def _asked(request: str, cwd: Path, amounts: bool, earlier: str) -> tuple[str, dict[str, bool], str] | None:
    """(the asked column, every column of the named files with whether it holds numbers, the asked words), or None."""
    from oi_local.core.hints import mentioned_paths

    words = asked_words(request)
    if not words:
        return None
    wanted = _tokens(" ".join(words))
    wanted |= {unit for w in wanted for unit in _UNITS.get(w, "").split()}
    columns: dict[str, bool] = {}
    paths = mentioned_paths(request, cwd) or (mentioned_paths(earlier, cwd) if earlier else [])
    for p in paths:
        if p.is_file() and p.suffix.lower() in SUFFIXES:
            columns.update({c: _numeric(v, amounts) for c, v in _table(p).items()})
    fits = [c for c in columns if _tokens(c) & wanted]
    if len(fits) != 1 or not columns[fits[0]]:
        return None
    return fits[0], columns, " ".join(words)


def _used(tree: ast.AST, columns: list[str]) -> list[str]:
    """The columns the code names: as strings (`r["hrv_ms"]`) or attributes (`df.hrv_ms`)."""
    names = set(columns)
    found: list[str] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in names:
            found.append(n.value)
        elif isinstance(n, ast.Attribute) and n.attr in names:
            found.append(n.attr)
    return list(dict.fromkeys(found))


def swapped(code: str, old: str, new: str) -> str:
    """`code` with each string constant equal to `old` replaced by `new` (same quotes)."""
    tree = ast.parse(code)
    return rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or 0, repr(new)) for n in ast.walk(tree)
                          if isinstance(n, ast.Constant) and n.value == old and n.lineno == n.end_lineno])


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    found = _asked(turn.request, Path.cwd(), False, turn.earlier_request)
    if found is None:
        return None
    column, columns, words = found
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    # only columns of numbers are swapped: a date column swapped for "the longest" book's pages was also the one the
    # code kept the year's rows by, and the run printed nan (ho58, a development run)
    used = _used(tree, [c for c, number in columns.items() if number])
    if column in used:
        return None
    said = _tokens(turn.request)
    others = [c for c in used if not _tokens(c) & said]
    if len(others) != 1:
        return None
    block.message["content"] = swapped(block.code, others[0], column)
    return Verdict(warning=NOTE.format(old=others[0], new=column, words=words))


rule = Rule(
    name="asked column", setting="asked_column", check=check,
    summary="asked for the average, total, highest... of something that names exactly one column of the CSV files "
            "the request names (\"average resting heart rate\": resting_bpm; \"the wettest day\": rain_mm; \"average ride time\": the one "
            "column of a time unit, minutes; \"the longest\": a length, pages; a follow-up that names no file is about the "
            "earlier request's), Python code that uses no such column but "
            "one column the request does not name (hrv_ms) has that column swapped for the asked one before it runs, "
            "and the person is told")
