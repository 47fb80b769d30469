"""Named month: "how much did I spend on groceries in March? everything's in expenses.csv" asks about
the rows of one month, and a file of ISO dates (2024-03-14) has them as the rows whose date starts with
"2024-03". The 0.5B model's code often picked the other value the request names and not the month,
adding up every month's rows (in `ho31` the code that ran never looked at a date). Where the request
names one month (with its year, or of a year the file's dates have that month in only once), the named
CSV or JSON file has one column of ISO dates, and the code uses no month (no month name or number, no
`.month`, no `strftime`, no date slice), the rows are narrowed to that month right after the plain
statement or loop that loads them (as for named values, core/rules/named_values.py), and the code runs.
Not for a request that compares, takes a share or asks per month. One year named with no month ("how many
minutes did I listen in 2024?") narrows the rows to that year the same way, when the file has several."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.named_values import (
    _PATHISH,
    OTHER_ROWS,
    _data_strings,
    narrowed,
    records,
    records_key,
    top_list,
)
from oi_local.core.rules.turn import Block, Turn, rewrite

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
# "may" is also a verb: only "in May" or "May 2024" count as the month
_MONTH = re.compile(r"\b(?:(january|february|march|april|june|july|august|september|october|november|december)"
                    r"|(?<=\bin )(may)|(may)(?= \d{4}))\b(?:,? (\d{4}))?", re.I)
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+)?")
_MONTH_IN_CODE = re.compile(r"\.month\b|strftime|strptime|\[\s*5\s*:\s*7\s*\]|\[\s*:\s*7\s*\]|to_period|dt\.", re.I)
CHANGED = "Changed before it ran: the rows are narrowed to {column} in {month} first, as the request asks (the code used every month)."


def named_month(request: str) -> tuple[int, str | None] | None:
    """The one month the request names (1-12) and its year if given; None for none or several."""
    said = _PATHISH.sub(" ", request)
    found = {(MONTHS.index((m.group(1) or m.group(2) or m.group(3)).lower()) + 1, m.group(4)) for m in _MONTH.finditer(said)}
    return next(iter(found)) if len(found) == 1 else None


def date_column(request: str, cwd: Path, code: str = "") -> tuple[str, str, list[str]] | None:
    """(file name, column, its values) of the one column of ISO dates in the one CSV/JSON file the request names
    (a follow-up that names none, "and how much of that was in February?": the one the code reads)."""
    found = dated_columns(request, cwd, code)
    return (found[0], found[1][0][0], found[1][0][1]) if found and len(found[1]) == 1 else None


def dated_columns(request: str, cwd: Path, code: str = "") -> tuple[str, list[tuple[str, list[str]]]] | None:
    """(file name, [(column, its values)]) of the columns of ISO dates in the one CSV/JSON file the request names."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _table

    def data(text: str) -> list[Path]:
        return [p for p in mentioned_paths(text, cwd) if p.is_file() and p.suffix.lower() in (".csv", ".tsv", ".json")]

    files = data(request) or (data(code) if code and not mentioned_paths(request, cwd) else [])
    if len(files) != 1:
        return None
    p = files[0]
    table = records(p) if p.suffix.lower() == ".json" else _table(p)
    dated = [(c, v) for c, v in table.items() if v and all(_ISO.fullmatch(x.strip()) for x in v if x.strip())]
    return (p.name, dated) if dated else None


def missing_month(request: str, cwd: Path) -> str | None:
    """A sentence saying the named file has no rows in the one month the request names, or None. Asked
    for March 2024's total of a file of January and February, the 0.5B model summed one made-up date's
    rows and answered "0" (ho34): a total of nothing is not an answer."""
    asked = named_month(request)
    found = date_column(request, cwd) if asked else None
    if asked is None or found is None:
        return None
    name, _, dates = found
    month, year = asked
    dates = sorted(d.strip()[:10] for d in dates if d.strip())
    if not dates or any(d[5:7] == f"{month:02d}" and (year is None or d[:4] == year) for d in dates):
        return None
    when = MONTHS[month - 1].title() + (f" {year}" if year else "")
    return f"{name} has no rows dated in {when} (its dates run from {dates[0]} to {dates[-1]})."


def _file_month(name: str) -> int | None:
    """The month a file's name gives: "feb.csv", "march_receipts.json", "2024-03.csv"; or None."""
    stem = name.rsplit(".", 1)[0].lower()
    for word in re.findall(r"[a-z]+", stem):
        for i, month in enumerate(MONTHS):
            if word == month or (len(word) >= 3 and month.startswith(word)):
                return i + 1
    m = re.search(r"(?<!\d)\d{4}[-_](\d{2})(?!\d)", stem)
    return int(m.group(1)) if m and 1 <= int(m.group(1)) <= 12 else None


def missing_month_file(request: str, cwd: Path) -> str | None:
    """A sentence saying the folder the request names has no file for the month it names, when every
    file there is named by a month (jan.csv, feb.csv). Asked to add up the March receipts in a folder
    of January's and February's, the 0.5B model added up February's and answered with it (ho37)."""
    asked, folder = named_month(request), one_folder(request, cwd)
    if asked is None or folder is None:
        return None
    files = sorted(f.name for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    months = [_file_month(f) for f in files]
    if len(files) < 2 or None in months or asked[0] in months:
        return None
    when = MONTHS[asked[0] - 1].title()
    return f"{folder.name}/ has no file for {when} (its files are {', '.join(files)})."


def one_folder(request: str, cwd: Path) -> Path | None:
    """The one folder below `cwd` the request names, or None (none, or several)."""
    from oi_local.core.hints import mentioned_paths

    folders = [p for p in mentioned_paths(request, cwd) if p.is_dir() and p.resolve() != cwd.resolve()]
    return folders[0] if len(folders) == 1 else None


def uses_month(code: str, month: int) -> bool:
    """The code picks rows by a month somehow: a month's name, its number in a date string, `.month`,
    strftime/strptime, a date slice ([5:7], [:7]) or pandas' date accessors."""
    if _MONTH_IN_CODE.search(code):
        return True
    text = "\n".join(_data_strings(code)).lower()
    name = MONTHS[month - 1]
    return name in text or name[:3] in text or f"-{month:02d}" in text or f"/{month:02d}" in text


FIRST_DAY = "Changed before it ran: {changes} (the request asks for the whole month, not its first day)."


def whole_month(code: str, column: str, month: int, request: str = "") -> tuple[str, list[str]]:
    """`code` with the date column compared to one day of the month the request does not name
    (`df["date"] == "2024-03-01"`, asked about March 2024: the 0.5B model averaged that one day's rain,
    ho36; `b["expires"] == "2024-07-20"`, the first record's date, asked who runs out in July 2024, ho38)
    made a test of the month."""
    said = _PATHISH.sub(" ", request)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    rows = {n.target.id for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.target, ast.Name)}
    edits, changes = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], ast.Eq) and n.lineno == n.end_lineno):
            continue
        left, right = n.left, n.comparators[0]
        if not (isinstance(left, ast.Subscript) and isinstance(left.slice, ast.Constant) and left.slice.value == column
                and isinstance(right, ast.Constant) and isinstance(right.value, str)
                and re.fullmatch(rf"\d{{4}}-{month:02d}-\d\d", right.value)):
            continue
        day = int(right.value[8:])
        if right.value in request or re.search(rf"\b0?{day}(?:st|nd|rd|th)?\b", said) \
                or day == 1 and re.search(r"\bfirst\b", said):
            continue  # that day is asked for
        owner = left.value
        text = ast.get_source_segment(code, left) or ""
        accessor = "" if isinstance(owner, ast.Name) and owner.id in rows else ".str"
        new = f"{text}{accessor}.startswith({right.value[:7]!r})"
        edits.append((n.lineno, n.col_offset, n.end_col_offset or n.col_offset, new))
        changes.append(f"{ast.unparse(n)} → {new}")
    return (rewrite(code, edits) if edits else code), changes


# "in 2024", "during 2023", "for 2025": one year asked about (not "since 2024" or "before 2023")
_YEAR_ASKED = re.compile(r"\b(?:in|during|for|of|over|throughout)\s+(?:the\s+(?:whole\s+)?year\s+(?:of\s+)?)?((?:19|20)\d\d)\b", re.I)
_YEAR_IN_CODE = re.compile(r"\.year\b|strftime|strptime|\[\s*:\s*4\s*\]|to_period|dt\.", re.I)
CHANGED_YEAR = "Changed before it ran: the rows are narrowed to {column} in {year} first, as the request asks (the code used every year)."


def named_year(request: str) -> str | None:
    """The one year the request asks about ("how many minutes in 2024"), when it names no other year."""
    said = _PATHISH.sub(" ", request)
    asked = {m.group(1) for m in _YEAR_ASKED.finditer(said)}
    return asked.pop() if len(asked) == 1 and set(re.findall(r"\b(?:19|20)\d\d\b", said)) == asked else None


def _year_check(turn: Turn, block: Block) -> Verdict | None:
    """A year named and no month: asked how many minutes of one show they listened to in 2024, the 0.5B
    model added up every year's episodes (ho38). The rows are narrowed to the year, as for a month."""
    year = named_year(turn.request)
    found = date_column(turn.request, Path.cwd(), block.code) if year else None
    if year is None or found is None or Path(found[0]).stem not in block.code:
        return None
    name, column, dates = found
    if _YEAR_IN_CODE.search(block.code) or year in "\n".join(_data_strings(block.code)):
        return None
    if len({d.strip()[:4] for d in dates if d.strip()}) < 2 or year not in {d.strip()[:4] for d in dates}:
        return None  # every row is of that year already, or none is: nothing to narrow
    code = narrowed(block.code, [(name, column, year)], top_list(turn.request, name), starts=True,
                    under=records_key(turn.request, name))
    if code is None:
        return None
    turn.counts["named month"] += 1
    block.message["content"] = code
    return Verdict(warning=CHANGED_YEAR.format(column=column, year=year))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["named month"] >= 1:
        return None
    asked = named_month(turn.request)
    if OTHER_ROWS.search(_PATHISH.sub(" ", turn.request)):
        return None
    if asked is None:
        return _year_check(turn, block)
    found = date_column(turn.request, Path.cwd(), block.code)
    if found is not None:
        whole, changes = whole_month(block.code, found[1], asked[0], turn.request)
        if changes:
            block.message["content"] = whole
            return Verdict(warning=FIRST_DAY.format(changes="; ".join(changes)))
    if found is None or Path(found[0]).stem not in block.code or uses_month(block.code, asked[0]):
        return None
    name, column, dates = found
    month, year = asked
    years = {d[:4] for d in dates if d[5:7] == f"{month:02d}"}
    if year is None and len(years) == 1:
        year = years.pop()
    if year is None or year not in {d[:4] for d in dates}:
        return None  # the month in several years, or in none of the file's: not ours to pick
    code = narrowed(block.code, [(name, column, f"{year}-{month:02d}")], top_list(turn.request, name), starts=True,
                    under=records_key(turn.request, name))
    if code is None:
        return None
    turn.counts["named month"] += 1
    block.message["content"] = code
    return Verdict(warning=CHANGED.format(column=column, month=f"{MONTHS[month - 1].title()} {year}"))


rule = Rule(
    name="named month", setting="check_answers", check=check,
    summary="code that reads a named CSV or JSON file of ISO dates for a request that names one month (\"what did I "
            "spend on groceries in March?\") and uses no month (no name, number, `.month` or date slice) has its rows "
            "narrowed to that month right after the plain statement or loop that loads them, unless the request "
            "compares, takes a share or asks per month; a test for one day of the month that the request does not name "
            "(`df[\"date\"] == \"2024-03-01\"`) is made a test of the month; so is one year named with no month "
            "(\"in 2024\") for a file of several years, for code that uses no year; a request that names no file (a "
            "follow-up: \"and how much of that was in February?\") narrows the one data file the code reads")
