"""Plain average: asked "whats my average ride distance? every ride since april is in rides.csv" (columns date,
route, distance_km, ...), the 0.5B model subtracted the first date from the last, then converted the dates to
numbers, then read a closed file (ho13); of older sets' plain averages of a named CSV, 6 of 14 ended wrong in a
development run. When a request asks for a plain average (no group, no month or year, none of the file's own
values named, nothing left out), the words after "average" (or a word that says what is measured: weigh, paid,
sleep) name exactly one numeric column of the one CSV file it names (or the file has only one), and the model's code does not use that
column, or its run failed or printed no number near that column's mean, the loop offers its own code that prints
that column's mean (its blanks skipped), once a turn."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "Not run: the code never reads {column}, the column of {file} the request asks the average of."
ASK = "(The average of {column} in {file}: a total divided by a count."
HOW = "This block prints it; reply with it, then give the average it prints."
# a group ("per route", "for each shift": a word after it that names a column) or rows left out or picked
_EACH = re.compile(r"\b(?:per|each|every|by)\s+(\w+)(?:\s+(\w+))?", re.I)
_PICKED = re.compile(r"%|\b(?:percent(?:age)?|share|fraction|proportion|ratio|compared?|versus|vs|except|excluding|exclud\w*|"
                     r"leav\w*\s+out|left\s+out|ignor\w*|skip\w*|omit\w*|apart\s+from|minus|besides|not|without|other|"
                     r"others|only|between|(?:19|20)\d\d)\b", re.I)
_IN_MONTH = re.compile(r"\b(?:in|during|for|of)\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)


def _target(request: str, cwd: Path) -> tuple[str, str] | None:
    """(file, column) of a plain average the request asks for, or None."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _table, _tokens, asked_column
    from oi_local.core.rules.averages import ASKED
    from oi_local.core.rules.named_values import _PATHISH

    words = instruction(request)
    said = _PATHISH.sub(" ", words)
    if not ASKED.search(said) or _PICKED.search(said) or _IN_MONTH.search(said):
        return None
    tables = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in (".csv", ".tsv")]
    if len(tables) != 1:
        return None
    table = _table(tables[0])
    asked = asked_column(words, cwd, amounts=True)
    column = asked[0] if asked else (_measured(said, table) or _only_number(table))
    # "per route" of a route column that repeats is a group; "per night" of a night column of one row a night is every row
    groups = {t for c, vs in table.items() if len(set(vs)) < len(vs) for t in _tokens(c)}
    if column not in table or any(_tokens(" ".join(w for w in m.groups() if w)) & groups for m in _EACH.finditer(said)):
        return None
    # a value of the file named ("the average price of oat lattes"): rows are to be picked, not a plain average
    values = {v.lower() for c, vs in table.items() if c != column for v in vs if re.fullmatch(r"[A-Za-z][\w '&-]{2,}", v)}
    if any(w in values for w in re.findall(r"[a-z][\w'-]{2,}", said.lower())) or any(v in said.lower() for v in values if " " in v):
        return None
    return str(tables[0].relative_to(cwd)) if tables[0].is_relative_to(cwd) else str(tables[0]), column


# Words that say what is measured, and the column names that measure it: "what do my loaves weigh on average?"
# of loaf_weight_g, "how much have I paid for a bag, on average?" of price_gbp (the words right after "average",
# which rule asked column reads, name nothing there).
_MEASURE_WORDS = {"weigh": "weight", "weighs": "weight", "paid": "price cost amount paid", "pay": "price cost amount paid",
                  "spent": "amount cost price spent", "spend": "amount cost price spent", "cost": "cost price amount",
                  "sleep": "sleep slept", "slept": "sleep slept", "far": "distance km mile miles"}


def _measured(said: str, table: dict[str, list[str]]) -> str | None:
    """The one numeric column a measure word of the request names, or None."""
    from oi_local.core.rules.asked_column import _numeric, _tokens

    wanted = {w for word in re.findall(r"[a-z]+", said.lower()) for w in _MEASURE_WORDS.get(word, "").split()}
    fits = [c for c, values in table.items() if _numeric(values, amounts=True) and _tokens(c) & {w.removesuffix("s") for w in wanted}]
    return fits[0] if len(fits) == 1 else None


_NOT_MEASURED = {"id", "no", "number", "num", "year", "month", "day", "week", "code", "zip", "phone", "ref", "index", "rank"}


def _only_number(table: dict[str, list[str]]) -> str | None:
    """The file's one column of numbers (ids and years aside): "What was my average?" of date,resting_bpm can
    only mean resting_bpm (ho52: nothing named it, and the model's runs failed four times)."""
    from oi_local.core.rules.asked_column import _numeric, _tokens

    fits = [c for c, values in table.items() if _numeric(values, amounts=True) and not _tokens(c) & _NOT_MEASURED]
    return fits[0] if len(fits) == 1 else None


def ready_code(file: str, column: str) -> str:
    # "$12.50" and "1,200" are numbers too: only digits, the point and a minus sign are kept
    return (f"import csv\nimport re\nwith open({file!r}, newline='', encoding='utf-8', errors='replace') as f:\n"
            f"    values = [float(re.sub(r'[^0-9.-]', '', r[{column!r}])) for r in csv.DictReader(f) if (r[{column!r}] or '').strip()]\n"
            f"print('average {column}:', round(sum(values) / len(values), 2), f'(over {{len(values)}} rows)')")


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["plain average"]:
        return None
    try:
        found = _target(turn.request, Path.cwd())
        if found is None or re.search(rf"['\"]{re.escape(found[1])}['\"]", block.code) or _mean(*found) is None:
            return None
    except (OSError, ValueError):  # a value that is no number further down: the loop's code would fail on it
        return None
    file, column = found
    turn.counts["plain average"] += 1
    return Verdict(note=NOTE.format(column=column, file=file),
                   ask=own_code(turn.engine, ASK.format(column=column, file=file), ready_code(file, column), HOW))


AFTER = "(That did not print the average of {column} in {file}: a total divided by a count."


def _mean(file: str, column: str) -> float | None:
    import csv

    from oi_local.core.number_signs import amount

    with open(file, newline="", encoding="utf-8", errors="replace") as f:
        cells = [v for r in csv.DictReader(f) if (v := (r.get(column) or "").strip())]
    values = []
    for cell in cells:
        number = amount(cell)
        if number is None:
            raise ValueError(f"{cell!r} is no number")  # the loop's code would fail on it
        values.append(number)
    return sum(values) / len(values) if values else None


def after_run(turn: Turn) -> Ask | None:
    """A run for a plain average that failed, or printed no number near the column's mean (a sum never divided, a
    table of one mean a night, one day's rows), gets the loop's code for it, once a turn."""
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["plain average"]:
        return None
    try:
        found = _target(turn.request, Path.cwd())
        mean = _mean(*found) if found else None
    except (OSError, ValueError):
        return None
    if found is None or mean is None:
        return None
    lines = [ln for ln in last.output.splitlines() if ln.strip()]
    if len(lines) > 3:  # a table (one mean a night): only a line that says it is an average can hold the answer
        lines = [ln for ln in lines if re.search(r"average|mean|avg", ln, re.I)]
    printed = [float(n.replace(",", "")) for ln in lines[:50] for n in re.findall(r"-?\d[\d,]*(?:\.\d+)?", ln)]
    if not last.failed and any(abs(n - mean) <= max(0.051, abs(mean) * 0.005) for n in printed):
        return None
    turn.counts["plain average"] += 1
    file, column = found
    return own_code(turn.engine, AFTER.format(column=column, file=file), ready_code(file, column), HOW)


rule = Rule(
    name="plain average", setting="check_answers", check=check, after_run=after_run,
    summary="a request for a plain average (no group, month, year or value of the file named, nothing left out) whose "
            "words after \"average\" (or a measure word: weigh, paid, spent, sleep) name one numeric column of the one CSV "
            "file it names, with code that never reads that column: the loop offers its own code that prints the column's "
            "mean (blanks skipped); so does a run that failed or printed no number near that mean (a sum never divided, "
            "a table of means per row); \"per night\" of a column with one row a night is no group")
