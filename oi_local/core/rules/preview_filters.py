"""Preview filters: the model sees the first lines of a file the request names (core/hints.py) and
the 0.5B model often copies that first record into its code as a filter the request never asked
for: asked which pet's vaccination ran out first, it kept only `pet["species"] == "dog" and
pet["born"] == "2019-04-11"` (the first pet's values) and answered about that one pet. Code that
compares a field of a named CSV or JSON file with the value the file's first record has there, when
the request says nothing like it, is not run; the request is asked afresh once (sampled, the try
hidden), naming the filter to leave out."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

NOTE = ("(Write one ```python block that does what I asked, over all the records of {file}. A first try kept only "
        "the rows where {filters}, which I did not ask for.)")
SHOWN = "Not run: the code keeps only the rows where {filters} (the first record's values), which the request does not ask for; asked afresh."
SUFFIXES = {".csv", ".tsv", ".json"}


def _firsts(p: Path) -> dict[str, str]:
    """Each field of the file's first record with its value, as text."""
    from oi_local.core.rules.asked_column import _table
    from oi_local.core.rules.named_values import records

    table = records(p) if p.suffix.lower() == ".json" else _table(p)
    return {c: v[0] for c, v in table.items() if v}


def _compared(tree: ast.AST) -> list[tuple[str, str]]:
    """(field, value) of each `x["field"] == "value"` (either side) in the code."""
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], ast.Eq)):
            continue
        sides = [n.left, n.comparators[0]]
        keys = [s.slice.value for s in sides if isinstance(s, ast.Subscript) and isinstance(s.slice, ast.Constant)
                and isinstance(s.slice.value, str)]
        values = [s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, (str, int, float))
                  and not isinstance(s.value, bool)]
        if len(keys) == 1 and len(values) == 1:
            found.append((keys[0], str(values[0])))
    return found


def _said(request: str, value: str) -> bool:
    """The request says the value or a word of it (or a word inside it: "unpaid" for "paid")."""
    from oi_local.core.dates import named_dates

    low = request.lower()
    if value.lower() in low:
        return True
    iso = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)", value)  # "on 1 Nov" names 2025-11-01
    if iso and any((n.month, n.day) == (int(iso.group(2)), int(iso.group(3))) for n in named_dates(request)):
        return True
    words = {w.rstrip("s") for w in re.findall(r"[a-z0-9]{3,}", low)}
    return any(w in value.lower() or value.lower().rstrip("s") in w for w in words if len(w) >= 4) \
        or any(w.rstrip("s") in words for w in re.findall(r"[a-z0-9]{3,}", value.lower()))


def _field_said(request: str, field: str) -> bool:
    """The request names the field ("the loans that haven't been returned" for `r["returned"] == "no"`): a filter on it
    was asked for (ho58's writer saw the right filter refused)."""
    stems = [re.sub(r"(?:ed|ing|s)$", "", w) for w in re.findall(r"[a-z]{4,}", field.lower())]
    return any(re.search(rf"\b{re.escape(s)}", request, re.I) for s in stems if len(s) >= 4)


def unasked(request: str, code: str, cwd: Path) -> tuple[str, list[tuple[str, str]]] | None:
    from oi_local.core.hints import mentioned_paths

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    compared = _compared(tree)
    if not compared:
        return None
    for p in mentioned_paths(request, cwd):
        if not (p.is_file() and p.suffix.lower() in SUFFIXES and p.stem in code):
            continue
        first = _firsts(p)
        copied = [(f, v) for f, v in compared if first.get(f) == v and not _said(request, v)
                  and not _field_said(request, f)]
        if copied:
            return p.name, copied
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["preview filters"]:
        return None
    found = unasked(turn.request, block.code, Path.cwd())
    if found is None:
        return None
    turn.counts["preview filters"] += 1
    file, copied = found
    filters = " and ".join(f"{f} is {v!r}" for f, v in copied[:3])
    return Verdict(note=SHOWN.format(filters=filters),
                   ask=Ask(NOTE.format(file=file, filters=filters), code_retry(turn.engine, 29), hide=True))


rule = Rule(
    name="preview filters", setting="check_answers", check=check,
    summary="code that keeps only the rows of a named CSV or JSON file whose field equals the first record's value "
            "there (`pet[\"species\"] == \"dog\"`, copied from the file's preview) when the request names neither the value "
            "nor the field is not run; the request is asked afresh once, sampled, naming the filter to leave out")
