"""Both files: asked "using products.csv (unit cost per SKU) and stock.csv (quantity per warehouse), what's the
total value of all our stock?", the 0.5B model read products.csv alone and multiplied its cost by a quantity
column it does not have (ho43, a development run of session 47). A question that names two or more data files
that are here, whose Python code reads some of them by name but not all, is not run (once a turn); the model is
told which files it left out and, for CSV files, the columns they share to join them on."""
from __future__ import annotations

import csv
import os
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_again, instruction

NOTE = "Not run: the question is about {files}, and the code reads only {read}. Read {left} too{join}."
_DATA = {".csv", ".tsv", ".json", ".txt", ".log", ".xlsx", ".xls"}


def _header(path: Path) -> set[str]:
    if path.suffix.lower() != ".csv":
        return set()
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as f:
            return {c.strip() for c in next(csv.reader(f), []) if c.strip()}
    except OSError:
        return set()


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["both files"]:
        return None
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.writes import question

    words = instruction(turn.request)
    if not question(words):
        return None
    here = Path.cwd().resolve()
    named = [p for p in mentioned_paths(words, here) if p.is_file() and p.suffix.lower() in _DATA]
    if len(named) < 2:
        return None
    rel = [os.path.relpath(p, here) for p in named]
    read = [r for r in rel if r in block.code or Path(r).name in block.code]
    if not read or len(read) == len(rel):
        return None  # none read by name (a glob, a loop over a folder) or all of them
    turn.counts["both files"] += 1
    left = [r for r in rel if r not in read]
    shared = set.intersection(*(_header(p) for p in named)) if all(p.suffix.lower() == ".csv" for p in named) else set()
    join = f", and join them on {', '.join(sorted(shared))}" if shared else ""
    note = NOTE.format(files=" and ".join(rel), read=" and ".join(read), left=" and ".join(left), join=join)
    return Verdict(note=note, ask=code_again(turn.engine, note, 61))


rule = Rule(
    name="both files", setting="check_answers", check=check,
    summary="a question that names two or more data files here, whose code reads some of them by name but not all, is "
            "not run (once a turn); the model is told which it left out and, for CSV files, the columns they share")
