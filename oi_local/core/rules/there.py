"""There: a follow-up about "there" or "that city" means the one place (or person, or thing) the last answer named.
Asked which city in temps.csv had the single hottest day, then "What was the coldest night there?", the 0.5B model
took the coldest night of every city (ho54, session 55). When the last answer names exactly one value of a column
whose values repeat (a city on many rows) in one CSV here, and the new code walks records it reads by that file's
column names with no condition at all, it walks only the rows with that value; the person is told."""
from __future__ import annotations

import ast
import csv
import re
from typing import Sequence

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: only the rows where {column} is {value!r}, as the request says {word}."
# "there" as a place, not "is there any ...", "there were 3"
_THERE = re.compile(r"\b((?<!is\s)(?<!are\s)(?<!was\s)(?<!were\s)(?<!be\s)there(?!\s+(?:is|are|was|were|be|any)\b|'s)|"
                    r"(?:that|this|the\s+same)\s+([a-z]+))\b", re.I)
MAX_REQUEST = 200  # characters: a follow-up, not a new task
_ANY = {"one", "place", "person", "guy", "lady", "man", "woman", "spot"}  # "that one": any column


def named_value(answer: str, word: str) -> tuple[str, str, list[str]] | None:
    """(column, value, the file's columns) of the one value the answer names, in a column whose values repeat (and,
    for "that city", whose name is the word), of exactly one small CSV here."""
    from oi_local.core.records import stems
    from oi_local.core.rules.their_details import named_once, small_tables

    found = []
    for _, rows in small_tables():
        for column in rows[0]:
            if word and not stems(column) & stems(word):
                continue
            value = named_once(rows, column, answer, signs=".-")  # a date (2024-07-02) is no place
            if value is not None:
                found.append((column, value, list(rows[0])))
    return found[0] if len(found) == 1 else None


def _row_walks(code: str, columns: list[str]) -> list[ast.comprehension | ast.For]:
    """The unfiltered walks whose loop name is read by the file's column names (`row["min_c"]`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []

    def keyed(var: str, body: Sequence[ast.AST]) -> bool:
        return any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == var
                   and isinstance(n.slice, ast.Constant) and n.slice.value in columns
                   for part in body for n in ast.walk(part))

    walks: list[ast.comprehension | ast.For] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.For) and isinstance(n.target, ast.Name) and n.body \
                and not any(isinstance(s, ast.If) for s in n.body) and n.body[0].lineno != n.lineno \
                and keyed(n.target.id, n.body):
            walks.append(n)
        elif isinstance(n, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)) and len(n.generators) == 1:
            gen = n.generators[0]
            parts = [n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]
            if isinstance(gen.target, ast.Name) and not gen.ifs and gen.iter.end_lineno == gen.iter.lineno \
                    and keyed(gen.target.id, parts):
                walks.append(gen)
    return walks


def _keyed_picks(code: str, columns: list[str]) -> list[ast.Name]:
    """The records handed whole to max(), min() or sorted() with a key that reads them by the file's column names
    (`min(rows, key=lambda row: float(row["min_c"]))`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    picks = []
    for n in ast.walk(tree):
        key = next((k.value for k in n.keywords if k.arg == "key"), None) if isinstance(n, ast.Call) else None
        if isinstance(n, ast.Call) and ast.unparse(n.func) in ("max", "min", "sorted") and n.args \
                and isinstance(n.args[0], ast.Name) and isinstance(key, ast.Lambda) and len(key.args.args) == 1 \
                and any(isinstance(s, ast.Subscript) and isinstance(s.value, ast.Name) and s.value.id == key.args.args[0].arg
                        and isinstance(s.slice, ast.Constant) and s.slice.value in columns for s in ast.walk(key.body)):
            picks.append(n.args[0])
    return picks


def narrowed(code: str, column: str, value: str, columns: list[str]) -> str:
    from oi_local.core.pycheck import rewrite
    from oi_local.core.rules.those import body_under_if

    lines = code.splitlines(keepends=True)
    edits: list[tuple[int, int, int, str]] = []
    for walk in _row_walks(code, columns):
        var = ast.unparse(walk.target)
        test = f"str({var}[{column!r}]).strip() == {value!r}"
        if isinstance(walk, ast.For):
            edits += body_under_if(lines, walk, test)
        else:
            end = walk.iter.end_col_offset or 0
            edits.append((walk.iter.lineno, end, end, f" if {test}"))
    for name in _keyed_picks(code, columns):
        edits.append((name.lineno, name.col_offset, name.end_col_offset or 0,
                      f"(r for r in {name.id} if str(r[{column!r}]).strip() == {value!r})"))
    return rewrite(code, edits) if edits else code


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.their_details import earlier_answer

    words = instruction(turn.request)
    said = _THERE.search(words) if block.lang == "python" and len(words) <= MAX_REQUEST else None
    answer = earlier_answer(turn.engine.messages) if said else ""
    if not said or not answer:
        return None
    try:
        word = (said.group(2) or "").lower()
        found = named_value(answer, "" if word in _ANY else word)
    except (OSError, UnicodeError, csv.Error):
        return None
    if found is None:
        return None
    column, value, columns = found
    if value in block.code:
        return None  # the code already picks it
    new = narrowed(block.code, column, value, columns)
    if new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(column=column, value=value, word=f'"{said.group(1)}"'))


rule = Rule(
    name="there", setting="repair_slips", check=check,
    summary="a follow-up about \"there\" or \"that city\" after an answer that named one value of a column whose values "
            "repeat in one CSV here (a city), whose code walks that file's rows with no condition, walks only the rows "
            "with that value; the person is told")
