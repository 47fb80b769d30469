"""Filtered totals: "How much money did oat lattes make us in March? Everything is in sales.csv." The 0.5B
model copied an example's department filter, summed a column by position, typed the dates in as numbers,
and ran out of tries (ho41). A request for one total or average (no group: not "per", "each", "which ...
most") over one named CSV, narrowed the way the per-group code narrows (a value of a text column, a year
or a month of its date column), with the amount known (the column the request names, the one money
column, or quantity times price), gets the loop's own code after a second failed run, or a run that printed no number:
the rows narrowed, then their total or average. Once a turn."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not work out the {what} of {column} in {file} over the rows asked about."
HOW = "This block does it; reply with it, then answer with the {what} it prints."
_TOTAL = re.compile(r"\b(?:how\s+much|total|sum|add(?:ed)?\s+up|altogether|in\s+all|spen[dt]|paid|made?|earn\w*|"
                    r"brought\s+in|revenue|takings)\b", re.I)
_QTY = re.compile(r"(?:^|_)(?:qty|quantity|units|count|number|amount_sold|sold)$", re.I)
_PRICE = re.compile(r"(?:^|_)(?:unit_?price|price|price_each|each|cost|rate)$|price", re.I)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def asked(request: str, cwd: Path) -> dict[str, Any] | None:
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _numeric, _table, asked_column
    from oi_local.core.rules.averages import ASKED
    from oi_local.core.rules.per_group import _AMOUNT, _EACH, _LABEL, ASKS, filters
    from oi_local.core.rules.plain_average import _measured

    words = instruction(request)
    mean = bool(ASKED.search(words))
    if not (mean or _TOTAL.search(words)) or ASKS.search(words) or _EACH.search(words) or "\n" in words.strip():
        return None
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() == ".csv"]
    if len(files) != 1:
        return None
    base = cwd.resolve()
    file = str(files[0].relative_to(base)) if files[0].is_relative_to(base) else str(files[0])
    table = _table(files[0])
    named = asked_column(words, cwd, amounts=True)
    column = named[0] if named else _measured(words, table)
    if column is None and _AMOUNT.search(words):
        numbers = [c for c, v in table.items() if _numeric(v, amounts=True) and not _LABEL.search(c)]
        qty = [c for c in numbers if _QTY.search(c)]
        price = [c for c in numbers if _PRICE.search(c) and c not in qty]
        money = [c for c in numbers if re.search(r"total|amount|revenue|paid|spent|cost|price|eur|usd|gbp", c, re.I)]
        if len(qty) == 1 and len(price) == 1 and not [c for c in money if c not in price]:
            column = f"{qty[0]}*{price[0]}"  # quantity times price: what the rows brought in
        elif len(money) == 1:
            column = money[0]
    narrow = filters(words, file, "") if column else None
    if not narrow:
        return None  # nothing narrowed (a plain average or total is another rule's), or narrowed in a way not covered
    return {"file": file, "column": column, "mean": mean, "narrow": narrow}


def ready_code(found: dict[str, Any]) -> str:
    column = found["column"]
    number = "pd.to_numeric(df[{c!r}].astype(str).str.replace(r'[^0-9.\\-]', '', regex=True), errors='coerce')"
    if "*" in column:
        a, b = column.split("*", 1)
        values = f"{number.format(c=a)} * {number.format(c=b)}"
    else:
        values = number.format(c=column)
    what = "average" if found["mean"] else "total"
    return "\n".join(["import pandas as pd", f"df = pd.read_csv({found['file']!r})", *found["narrow"],
                      f"values = {values}",
                      "print(len(df), 'rows:')", "print(df.head(10).to_string(index=False))",
                      f"print({what + ':'!r}, round(float(values.{'mean' if found['mean'] else 'sum'}()), 2))"])


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["filtered totals"]:
        return None
    if not last.failed and _NUMBER.search(last.output):
        return None  # a number printed: the answers rules look at it
    if last.failed and turn.failures < 2:
        return None  # the first failure's note may mend the model's code (it keeps the model's own way)
    try:
        found = asked(turn.request, Path.cwd())
    except (OSError, ValueError):
        return None
    if found is None:
        return None
    turn.counts["filtered totals"] += 1
    what = "average" if found["mean"] else "total"
    column = found["column"].replace("*", " times ")
    return own_code(turn.engine, NOTE.format(what=what, column=column, file=found["file"]), ready_code(found),
                    HOW.format(what=what))


rule = Rule(
    name="filtered totals", setting="check_answers", after_run=after_run,
    summary="a request for one total or average (no group) over one named CSV, narrowed by a value of a text column or "
            "a year or month of its date column, with the amount known (a named column, the one money column, or "
            "quantity times price): a second failed run, or one that printed no number, gets the loop's own code (once a turn)")
