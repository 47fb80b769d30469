"""Top N: "Of the books in bookshelf.json that I actually finished, which 3 did I rate highest?" The 0.5B
model took the one best book, then counted the finished ones and answered "8 is the largest area" (ho40).
When a request asks for the top (or bottom) N rows of one named CSV or JSON file by a number column it
names ("rate" for my_rating), and the code does not take N rows sorted by that column, the code is not
run and the model is given the pandas code that does: the rows narrowed by the values of text columns the
request says ("finished"; not when it says them negated: "haven't finished"), sorted, the first N printed
numbered with their name and number."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.records import (
    load_code,
    narrow_code,
    number_columns,
    records,
    said_values,
    stems,
    text_columns,
)
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = ("(Write one ```python block that does what I asked: the {n} rows of {file} with the {way} {column}{narrowed}, "
        "printed with their {label}.")
SHOWN = "Not run: the code does not take the {n} rows with the {way} {column}; asked afresh with the code that does."
_COUNT = r"(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)"
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_HIGH = r"highest|most|best|top|largest|biggest|greatest|longest|heaviest|oldest|priciest|lowest|least|worst|fewest|" \
        r"smallest|cheapest|shortest|lightest|newest|youngest"
_LOW = re.compile(r"\b(?:lowest|least|worst|fewest|smallest|cheapest|shortest|lightest|bottom)\b", re.I)
_ASKS = re.compile(rf"\b(?:top|bottom|best|worst|highest|lowest)\s+{_COUNT}\b|\b(?:which|what)\s+{_COUNT}\b[^.?!]*?\b(?:{_HIGH})\b"
                   rf"|\b{_COUNT}\s+(?:{_HIGH})\b", re.I)


def asked(request: str, cwd: Path) -> dict[str, object] | None:
    """What to take: file, n, the number column, the label column, lowest first or not, filters {column: values}."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    m = _ASKS.search(words)
    if m is None:
        return None
    count = next(g for g in m.groups() if g)
    n = int(count) if count.isdigit() else _WORDS[count.lower()]
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in (".csv", ".json")]
    rows = records(files[0]) if len(files) == 1 else None
    if not rows or n < 2 or n >= len(rows):
        return None
    numbers = number_columns(rows)
    said = stems(words)
    named = [c for c in numbers if stems(c) & said]
    if len(named) != 1:
        return None
    texts = text_columns(rows)
    label = next((c for c in texts if re.search(r"title|name", c, re.I)), None) or \
        next((c for c in texts if len({r.get(c) for r in rows}) == len(rows)), None)
    if label is None:
        return None
    filters = said_values(words, rows, {label})
    if filters is None:
        return None  # "the ones I haven't finished": not a value to keep
    return {"file": os.path.relpath(files[0], cwd.resolve()), "n": n, "column": named[0], "label": label,
            "lowest": bool(_LOW.search(m.group(0))), "filters": filters, "json": files[0].suffix.lower() == ".json"}


def ready_code(found: dict[str, object]) -> str:
    file, n, column, label = found["file"], found["n"], found["column"], found["label"]
    filters = found["filters"]
    assert isinstance(filters, dict) and isinstance(file, str)
    head, narrow = load_code(file), narrow_code(filters)
    return (head + narrow + f"df[{column!r}] = pd.to_numeric(df[{column!r}], errors='coerce')\n"
            f"top = df.sort_values({column!r}, ascending={bool(found['lowest'])}, kind='stable').head({n})\n"
            f"for i, (name, value) in enumerate(zip(top[{label!r}], top[{column!r}]), 1):\n"
            f"    print(f'{{i}}. {{name}}: {{value:g}}')")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["top n"] or block.lang != "python":
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    n, column, filters = found["n"], str(found["column"]), found["filters"]
    assert isinstance(filters, dict)
    takes = re.search(rf"(?:head|nlargest|nsmallest)\(\s*{n}\b|\[:\s*{n}\s*\]", block.code)
    if takes and column in block.code and all(v in block.code for vs in filters.values() for v in vs):
        return None  # the code takes the rows itself
    turn.counts["top n"] += 1
    way = "lowest" if found["lowest"] else "highest"
    filters = found["filters"]
    assert isinstance(filters, dict)
    narrowed = "".join(f", {c} {' or '.join(v)}" for c, v in filters.items())
    ask = own_code(turn.engine, NOTE.format(n=n, file=found["file"], way=way, column=column, narrowed=narrowed,
                                            label=found["label"]), ready_code(found))
    return Verdict(note=SHOWN.format(n=n, way=way, column=column), ask=ask)


rule = Rule(
    name="top n", setting="asked_column", check=check,
    summary="asked for the top (or bottom) N rows of one named CSV or JSON file by a number column it names (\"which 3 "
            "did I rate highest\"), code that does not take N rows sorted by that column is not run and the model is "
            "given the pandas code that does: narrowed by the values of text columns the request says (not negated), "
            "the N rows printed numbered with their name and number")
