"""Nested columns: asked "Turn contacts.json into a CSV ... called contacts.csv, with the columns name, email and
city", where each contact's city is inside its address (`"address": {"street": ..., "city": ...}`), the 0.5B
model wrote the columns name, email, address and phones, and every row's whole address dict (ho42). When a
request turns a JSON file of records into a named CSV file with listed columns, and one of them is not a field
of the records but a field inside one (found by its name, at most three levels down), code that does not reach
into that field is not run and the model is given the code that does: each listed column taken from where it
is in each record, one row per record."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from oi_local.core.records import records
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.named_columns import named
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = ("(Write one ```python block that does what I asked: write {csv} from the records of {json}, with the columns "
        "{columns}; {inner} inside each record.")
SHOWN = "Not run: {inner} inside each record of {json}, and the code does not reach it; asked afresh with the code that does."
_JSON = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.json)\b", re.I)
_CSV = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.csv)\b", re.I)


def _key(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name).lower()


def _find(record: dict[str, Any], column: str, depth: int = 3) -> list[str] | None:
    """The keys that lead to `column` in a record: its own field first, then inside its dicts."""
    for k in record:
        if _key(k) == _key(column):
            return [k]
    if depth > 1:
        for k, v in record.items():
            if isinstance(v, dict):
                inner = _find(v, column, depth - 1)
                if inner is not None:
                    return [k, *inner]
    return None


def asked(request: str, cwd: Path) -> tuple[str, str, list[str], dict[str, list[str]]] | None:
    """(json file, csv file, columns, each column's keys) when a JSON file's records are to become a named CSV
    file with listed columns, one of which is inside a record's field."""
    words = instruction(request)
    jsons = [j for j in dict.fromkeys(_JSON.findall(words)) if (cwd / j).is_file()]
    csvs = list(dict.fromkeys(_CSV.findall(words)))
    columns = named(request)
    if len(jsons) != 1 or len(csvs) != 1 or len(columns) < 2:
        return None
    rows = records(cwd / jsons[0])
    if not rows:
        return None
    paths: dict[str, list[str]] = {}
    for c in columns:
        found = next((p for p in (_find(r, c) for r in rows[:20]) if p is not None), None)
        if found is None:
            return None  # a column the records do not hold: not for this rule to make up
        paths[c] = found
    if all(len(p) == 1 for p in paths.values()):
        return None  # every column is a record's own field (core/rules/named_columns.py)
    return jsons[0], csvs[0], columns, paths


def ready_code(json_file: str, csv_file: str, columns: list[str], paths: dict[str, list[str]]) -> str:
    return (f"import csv\nimport json\nwith open({json_file!r}, encoding='utf-8') as f:\n    data = json.load(f)\n"
            "records = data if isinstance(data, list) else next(v for v in data.values() if isinstance(v, list))\n"
            f"columns = {columns!r}\npaths = {paths!r}  # where each column is in a record\n\n\n"
            "def get(record, keys):\n    for k in keys:\n        record = record.get(k, '') if isinstance(record, dict) else ''\n"
            "    return record\n\n\n"
            f"with open({csv_file!r}, 'w', newline='', encoding='utf-8') as f:\n    writer = csv.writer(f)\n"
            "    writer.writerow(columns)\n    for r in records:\n        writer.writerow([get(r, paths[c]) for c in columns])\n"
            f"print(len(records), 'rows written to {csv_file} with the columns', ', '.join(columns))")


def _inner(paths: dict[str, list[str]]) -> str:
    nested = [f"{c} is in {'.'.join(p[:-1])}" for c, p in paths.items() if len(p) > 1]
    return "; ".join(nested)


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["nested columns"] or block.lang != "python":
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    json_file, csv_file, columns, paths = found
    nested = [p for p in paths.values() if len(p) > 1]
    if all(all(re.search(rf"""['"]{re.escape(k)}['"]""", block.code) for k in p) for p in nested):
        return None  # the code names each key on the way: it reaches in itself
    turn.counts["nested columns"] += 1
    inner = _inner(paths)
    ask = own_code(turn.engine, NOTE.format(csv=csv_file, json=json_file, columns=", ".join(columns), inner=inner),
                   ready_code(json_file, csv_file, columns, paths))
    return Verdict(note=SHOWN.format(inner=inner, json=json_file), ask=ask)


rule = Rule(
    name="nested columns", setting="repair_slips", check=check,
    summary="a JSON file's records to become a named CSV file with listed columns, one of which is inside a record's "
            "field (a city in an address): code that does not reach into it is not run and the model is given the "
            "code that takes each column from where it is in each record")
