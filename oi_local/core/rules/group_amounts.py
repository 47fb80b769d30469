"""Group amounts: "Work out the median asking price for each neighbourhood in listings.csv and save it as
medians.csv, with the neighbourhood and its median price." The 0.5B model added the prices up per neighbourhood,
divided each sum by the number of all listings, then called csv.DictWriter without fieldnames; its two retries
failed too (ho42). A median, an average or a total of one column for each value of another is one pandas line.
When the request asks for such an amount for each group of a named CSV whose group column repeats, and asks to
save it to a CSV file, code that does not group that way is not run and the model is given the code that does:
each group's amount printed, rounded to two decimals, and written with the group column and the amount's name."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: the {agg} of {column!r} for each {group} in {file}, saved to {out}."
SHOWN = "Not run: the code does not work out the {agg} of {column} per {group}; asked afresh with the code that does."
_AGGS = (("median", re.compile(r"\bmedians?\b", re.I)), ("mean", re.compile(r"\b(?:average|avg|mean)\b", re.I)),
         ("sum", re.compile(r"\b(?:total|sum)\b", re.I)))
_SAVE = re.compile(r"\b(?:save|write|put|store|export)\w*\b[^?!\n]{0,80}?\b(?:to|in|into|as)\s+(?:a\s+)?(?:(?:new\s+)?file\s+"
                   r"(?:called\s+|named\s+)?)?((?:[\w-]+/)*[\w.-]+\.csv)\b", re.I)


def asked(request: str, cwd: Path) -> tuple[str, str, str, str, str] | None:
    """(file, group column, number column, "median"/"mean"/"sum", CSV to write)."""
    from oi_local.core.rules.per_group import per_each

    words = instruction(request)
    save = _SAVE.search(words)
    aggs = [name for name, pattern in _AGGS if pattern.search(words)]
    if save is None or len(aggs) != 1:
        return None
    found = per_each(words.replace("median", "average").replace("Median", "Average"), cwd)
    if found is None or "[" in found[1]:
        return None
    file, group, column = found
    out = str(save.group(1))
    if column is None:
        return None
    if Path(out).name == Path(file).name:
        return None  # the data file itself rewritten: not a table of results
    return file, group, column, aggs[0], out


def ready_code(file: str, group: str, column: str, agg: str, out: str) -> str:
    name = {"median": "median", "mean": "average", "sum": "total"}[agg]
    return (f"import pandas as pd\ndf = pd.read_csv({file!r})\n"
            f"# amounts written like '£1,200' are numbers too\n"
            f"values = pd.to_numeric(df[{column!r}].astype(str).str.replace(r'[^0-9.\\-]', '', regex=True), errors='coerce')\n"
            f"result = values.groupby(df[{group!r}]).{agg}().round(2)\n"
            f"print(result.to_string())\n"
            f"table = result.reset_index()\ntable.columns = [{group!r}, {name + '_' + column!r}]\n"
            f"table.to_csv({out!r}, index=False)\nprint(len(table), 'rows written to', {out!r})")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["group amounts"] or block.lang != "python":
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    file, group, column, agg, out = found
    if "groupby" in block.code and f".{agg}(" in block.code and out in block.code:
        return None  # grouped that way, and written
    turn.counts["group amounts"] += 1
    word = {"median": "median", "mean": "average", "sum": "total"}[agg]
    ask = own_code(turn.engine, NOTE.format(agg=word, column=column, group=group, file=file, out=out),
                   ready_code(file, group, column, agg, out))
    return Verdict(note=SHOWN.format(agg=word, column=column, group=group), ask=ask)


rule = Rule(
    name="group amounts", setting="repair_slips", check=check,
    summary="asked for the median, average or total of a column for each value of another in a named CSV (that repeats) "
            "and to save it to a CSV file, code that does not group that way is not run; the model is given the pandas "
            "code that does: each group's amount printed, rounded to two decimals, and written with the group column")
