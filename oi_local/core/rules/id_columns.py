"""Id columns: asked how many days orders take to be delivered on average, from a file with no
delivery dates (columns order_id, customer, status, ...), the 0.5B model averaged order_id and
answered 10233.6 (ho39). An identifier is a label, not an amount: code that adds up, averages or
converts to a number a column named id or ..._id, for a request that asks an amount and does not
speak of ids, is not run. It is asked afresh once, told the named files' columns and to say plainly
when none holds what was asked; a second such try ends the turn saying so."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction

NOTE = "Not run: the code {does} {column}, an identifier, not an amount; asked afresh."
ASK = ("(Not run: {column} in {path} is an identifier, not an amount, so its {does_noun} answers nothing. "
       "{path} has the columns {columns}. Write one ```python block that computes what I asked from the column "
       "that holds it; if none of them holds it, print that {path} does not have it.)")
STOP = ("{path} does not seem to have what the question needs (its columns are {columns}); "
        "the code tried to use {column}, an identifier, as an amount.")
_AMOUNT = re.compile(r"\b(?:average|mean|median|total|sum|add(?:s|ed)?\s+up|on\s+average|how\s+(?:many|much|long))\b",
                     re.I)
_IDS = re.compile(r"\b(?:ids?|identifiers?|numbers?)\b", re.I)
_NUMBER_CALLS = {"int", "float", "sum", "mean", "median", "fmean", "Decimal"}
_NUMBER_METHODS = {"mean", "sum", "median", "astype", "cumsum", "diff"}


def id_column(name: str) -> bool:
    """`id`, `order_id`, `orderId`, `Order ID`."""
    return bool(re.search(r"(?:^|[_\s-])id$|[a-z]Id$|^ID$|[_\s]ID$", name.strip()))


def _columns(request: str, cwd: Path) -> tuple[Path, list[str]] | None:
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _table

    for p in mentioned_paths(request, cwd):
        if p.is_file() and p.suffix.lower() in (".csv", ".tsv"):
            columns = list(_table(p))
            if columns:
                return p, columns
    return None


def used_as_number(code: str, ids: set[str]) -> str | None:
    """The id column the code takes as a number: `int(r["order_id"])`, `df["order_id"].mean()`."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and n.slice.value in ids):
            continue
        node: ast.AST = n
        for _ in range(3):
            up = parents.get(node)
            if up is None:
                break
            if isinstance(up, ast.Call) and node in up.args:
                f = up.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in _NUMBER_CALLS:
                    return str(n.slice.value)
            if isinstance(up, ast.Attribute) and up.value is node and up.attr in _NUMBER_METHODS:
                return str(n.slice.value)
            node = up
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    asked = instruction(turn.request)
    if block.lang != "python" or not _AMOUNT.search(asked) or _IDS.search(asked):
        return None
    found = _columns(turn.request, Path.cwd())
    if found is None:
        return None
    path, columns = found
    ids = {c for c in columns if id_column(c)}
    column = used_as_number(block.code, ids) if ids else None
    if column is None:
        return None
    names = ", ".join(columns)
    if turn.counts["id column"] >= 1 or not turn.steps_left:
        return Verdict(note=STOP.format(path=path.name, columns=names, column=column), stop=True)
    turn.counts["id column"] += 1
    return Verdict(note=NOTE.format(does="takes as a number", column=column),
                   ask=Ask(ASK.format(column=column, path=path.name, does_noun="average or total", columns=names),
                           code_retry(turn.engine, 19), hide=True))


rule = Rule(
    name="id columns", setting="computed_answers", check=check,
    summary="asked an amount (an average, a total, how many), code that takes a column named id or ..._id of the named "
            "CSV file as a number (`int(r[\"order_id\"])`, `df[\"order_id\"].mean()`) is not run, unless the request speaks "
            "of ids; asked afresh once, told the file's columns and to say when none holds the answer; a second such try "
            "ends the turn saying the file does not seem to have it")
