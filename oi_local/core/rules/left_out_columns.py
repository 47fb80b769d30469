"""Left-out columns: "From library_loans.csv, make overdue.csv with only the loans that haven't been returned and
were due before June 1, 2024." The 0.5B model kept the loans due before June and never looked at the returned
column (ho58, session 59's start). Python code that makes a new file of some rows of a named CSV ("only", "just",
"where" ...), reading the CSV's columns by name, but never naming a column the request names as a word ("returned"),
is not run; the request is asked afresh once (sampled, the try hidden), naming the column it left out. Not when the
request lists the columns to write (named_columns.py), nor for a column named only in a file's name.
A question about a named CSV likewise: asked which plants "need watering more often than once a week", the model
ran a worked example's count of repeated plant names and answered "0 repeated: {}", never looking at
water_every_days (ho59, session 60's start). Code that reads the CSV's columns by name, none of them one the
question's words name ("watering": water), while some other column is, is asked afresh once the same way."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction

NOTE = ("(Write one ```python block that does what I asked. A first try never looked at the {columns} column of {file}, "
        "which my request is about.)")
SHOWN = "Not run: the code never looks at the {columns} column of {file}, which the request names; asked afresh."
SUFFIXES = {".csv", ".tsv"}
# rows kept by what they hold: "with only the loans that ...", "just the ones where ..." (a whole table turned into JSON
# while asked which item costs the most needs no item column named: ho55's right code)
_NARROWED = re.compile(r"\b(?:only|just|where|whose|except|excluding|without)\b", re.I)


def _strings(tree: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}


def left_out(request: str, code: str, cwd: Path) -> tuple[str, list[str]] | None:
    """(the named CSV, the columns of it the request names that the code never does), or None."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _table, _tokens
    from oi_local.core.rules.named_columns import named
    from oi_local.core.rules.outputs import TARGET

    words = instruction(request)
    made = {m.group(1) for m in TARGET.finditer(words)}
    inputs = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in SUFFIXES and p.name not in made]
    if len(inputs) != 1 or not made or named(words) or not _NARROWED.search(words):
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    columns = list(_table(inputs[0]))
    used = _strings(tree) & set(columns)
    if not used or inputs[0].name not in code:
        return None  # the file copied whole, or read by position: no column is looked at by name
    said = _tokens(re.sub(r"[\w.-]+\.\w{2,4}\b", " ", words))  # file names are no column words
    missing = [c for c in columns if c not in used and len(c) >= 3 and _tokens(c) and _tokens(c) <= said]
    return (inputs[0].name, missing) if missing else None


def _stems(text: str) -> set[str]:
    """Words of four letters or more, lower case, a last -ing, -ed or -s dropped (watering, watered: water)."""
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", text)
    out = set()
    for w in (w.lower() for w in words if len(w) >= 4):
        for suffix in ("ing", "ed", "s"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 4:
                w = w[: -len(suffix)]
                break
        out.add(w)
    return out


def question_left_out(request: str, code: str, cwd: Path) -> tuple[str, list[str]] | None:
    """Of a question about one named CSV: (the CSV, its columns the question's words name) when the code reads
    columns by name and none of them is one the question names."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _table
    from oi_local.core.writes import question

    words = instruction(request)
    inputs = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in SUFFIXES]
    if len(inputs) != 1 or not question(words) or inputs[0].name not in code:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    columns = list(_table(inputs[0]))
    used = _strings(tree) & set(columns)
    said = _stems(re.sub(r"[\w.-]+\.\w{2,4}\b", " ", words)) - _stems(inputs[0].stem)
    if not used or any(_stems(c) & said for c in used):
        return None
    missing = [c for c in columns if c not in used and _stems(c) & said]
    return (inputs[0].name, missing) if missing else None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["left out columns"]:
        return None
    found = left_out(turn.request, block.code, Path.cwd()) or question_left_out(turn.request, block.code, Path.cwd())
    if found is None:
        return None
    turn.counts["left out columns"] += 1
    file, missing = found
    columns = " and ".join(missing[:3])
    return Verdict(note=SHOWN.format(columns=columns, file=file),
                   ask=Ask(NOTE.format(columns=columns, file=file), code_retry(turn.engine, 59), hide=True))


rule = Rule(
    name="left out columns", setting="check_answers", check=check,
    summary="Python code that makes a new file of some rows of a named CSV, reading its columns by name, but never names a column "
            "the request names as a word (\"the loans that haven't been returned\" and a returned column) is not run; the "
            "request is asked afresh once, sampled, naming the column left out (only for some rows: \"only\", \"just\", "
            "\"where\" ...; not when the request lists the columns to write); so is code for a question about a named CSV "
            "that reads columns by name, none of them one the question's words name, while another column is (\"need "
            "watering\" and water_every_days)")
