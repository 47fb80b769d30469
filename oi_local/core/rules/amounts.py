"""Amounts: "how many minutes did I spend on Deep Field in 2024, and how many episodes was that?" over a
podcast app's JSON export. The 0.5B model printed each Deep Field episode's minutes (all years), then,
asked for the total, the same list again (ho38). When a request asks a total, an average or a count
of the rows of one named CSV or JSON file, narrowed by values of its text columns the request says
("Deep Field"), by a year or month of its one date column ("in 2024") and by one threshold on a number column
("on how many days was it above 65?"), and the code does not both
narrow so and work the amount out, the code is not run and the model is given the pandas code that
does: each amount asked on its own labelled line. Not for a breakdown (each, per, by), a which or who
question (core/rules/per_group.py), another number in the request, a value said negated, or a second question
it does not answer (core/rules/two_questions.py)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.records import (
    columns,
    date_column,
    load_code,
    narrow_code,
    number_columns,
    records,
    said_values,
    stem,
    stems,
)
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = ("(Write one ```python block that does what I asked: {what} of the rows of {file}{narrowed}.")
SHOWN = "Not run: the code does not work out {what} of the rows narrowed as asked; asked afresh with the code that does."
_SUM = re.compile(r"\b(?:total|sum|how\s+much|altogether|in\s+all|all\s+together|spen[dt]|combined)\b", re.I)
_MEAN = re.compile(r"\b(?:average|avg|mean|typical|typically)\b", re.I)
_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:of\s+(?:the|my|our|those|these)\s+)?([a-z]+)", re.I)
# what a row is, counted: "how many orders", "how many of the people"; not a unit or a thing sold ("how many
# kilometres did I drive", "how many mugs did we sell": amounts, not rows)
_ROWS = {"order", "book", "episode", "row", "entry", "entries", "record", "people", "person", "user", "customer", "member",
         "transaction", "trip", "ride", "visit", "ticket", "guest", "purchase", "invoice", "contact", "task", "movie", "film",
         "song", "game", "session", "shift", "booking", "reservation", "subscription", "student", "employee", "payment",
         "line", "message", "email", "loan", "plant", "pet", "patient", "event", "meeting", "appointment", "delivery", "deliveries"}
# words that narrow the rows in ways these lines do not: a sign, a threshold, a relative time, a unit to convert
_OTHER_WAYS = re.compile(r"\b(?:minus|negative|positive|over|under|above|below|more\s+than|less\s+than|fewer\s+than|"
                         r"at\s+least|at\s+most|went\s+out|came\s+in|only|except|excluding|without|last|this|next|"
                         r"past|previous|recent\w*|yesterday|today|ago|week\w*|careful|convert\w*|mixed|unique|distinct|"
                         r"different)\b", re.I)  # a value said negated is said_values' to read
_BACK = re.compile(r"^\s*(?:and|so|ok|also)\b|\b(?:of\s+(?:that|those|these|them|it))\b", re.I)  # a follow-up
_NOT_OURS = re.compile(r"\b(?:each|every|per|by|which|who|whose|most|least|highest|lowest|top|percent\w*|share|"
                       r"ratio|compared?|versus|vs)\b|%", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = re.compile(r"\b(jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
                    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|(?:in|of|during)\s+(?:mar|may))\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _period(words: str) -> tuple[str, str] | None | bool:
    """(how many characters of an ISO date, what they are) for the one year or month of a year said;
    None when none is; False when other numbers are said too."""
    years = sorted(set(_YEAR.findall(words)))
    months = sorted({_MONTHS.index(m.group(1).split()[-1].lower()[:3]) + 1 for m in _MONTH.finditer(words)})
    if re.search(r"\d", _YEAR.sub("", words)) or len(years) > 1 or len(months) > 1:
        return False
    if years and months:
        return "7", f"{years[0]}-{months[0]:02d}"
    if years:
        return "4", years[0]
    if months:
        return "5:7", f"{months[0]:02d}"
    return None


# One threshold on a number column: "on how many days was it above 65?" of date,resting_bpm (ho52: the follow-up's
# code read the column's floats as rows, twice); "orders over 100", "at least 30", "65 or more"
_ABOVE = r"over|above|more\s+than|greater\s+than|higher\s+than|bigger\s+than|larger\s+than|at\s+least"
_BELOW = r"under|below|less\s+than|fewer\s+than|lower\s+than|smaller\s+than|at\s+most"
_THRESHOLD = re.compile(rf"\b(?P<op>{_ABOVE}|{_BELOW})\s+[$£€]?(?P<n>-?\d+(?:\.\d+)?)(?![\d.,:/-]|\s*(?:%|percent))|"
                        rf"(?<![\w.])[$£€]?(?P<n2>-?\d+(?:\.\d+)?)\s+or\s+(?P<op2>more|over|above|less|fewer|under|below)\b", re.I)
_OPS = {"at least": ">=", "at most": "<="}
_DAILY = {"day", "night", "date"}  # counted in a file of one row a day, they are its rows


def threshold(words: str, rows: list[dict[str, object]], numbers: list[str]) -> tuple[str, str, str, str] | None:
    """(the phrase, the column, the operator, the number) of the one threshold the words say on a number column
    (the one they name, else the only one), or None."""
    found = list(_THRESHOLD.finditer(words))
    if len(found) != 1:
        return None
    m = found[0]
    if m.group("op"):
        said, n = " ".join(m.group("op").lower().split()), m.group("n")
        op = _OPS.get(said) or (">" if re.fullmatch(_ABOVE, said) else "<")
    else:
        n, op = m.group("n2"), ">=" if m.group("op2").lower() in ("more", "over", "above") else "<="
    named = [c for c in numbers if stems(c) & stems(words)]
    plain = _money(rows, numbers)
    column = named if len(named) == 1 else plain if not named and len(plain) == 1 else []
    return (m.group(0), column[0], op, n) if column else None


def asked(request: str, cwd: Path, earlier: str = "") -> dict[str, object] | None:
    """The amounts a request asks of one named file's rows, narrowed; a follow-up that names no file ("and how much
    of that hasnt been paid yet?") is about the file the request before it named."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.two_questions import asked as two_questions
    from oi_local.core.units import asked_in

    words = instruction(request)
    if _NOT_OURS.search(words):
        return None
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in (".csv", ".json")]
    if not files and earlier and _BACK.search(words) and not mentioned_paths(words, cwd):
        files = [p for p in mentioned_paths(instruction(earlier), cwd) if p.is_file() and p.suffix.lower() in (".csv", ".json")]
    rows = records(files[0]) if len(files) == 1 else None
    if not rows:
        return None
    numbers = number_columns(rows)
    limit = threshold(words, rows, numbers)
    if limit:
        words = words.replace(limit[0], " ")
    if _OTHER_WAYS.search(re.sub(r"\bconvert\w*", "", words)):
        return None
    named = [c for c in numbers if stems(c) & stems(words)]
    what: list[tuple[str, str | None]] = []  # ("count", None), ("sum", column), ("mean", column)
    for m in _HOW_MANY.finditer(words):
        column = next((c for c in numbers if stem(m.group(1)) in stems(c)), None)
        if column:
            what.append(("sum", column))
        elif stem(m.group(1)) in {stem(w) for w in _ROWS} or (limit and stem(m.group(1)) in _DAILY and _daily(rows)):
            what.append(("count", m.group(1).lower()))
        else:
            return None  # "how many kilometres", "how many mugs did we sell": not a column, not rows
    if _MEAN.search(words) and len(named) == 1:
        what.append(("mean", named[0]))
    elif _SUM.search(words) and len(named) == 1 and ("sum", named[0]) not in what:
        what.append(("sum", named[0]))
    elif re.search(r"\bhow\s+much\b", words, re.I) and not named and not what and len(money := _money(rows, numbers)) == 1:
        what.append(("sum", money[0]))  # "how much" of the one column of amounts
    if len(what) < 2 and two_questions(request):
        # "how many orders went to Germany, and what was the biggest single order amount?": the code for the
        # count alone was given, and the biggest order was never printed (ho52)
        return None
    period = _period(words)
    dates = date_column(rows)
    filters = said_values(words, rows, set())
    flags = [c for c in columns(rows) if {str(r.get(c)).strip().lower() for r in rows if r.get(c) not in (None, "")}
             <= {"true", "false", "yes", "no", "y", "n", "0", "1"}]
    if filters is not None and (len({v for vs in filters.values() for v in vs}) < sum(map(len, filters.values()))
                                or any(stems(c) & stems(words) for c in flags)):
        return None  # one word in two columns ("yes"), or a yes/no column named ("active"): not certain which rows
    # an amount asked in another unit than its column's ("the total distance in kilometres" of distance_miles)
    units = {n: u for k, n in what if k != "count" and n and (u := asked_in(words, n))}
    if re.search(r"\bconvert\w*", words, re.I) and not units:
        return None  # a conversion these lines do not know
    if not what or period is False or filters is None or (period and not dates) or not (filters or period or units or limit):
        return None
    if limit and any(kind == "mean" for kind, _ in what):
        return None  # "how many days until my average is over 65": the threshold may be on the average, not the rows
    return {"file": os.path.relpath(files[0], cwd.resolve()), "what": list(dict.fromkeys(what)), "filters": filters,
            "period": period, "dates": dates, "units": units, "limit": limit[1:] if limit else None}


def _daily(rows: list[dict[str, object]]) -> bool:
    """One row a day: a date column with no date twice."""
    dates = date_column(rows)
    said = [str(r.get(dates)) for r in rows if r.get(dates)] if dates else []
    return bool(said) and len(set(said)) == len(said)


def _money(rows: list[dict[str, object]], numbers: list[str]) -> list[str]:
    """The number columns other than ids and parts of dates: "how much" of one of them is its total (a quantity
    beside a price is not one column of amounts: "how much money did oat lattes make" is their product)."""
    return [c for c in numbers if not re.search(r"(?:^|_)(?:id|no|nr|num|year|month|day)$", c, re.I)]


def ready_code(found: dict[str, object]) -> str:
    file, what, filters, period, dates = found["file"], found["what"], found["filters"], found["period"], found["dates"]
    units = found.get("units") or {}
    assert isinstance(file, str) and isinstance(what, list) and isinstance(filters, dict)
    code = load_code(file) + narrow_code(filters)
    if isinstance(period, tuple):
        cut = f"[{period[0]}]" if ":" in period[0] else f"[:{period[0]}]"
        code += f"df = df[df[{dates!r}].astype(str).str{cut} == {period[1]!r}]\n"
    limit = found.get("limit")
    if isinstance(limit, tuple):
        column, op, n = limit
        code += f"df = df[pd.to_numeric(df[{column!r}], errors='coerce') {op} {n}]\n"
    code += f"if df.empty:\n    print('No rows of {file} are left once narrowed as asked.')\nelse:\n"
    for kind, name in what:
        if kind == "count":
            code += f"    print({name + ':'!r}, len(df))\n"
        else:
            label = ("total " if kind == "sum" else "average ") + str(name) + ":"
            code += (f"    v = float(pd.to_numeric(df[{name!r}], errors='coerce').{kind}())\n"
                     f"    print({label!r}, int(v) if v == int(v) else round(v, 2))\n")
            unit = units.get(name) if isinstance(units, dict) else None
            if unit:  # the amount in the unit asked for, on a line of its own
                code += f"    print({f'that in {unit[0]}:'!r}, round(v * {unit[1]!r}, 2))\n"
    return code.rstrip("\n")


def _has_factor(code: str, factor: float) -> bool:
    """The code multiplies or divides by the factor, to within 1 % ("1.609", "/ 0.6214", "1.6")."""
    for n in re.findall(r"(?<![\w.])\d*\.\d+|(?<![\w.])\d+(?![\w.])", code):
        x = float(n)
        if x and (abs(x / factor - 1) < 0.01 or abs(x * factor - 1) < 0.01):
            return True
    return False


def _said(found: dict[str, object]) -> str:
    what, units = found["what"], found.get("units") or {}
    assert isinstance(what, list) and isinstance(units, dict)
    return " and ".join(f"the number of {n}" if k == "count" else f"the {'total' if k == 'sum' else 'average'} {n}"
                        + (f" in {units[n][0]}" if n in units else "") for k, n in what)


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["amounts"] or block.lang != "python":
        return None
    found = asked(turn.request, Path.cwd(), turn.earlier_request)
    if found is None:
        return None
    filters, period = found["filters"], found["period"]
    assert isinstance(filters, dict)
    code = block.code.lower()
    limit = found.get("limit")
    narrows = all(any(v in code for v in vs) for vs in filters.values()) and \
        (not isinstance(period, tuple) or period[1] in code) and \
        (not isinstance(limit, tuple) or re.search(rf"[<>]=?\s*{re.escape(limit[2])}\b", code) is not None)
    works_out = re.search(r"\bsum\(|\.sum\(|mean\(|\blen\(|\+=|statistics|\.count\(|\.size\b|shape", code)
    units = found["units"]
    assert isinstance(units, dict)
    converts = all(_has_factor(code, f) for _, f in units.values())
    if narrows and works_out and converts:
        return None  # the code narrows and works it out itself
    turn.counts["amounts"] += 1
    narrowed = "".join(f", {c} {' or '.join(v)}" for c, v in filters.items()) + \
        (f", {found['dates']} {period[1]}" if isinstance(period, tuple) else "") + \
        (f", {limit[0]} {limit[1]} {limit[2]}" if isinstance(limit, tuple) else "")
    ask = own_code(turn.engine, NOTE.format(what=_said(found), file=found["file"], narrowed=narrowed), ready_code(found))
    return Verdict(note=SHOWN.format(what=_said(found)), ask=ask)


rule = Rule(
    name="amounts", setting="asked_column", check=check,
    summary="asked a total, an average or a count of the rows of one named CSV or JSON file narrowed by values "
            "the request says and a year or month of its date column (\"minutes on Deep Field in 2024, and how many "
            "episodes\"), code that does not narrow so and work it out is not run and the model is given the pandas "
            "code that does, each amount on its own labelled line; so is one asked in another unit than its column's (\"the "
            "total distance in kilometres\" of distance_miles: the amount then converted); a value said negated "
            "(\"hasnt been paid\") is the column's value that says so (\"unpaid\"), and a follow-up that names no file is "
            "about the one the request before it named; one threshold on a number column (\"how many days was it above 65\") "
            "narrows the rows too; not for a breakdown, a which or who question, or a negated value")
