"""Picked values: code that prints one entry of what it worked out by a key typed into it
(`print(averages["Abbott"])`), where the key is a value in the data file the code reads and no request of
the conversation names it, answers for one row or group the person never asked about: the answer picked,
then dressed as found. Asked plainly for the average score in a CSV of students' scores, the 0.5B model
built each student's average and printed the first student's. The code is not run and the request is asked
afresh once (sampled, the try hidden, the key not said: named in an ask, the model writes it again)."""
from __future__ import annotations

import ast
import csv
import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

NOTE = ("(A first try was not run: it printed the value for one entry, {column}, typed into the code, which I never "
        "named. Write one ```python block that answers what I asked from all the data.)")
SHOWN = "Not run: the code prints the value for {key}, typed in, which the request does not name; asked afresh."
_WORD = re.compile(r"[a-z0-9]{3,}")


def _printed_keys(tree: ast.Module) -> list[str]:
    """Text keys of subscripts inside print() calls: `print(totals["Food"])`, `print(f"{avg['Ann']:.2f}")`."""
    keys = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print":
            for s in ast.walk(n):
                if isinstance(s, ast.Subscript) and isinstance(s.slice, ast.Constant) and isinstance(s.slice.value, str):
                    keys.append(s.slice.value)
    return list(dict.fromkeys(k for k in keys if k.strip()))


def _data_values(tree: ast.Module) -> dict[str, str]:
    """Values (not headers or keys) of the CSV and JSON files the code names, each with its column or key."""
    from pathlib import Path

    from oi_local.core.records import records

    found: dict[str, str] = {}
    paths = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and n.value.lower().endswith((".csv", ".json"))}
    for path in sorted(paths):
        try:
            rows = records(Path(path)) or []
        except (OSError, csv.Error):
            continue
        for row in rows:
            for k, v in row.items():
                if isinstance(v, str) and v.strip():
                    found.setdefault(v.strip(), str(k))
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["picked values"] or not turn.steps_left:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    keys = _printed_keys(tree)
    if not keys:
        return None
    values = _data_values(tree)
    # what the person said, and what earlier turns showed them ("set that one to 100" names an earlier answer's row)
    messages = turn.engine.messages
    asked = " ".join(str(m.get("content", "")) for i, m in enumerate(messages)
                     if m.get("role") == "user" or (i < turn.start and m.get("type") in ("message", "console"))).lower()
    said = set(_WORD.findall(asked))
    # a key any of whose words the person used is theirs ("food" for "Food & Drink"); a header is a column, not a pick
    picked = [k for k in keys if k in values and k.lower() not in asked and not set(_WORD.findall(k.lower())) & said]
    if not picked:
        return None
    turn.counts["picked values"] += 1
    column = f"one {values[picked[0]]}"
    return Verdict(note=SHOWN.format(key=repr(picked[0])),
                   ask=Ask(NOTE.format(column=column), code_retry(turn.engine, 19), hide=True))


rule = Rule(
    name="picked values", setting="computed_answers", check=check,
    summary="code that prints one entry of what it worked out by a key typed into it (`print(averages[\"Abbott\"])`), "
            "a value of the data file it reads that no request names, is not run; the request is asked afresh once "
            "(sampled, the try hidden, the key not said)")
