"""Per group: asked who or which <thing> has the most (or least) of something in a CSV where each
name is on several rows, the 0.5B model took the largest single row (`df["hours"].max()`: one
6.5-hour shift, not the volunteer with the most hours in all). When the request asks "who" or
"which <column>" with most/least/top, the named CSV repeats values in that column, and the code takes
a largest or smallest value without adding up per group (no groupby, Counter, dict of totals), the
code is not run and the request is asked afresh once (the try hidden, sampled), saying to add up (or
count) per group first (told so after its try, the model answered in words: "The largest number of
hours is 4.").
A month, year or day of a column of ISO dates is such a group too: asked which month brought in the
most money, the 0.5B model printed the latest date and its one order (ho6-data-busiest-month); it is
told to add up per month, the date's first 7 characters.
Asked for an amount for each group ("what's the average distance of a run on each route I do?", with a
route column that repeats), the 0.5B model averaged every row and answered "The average distance of a
run on each route is 7.9 km." (ho37). Code that reads the named CSV without any grouping is not run and
the request is asked afresh once, saying to work it out per group and print every group with its result.
Told the way in words, the 0.5B model still wrote `groupby('salesperson')['quantity'].apply(lambda x: x * x)`
for revenue per salesperson (ho39): the ask comes with the pandas code that does it, as the reply's start
where the back end allows, narrowed as the request narrows the rows (`filters`); none when it narrows them
in a way the code cannot (a threshold: "orders over 250")."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import (
    Block,
    Turn,
    block_prefix,
    code_retry,
    instruction,
    own_code,
)

NOTE = ("(Write one ```python block that does what I asked. In {file} each {group} is on several rows, so the "
        "{extreme} is not one row's value: first {how} per {group}, then take the {extreme} and print the {group} "
        "with it.)")
SHOWN = "Not run: in {file} each {group} is on several rows, and the code takes one row's value; asked afresh to {how} per {group}."
SUM = "add up {column!r} (df.groupby({by})[{column!r}].sum())"
COUNT = "count the rows (df[{group!r}].value_counts())"
MEAN = "average {column!r} (df.groupby({by})[{column!r}].mean())"
EACH_NOTE = ("(Write one ```python block that does what I asked. In {file} each {group} is on several rows and I asked "
             "for each {group}: {how} per {group}, and print every {group} with its result.)")
EACH_SHOWN = "Not run: each {group} was asked for, and the code works out one number over every row; asked afresh to {how} per {group}."
_PERIODS = {"month": 7, "year": 4, "day": 10, "date": 10}  # characters of an ISO date that name it
# "who put in the most hours", "which category did we spend the most on", "which shop had the fewest ..."
ASKS = re.compile(r"\b(?:who(?:'s|se)?|which\s+([a-z][\w-]*))\b[^.?!]*?\b(most|least|fewest|highest|lowest|biggest|"
                  r"largest|smallest|top|max(?:imum)?|min(?:imum)?)\b", re.I)
_EXTREME = {"least": "smallest", "fewest": "smallest", "lowest": "smallest", "smallest": "smallest", "min": "smallest",
            "minimum": "smallest"}
_TAKES = re.compile(r"\.(?:max|min|idxmax|idxmin|nlargest|nsmallest|sort_values)\(|\b(?:max|min)\(|"
                    r"\bsorted\((?![^)\n]*\b(?:glob|rglob|listdir|iterdir|scandir)\b)")  # sorted file names take no value
_GROUPS = re.compile(r"groupby|defaultdict|Counter|pivot|value_counts|\.get\(|\+=|setdefault|\bcount\(")
# "the highest score in a single game": one row is what is asked
_ONE = re.compile(r"\b(?:single|in (?:one|a|any one) (?:\w+ )?(?:game|day|shift|session|match|race|go|row|entry|visit|"
                  r"order|sale|month|week|year|run|trip))\b", re.I)
# An amount asked for, with no column named: "which category did i spend the most on" adds up the one
# number column (asked "who did the most shifts", the rows are counted).
_AMOUNT = re.compile(r"\b(?:how\s+much|spen[dt]\w*|paid|pay\w*|cost\w*|earn\w*|revenue|money|sales|sold|in\s+total|bills?|fees?|"
                     r"totals?)\b", re.I)
# "the average distance on each route", "total spent per category", "how many orders for every customer"
# "add up my october spending per category" (ho51: "spending" and "add up" were not read as an amount asked)
_EACH = re.compile(r"\b(?:average|avg|mean|total|sum|how\s+(?:much|many)|count|spen[dt]\w*|add(?:ed)?\s+up)\b[^.?!]*?"
                   r"\b(?:for\s+each|on\s+each|each|every|per|by)\s+([a-z][\w-]*)", re.I)
_LABEL = re.compile(r"(?:^|_|\b)(?:id|no|nr|num|year|month|day|week|zip|code|phone)$", re.I)  # numbers that name, not measure
_DATE = re.compile(r"^\d{4}-\d\d-\d\d|^\d{1,2}/\d{1,2}/\d{2,4}$")
_FILE_NAME = re.compile(r"[\w./-]+\.[A-Za-z][A-Za-z0-9]{1,4}\b")


_TIMES = re.compile(r"\btimes\b|\bmultipl\w*|\s[x×*]\s", re.I)
PRODUCT = "add up {a!r} times {b!r} ((df[{a!r}] * df[{b!r}]).groupby({series}).{what}())"


def _how(column: str, by: str, mean: bool) -> str:
    """What to work out per group: a column's sum or mean, or of two columns' product ("a*b")."""
    if "*" in column:
        a, b = column.split("*", 1)
        series = by if by.startswith("df[") else f"df[{by}]"
        return PRODUCT.format(a=a, b=b, series=series, what="mean" if mean else "sum")
    return (MEAN if mean else SUM).format(column=column, by=by)


def _group(request: str, word: str | None, table: dict[str, list[str]]) -> str | None:
    """The column the request groups by: the one "which <word>" names, or for "who" the first column of
    text (not numbers, not dates)."""
    from oi_local.core.rules.asked_column import _numeric, _tokens

    if word:
        fits = [c for c in table if _tokens(word) & _tokens(c)]
        return fits[0] if len(fits) == 1 else None
    for column, values in table.items():
        if values and not _numeric(values) and not all(_DATE.match(v) for v in values if v):
            return column
    return None


MAX_JSON = 5_000_000  # bytes of a JSON file read here


def json_records(p: Path) -> list[dict[str, object]] | None:
    """The records of a JSON file that is a list of objects, or an object with one such list (loans.json's
    {"loans": [...]}), or None."""
    import json

    if p.suffix.lower() != ".json" or not p.is_file() or p.stat().st_size > MAX_JSON:
        return None
    try:
        data = json.loads(p.read_text(encoding="utf-8", errors="replace"))
    except ValueError:
        return None
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else None
    if not isinstance(data, list) or not data or not all(isinstance(r, dict) for r in data):
        return None
    return data


def table_of(p: Path) -> dict[str, list[str]]:
    """The columns of a CSV file, or of a JSON file's records (their plain values), with their values as text."""
    from oi_local.core.rules.asked_column import MAX_ROWS, _table

    records = json_records(p)
    if records is None:
        return _table(p)
    table: dict[str, list[str]] = {}
    for r in records[:MAX_ROWS]:
        for k, v in r.items():
            if v is None or isinstance(v, (str, int, float, bool)):
                table.setdefault(str(k), [])
    for r in records[:MAX_ROWS]:
        for k in table:
            v = r.get(k)
            table[k].append("" if v is None else str(v))
    return table


def read_lines(file: str) -> str:
    """Pandas lines that read the file into `df`: a CSV, or a JSON file's records."""
    if not file.lower().endswith(".json"):
        return f"df = pd.read_csv({file!r})"
    return (f"import json\nwith open({file!r}, encoding='utf-8') as f:\n    data = json.load(f)\n"
            "records = data if isinstance(data, list) else next(v for v in data.values() if isinstance(v, list))\n"
            "df = pd.DataFrame(records)")


def grouped(request: str, cwd: Path, earlier: str = "") -> tuple[str, str, str | None, str] | None:
    """(file, group column, the number column the request names or None, "largest"/"smallest") when the
    request asks for the most or least per group of a named CSV whose group column repeats (a follow-up that
    names no file: the `earlier` request's file)."""
    from oi_local.core.rules.asked_column import _numeric, _tokens

    m = ASKS.search(request)
    found = _named_group(request, cwd, m.group(1), earlier) if m is not None and not _ONE.search(request) else None
    if m is None or found is None:
        return None
    file, table, group, values = found
    period = _PERIODS.get((m.group(1) or "").lower())
    if group is None and period:  # "which month": the month of the one date column
        dates = [c for c, v in table.items() if v and all(re.match(r"\d{4}-\d\d-\d\d", x) for x in v if x)]
        if len(dates) == 1:
            group = dates[0]
            values = [v[:period] for v in table[group] if v]
    if group is None or len(set(values)) == len(values):
        return None  # one row per name: the largest row is the answer
    # a file's name lends no word: "in orders.csv" named order_id beside total, and two columns named none (ho56)
    said = _tokens(_FILE_NAME.sub(" ", request[m.end():])) | _tokens(m.group(0))
    numbers = [c for c, v in table.items() if c != group and _numeric(v) and _tokens(c) & said]
    if not numbers:  # "what's the average sale amount per region? and which region comes out on top?"
        numbers = [c for c, v in table.items() if c != group and _numeric(v) and _tokens(c) & _tokens(_FILE_NAME.sub(" ", request))]
    if len(numbers) > 1:  # an id or a year names a row; the amount is the other column
        numbers = [c for c in numbers if not _LABEL.search(c)] or numbers
    if not numbers and _AMOUNT.search(request):  # "which category did i spend the most on": the one number column
        numbers = [c for c, v in table.items() if c != group and _numeric(v) and not _LABEL.search(c)]
        numbers = numbers if len(numbers) == 1 else []
    if len(numbers) == 2 and _TIMES.search(request):  # "revenue is quantity times unit price": their product
        numbers = [f"{numbers[0]}*{numbers[1]}"]
    extreme = _EXTREME.get(m.group(2).lower(), "largest")
    if period and group not in [c for c in table if _tokens(m.group(1)) & _tokens(c)]:
        group = f"{group}[:{period}]"  # the period's characters of the date column
    return file, group, numbers[0] if len(numbers) == 1 else None, extreme


def per_each(request: str, cwd: Path, code: str = "", earlier: str = "") -> tuple[str, str, str | None] | None:
    """(file, group column, the number column the request names or None) when the request asks for an
    amount for each group of a named CSV whose group column repeats ("the average distance on each route")."""
    from oi_local.core.rules.asked_column import _numeric, _tokens

    m = _EACH.search(request)
    found = _named_group(request, cwd, m.group(1), earlier) if m is not None else None
    if found is None:
        return None
    file, table, group, values = found
    if group is None or _numeric(values) or len(set(values)) == len(values):
        return None
    numbers = [c for c, v in table.items() if c != group and _numeric(v) and _tokens(c) & _tokens(request)]
    if not numbers:  # "the average distance" of a km column: the one number column the code reads
        numbers = [c for c, v in table.items() if c != group and _numeric(v) and re.search(rf"['\"]{re.escape(c)}['\"]", code)]
    return file, group, numbers[0] if len(numbers) == 1 else None


def _named_group(request: str, cwd: Path, word: str | None,
                 earlier: str = "") -> tuple[str, dict[str, list[str]], str | None, list[str]] | None:
    """(the one named CSV, its table, the group column `word` names or None, that column's values). A follow-up
    that names no file ("Which category did most of that go on?") asks of the file the request before it named:
    the model filtered one category it picked itself and printed its total (ho52)."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import SUFFIXES

    def tables(text: str) -> list[Path]:
        return [p for p in mentioned_paths(text, cwd) if p.is_file() and (p.suffix.lower() in SUFFIXES or json_records(p))]

    named = re.search(r"\b[\w-]+\.[A-Za-z][A-Za-z0-9]{1,4}\b", request) or mentioned_paths(request, cwd)
    files = tables(request) or (tables(earlier) if earlier and not named else [])
    if len(files) != 1:
        return None
    table = table_of(files[0])
    group = _group(request, word, table)
    return os.path.relpath(files[0], cwd.resolve()), table, group, [v for v in table.get(group or "", []) if v]


def _each(turn: Turn, block: Block) -> Verdict | None:
    """The code reads the named CSV and works out one number over every row, for a request per group."""
    from oi_local.core.rules.averages import ASKED

    found = per_each(turn.request, Path.cwd(), block.code, turn.earlier_request)
    if found is None or Path(found[0]).name not in block.code:
        return None
    file, group, column = found
    # the group column's name as a string: `{category: sum(amounts) for category in amounts}` has the word only
    # as a variable, over the amounts themselves (ho51's spending per category)
    if re.search(rf"['\"]{re.escape(group)}['\"]|\.{re.escape(group)}\b", block.code) \
            or re.search(r"groupby|defaultdict|Counter|pivot|value_counts|setdefault|\]\s*\+=", block.code):
        return None  # the code looks at the groups
    if column is None and ASKED.search(turn.request):
        return None  # an average of no known column: not ours to name
    turn.counts["per group"] += 1
    how = (MEAN if ASKED.search(turn.request) else SUM).format(column=column, by=repr(group)) if column \
        else COUNT.format(group=group)
    narrow = filters(turn.request, file, group) if column else None
    if narrow is not None:  # the whole way is known: the model is given the code (told only the way, it summed every row again)
        offered = f"```python\n{each_code(file, group, column or '', bool(ASKED.search(turn.request)), narrow)}\n```"
        ask = Ask(EACH_NOTE.format(file=file, group=group, how=how) + READY.format(block=offered),
                  block_prefix(turn.engine, offered), hide=True, ready=True)
        return Verdict(note=EACH_SHOWN.format(group=group, how=how), ask=ask)
    ask = Ask(EACH_NOTE.format(file=file, group=group, how=how), code_retry(turn.engine, 23), hide=True)
    return Verdict(note=EACH_SHOWN.format(group=group, how=how), ask=ask)


def each_code(file: str, group: str, column: str, mean: bool, narrow: list[str]) -> str:
    """Pandas code that prints every group with its sum (and the sum of all) or its average."""
    narrowed = "".join(f"{line}\n" for line in narrow)
    number = f"pd.to_numeric(df[{column!r}].astype(str).str.replace(r'[^0-9.\\-]', '', regex=True), errors='coerce')"
    what = "mean" if mean else "sum"
    whole = "" if mean else "\nprint('total:', round(float(totals.sum()), 2))"
    return (f"import pandas as pd\n{read_lines(file)}\n{narrowed}"
            f"if df.empty:\n    print('No rows of {file} are left once narrowed as asked.')\nelse:\n"
            f"    totals = {number}.groupby(df[{group!r}]).{what}()\n"
            f"    print(totals.sort_values(ascending=False).round(2).to_string())" + whole.replace("\n", "\n    "))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["per group"]:
        return None
    if _GROUPS.search(block.code):
        return _each(turn, block)
    found = grouped(turn.request, Path.cwd(), turn.earlier_request)
    # code that neither takes a largest value nor adds up per group cannot tell which group has the most, unless
    # it never reads the file (then after_run sees to it): the model picked one category itself and summed it
    if found is None or not (_TAKES.search(block.code) or names_file(block.code, Path(found[0]).name)):
        return _each(turn, block)
    file, group, column, extreme = found
    turn.counts["per group"] += 1
    from oi_local.core.rules.averages import ASKED

    date = re.fullmatch(r"(.+)\[:(\d+)\]", group)
    if date:  # a period of a date column: named by the request's word, grouped by the date's first characters
        column_of, n = date.groups()
        word = next((w for w, k in _PERIODS.items() if k == int(n) and re.search(rf"\bwhich\s+{w}\b", turn.request, re.I)), "date")
        by = f"df[{column_of!r}].str[:{n}]"
        how = _how(column, by, bool(ASKED.search(turn.request))) if column \
            else f"count the rows (df[{column_of!r}].str[:{n}].value_counts())"
        group = word
    else:
        how = _how(column, repr(group), bool(ASKED.search(turn.request))) if column \
            else COUNT.format(group=group)
    narrow = filters(turn.request, file, found[1])
    ready = None if narrow is None else ready_code(file, found[1], column, extreme, bool(ASKED.search(turn.request)),
                                                   narrow, bool(_TOTAL.search(instruction(turn.request))))
    if ready is not None:  # the whole way is known: the model is given the code, not only told the way
        offered = f"```python\n{ready}\n```"
        ask = Ask(NOTE.format(file=file, group=group, extreme=extreme, how=how) + READY.format(block=offered),
                  block_prefix(turn.engine, offered), hide=True, ready=True)
        return Verdict(note=SHOWN.format(file=file, group=group, how=how), ask=ask)
    ask = Ask(NOTE.format(file=file, group=group, extreme=extreme, how=how), code_retry(turn.engine, 23), hide=True)
    return Verdict(note=SHOWN.format(file=file, group=group, how=how), ask=ask)


def after_run(turn: Turn) -> Ask | None:
    """A run for a most-or-least-per-group question that failed, or never read the named CSV ("print('July')"
    for which month of utilities.csv in 2024 had the biggest bill, ho39), gets the per-group code, once a turn."""
    from oi_local.core.rules.averages import ASKED

    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["per group"]:
        return None
    try:
        found = grouped(turn.request, Path.cwd(), turn.earlier_request)
        if found is None or (not last.failed and names_file(last.code, Path(found[0]).name)):
            return None
        file, group, column, extreme = found
        narrow = filters(turn.request, file, group)
    except (OSError, ValueError):
        return None
    if narrow is None:
        return None
    turn.counts["per group"] += 1
    mean = bool(ASKED.search(turn.request))
    code = ready_code(file, group, column, extreme, mean, narrow, bool(_TOTAL.search(instruction(turn.request))))
    shown = re.sub(r"\[:\d+\]$", "", group)
    return own_code(turn.engine, f"(That did not work out the {extreme} per {shown} from {file}.", code)


def names_file(code: str, name: str) -> bool:
    """The code has the file's name as a string of its own (a path it reads), not only inside printed words:
    `print("No expenses_march.csv file found.")` reads nothing (ho50, read after that set's end)."""
    return bool(re.search(rf"""[rbRB]?(['"])(?:[^'"\n]*/)?{re.escape(name)}\1""", code))


READY = " This block does it; reply with it.\n{block}"
_TOTAL = re.compile(r"\b(?:in\s+total|total|altogether|in\s+all|overall)\b", re.I)
SHOWN_ROWS = 10  # groups printed before the answer's line


def ready_code(file: str, group: str, column: str | None, extreme: str, mean: bool, narrow: list[str] | None = None,
               total: bool = False) -> str:
    """Pandas code that works out the amount per group and prints the groups, then the one asked for:
    `group` is a column or a date column's first characters ("date[:7]"); `column` a number column,
    two of them multiplied ("quantity*unit_price"), or None to count rows."""
    date = re.fullmatch(r"(.+)\[:(\d+)\]", group)
    by = f"df[{date.group(1)!r}].astype(str).str[:{date.group(2)}]" if date else f"df[{group!r}]"
    what = "mean" if mean else "sum"
    if column is None:
        values = f"{by}.value_counts()"
    elif "*" in column:
        a, b = column.split("*", 1)
        values = f"(df[{a!r}] * df[{b!r}]).groupby({by}).{what}()"
    else:
        values = f"df[{column!r}].groupby({by}).{what}()"
    smallest = extreme == "smallest"
    # a month said by its name too: shown only "largest: 2024-11 139.6", the 0.5B model answered "June 2024" (ho39)
    named = ", pd.to_datetime(best + '-01').strftime('(%B %Y)')" if date and date.group(2) == "7" else ""
    narrowed = "".join(f"{line}\n" for line in narrow or [])
    whole = f"\nprint('total:', {'int(totals.sum())' if column is None else 'round(float(totals.sum()), 2)'})" \
        if total and not mean else ""
    rest = (f"totals = {values}\n"
            f"print(totals.sort_values(ascending={smallest}).head({SHOWN_ROWS}).round(2).to_string())\n"
            f"best = totals.{'idxmin' if smallest else 'idxmax'}()\n"
            f"print({extreme + ':'!r}, best{named}, {'int(totals[best])' if column is None else 'round(float(totals[best]), 2)'})"
            + whole)
    if narrow:  # no row left is an answer too, said plainly
        rest = (f"if df.empty:\n    print('No rows of {file} are left once narrowed as asked.')\nelse:\n"
                + "".join(f"    {line}\n" for line in rest.splitlines()))
    return f"import pandas as pd\n{read_lines(file)}\n{narrowed}{rest}".rstrip("\n")


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_WORDS = re.compile(r"\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_ISO = re.compile(r"^\d{4}-\d\d(?:-\d\d)?")


def _said_values(values: list[str], words: str) -> list[str]:
    """The values the request's words say, a plural too ("oat lattes" of "Oat latte"); of two that one span
    holds, the longer ("Oat latte", not "Latte" too)."""
    spans = {}
    for x in {v.strip() for v in values if len(v.strip()) >= 3}:
        plain = " ".join(re.findall(r"[a-z0-9]+", x.lower()))
        m = re.search(rf" {re.escape(plain)}(?:s|es)? ", words) if plain else None
        if m:
            spans[x] = m.span()
    return sorted(x for x, (a, b) in spans.items()
                  if not any(y != x and c <= a and b <= d and (d - c) > (b - a) for y, (c, d) in spans.items()))


def filters(request: str, file: str, group: str) -> list[str] | None:
    """Pandas lines that narrow the rows as the request does: a value of one of the file's text columns other
    than the group ("my electricity bill"), a year and a month's name of its one ISO date column ("in 2024",
    "in March"). [] when it narrows none; None when it narrows in a way these do not cover (another number:
    "orders over 250"), where no code is offered."""
    from oi_local.core.rules.asked_column import _numeric
    from oi_local.core.rules.turn import instruction

    own = instruction(request).replace(file, "")
    table = table_of(Path(file))
    lines: list[str] = []
    words = " " + " ".join(re.findall(r"[a-z0-9]+", own.lower())) + " "
    for column, values in table.items():
        if column == group.split("[")[0] or _numeric(values) or (values and all(_ISO.match(v) for v in values if v)):
            continue
        said = _said_values(values, words)
        if said:
            lines.append(f"df = df[df[{column!r}].astype(str).str.strip().str.lower().isin({[x.lower() for x in said]!r})]")
    years = sorted(set(_YEAR.findall(own)))
    months = sorted({_MONTHS.index(m.group(1).lower()[:3]) + 1 for m in _MONTH_WORDS.finditer(own)
                     if not re.fullmatch(r"(?i)may|mar", m.group(0)) or re.search(rf"\b{m.group(0)}\s+(?:\d|19|20)", own)
                     or re.search(rf"\b(?:in|of|for|during)\s+{m.group(0)}\b", own, re.I)})
    if re.sub(r"\b(?:19|20)\d\d\b", "", own).strip() and re.search(r"\d", re.sub(r"\b(?:19|20)\d\d\b", "", own)):
        return None  # another number: a threshold or a count these lines do not cover
    if years or months:
        dates = [c for c, v in table.items() if v and all(_ISO.match(x) for x in v if x)]
        if len(dates) != 1 or len(years) > 1 or len(months) > 1:
            return None
        column = dates[0]
        if years and months:
            lines.append(f"df = df[df[{column!r}].astype(str).str[:7] == {f'{years[0]}-{months[0]:02d}'!r}]")
        elif years:
            lines.append(f"df = df[df[{column!r}].astype(str).str[:4] == {years[0]!r}]")
        else:
            lines.append(f"df = df[df[{column!r}].astype(str).str[5:7] == {f'{months[0]:02d}'!r}]")
    return lines


rule = Rule(
    name="per group", setting="asked_column", check=check, after_run=after_run,
    summary="asked who or which <column> has the most or least of something in a CSV that repeats those names, "
            "code that takes the largest or smallest row without adding up per name is not run and the request is asked "
            "afresh once, saying to add up (or count) per name first (\"quantity times unit price\": their product), with "
            "the pandas code that does it, narrowed as the request narrows the rows (a value of another text column, "
            "a year or month of its date column; not another number); so is one asked which month, year or day, "
            "per that part of the CSV's one column of ISO dates, and one asked for an amount for each group (\"the average "
            "distance on each route\", \"add up my spending per category\") whose code works out one number over every row, "
            "with the code that prints every group's result; a run for a most-or-least one that "
            "failed or never read the CSV gets that code")
