"""Stock counts: "how many blue kettles do we still have?" over records that each carry a stock
(qty, quantity, units, on_hand ...) asks for that stock added up, not for the number of records that
match. Asked that of inventory.json, the 0.5B model printed `len(blue_kettles)`, 1 record, for a
stock of 14 (ho33-json-kettle). When the request asks how many are had, left or in stock, a file the
code reads holds records with one such number field, and the code prints `len(x)` of a list it
filtered from them, `len(x)` becomes the sum of that field over x before the code runs; the person
is told."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {changes} (each record holds how many there are in {field!r})."
ASKS = re.compile(r"\bhow\s+many\b(?:(?![?.!]).){0,60}?\b(?:have|has|got|left|in\s+stock|remaining|on\s+hand|own|"
                  r"stocked|available)\b", re.I)
QUANTITY = re.compile(r"^(?:stock|in_?stock|qty|quantity|quantities|units|on_?hand|count|pieces|available|left|"
                      r"remaining|inventory|stock_?(?:count|level|qty))$", re.I)
_OPENS = re.compile(r"""\b(?:open|read_csv|read_json)\(\s*r?['"]([^'"\n]+\.(?:json|csv))['"]""", re.I)
MAX_BYTES = 2_000_000


def _records(data: Any) -> list[dict[str, Any]]:
    """The dicts of the lists anywhere in a JSON document."""
    found: list[dict[str, Any]] = []
    if isinstance(data, list):
        found += [d for d in data if isinstance(d, dict)]
        for d in data:
            if isinstance(d, (dict, list)):
                found += _records(d) if isinstance(d, list) else [r for v in d.values() for r in _records(v)]
    elif isinstance(data, dict):
        for v in data.values():
            found += _records(v)
    return found


def quantity_field(path: Path) -> tuple[str, bool] | None:
    """(field, values are whole numbers) of the one quantity field of the file's records, else None."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        if path.suffix.lower() == ".json":
            rows = _records(json.loads(path.read_text(encoding="utf-8", errors="replace")))
            values = {k: [r[k] for r in rows if k in r] for r in rows for k in r}
        else:
            from oi_local.core.rules.asked_column import _table

            values = {k: v for k, v in _table(path).items()}
    except (OSError, ValueError):
        return None
    fields = []
    for name, vals in values.items():
        given = [v for v in vals if v not in ("", None)]
        if QUANTITY.match(str(name)) and given and all(_whole(v) is not None for v in given):
            fields.append((str(name), all(_whole(v) for v in given)))
    return fields[0] if len(fields) == 1 else None


def _whole(v: Any) -> bool | None:
    """True for a whole number, False for another number, None for no number."""
    if isinstance(v, bool):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f.is_integer()


def _filtered(tree: ast.AST) -> set[str]:
    """Names given a filtered list comprehension of the loop's own items: `x = [r for r in rows if ...]`."""
    found = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and isinstance(n.value, ast.ListComp) and len(n.value.generators) == 1:
            g = n.value.generators[0]
            if g.ifs and isinstance(g.target, ast.Name) and isinstance(n.value.elt, ast.Name) \
                    and n.value.elt.id == g.target.id:
                found.add(n.targets[0].id)
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "len(" not in block.code or not ASKS.search(turn.request):
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    names = [n for n in _filtered(tree) if f"len({n})" in block.code]
    files = [Path(f) for f in _OPENS.findall(block.code) if Path(f).is_file()]
    if not names or len(files) != 1:
        return None
    found = quantity_field(files[0])
    if found is None:
        return None
    field, whole = found
    csv_text = files[0].suffix.lower() == ".csv"
    new, changes = block.code, []
    for n in names:
        value = f"{'int' if whole else 'float'}(r[{field!r}])" if csv_text else f"r[{field!r}]"
        total = f"sum({value} for r in {n})"
        new = new.replace(f"len({n})", total)
        changes.append(f"len({n}) became {total}")
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes="; ".join(changes), field=field))


rule = Rule(
    name="stock counts", setting="repair_slips", check=check,
    summary="asked how many are had, left or in stock (\"how many blue kettles do we still have?\"), code that prints "
            "`len(x)` of records it filtered from a file whose records carry one quantity field (stock, qty, units ...) "
            "has `len(x)` made the sum of that field before it runs; the person is told")
