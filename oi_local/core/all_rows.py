"""Every row kept where only some were asked for: "make overdue.csv with only the loans that haven't been
returned" and "a new file vegetarian.csv with only the vegetarian recipes from recipes.csv" both ended with
the new file holding every row of the old one, "14 rows, 14 kept" (ho58 and ho59, sessions 59 and 60). A
new CSV the request names, made from the one CSV it reads, with as many rows as that one, for a request that
keeps only some ("only", "just", "where" ...), is a problem to tell, naming the column the request's words
name when there is one; so is such a CSV that holds only its header row.
"""
from __future__ import annotations

import csv
import os
import re
from pathlib import Path

SUFFIXES = {".csv", ".tsv"}
MAX_BYTES = 2_000_000
_SOME = re.compile(r"\b(?:only|just|where|whose|except|excluding|without)\b", re.I)
_ALL = re.compile(r"\b(?:all|every|each|whole|entire)\b(?!\s+(?:the\s+)?(?:other|else))", re.I)


def _rows(path: Path) -> list[list[str]] | None:
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        with path.open(encoding="utf-8", errors="replace", newline="") as f:
            first = f.readline()
            f.seek(0)
            delimiter = "\t" if path.suffix == ".tsv" or first.count("\t") > first.count(",") else ","
            return [r for r in csv.reader(f, delimiter=delimiter) if any(c.strip() for c in r)]
    except OSError:
        return None


def all_rows(root: str, request: str, changed: list[str]) -> list[str]:
    """"X has every row of Y" for a new CSV the request names that holds every row of the one it reads."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _tokens

    if not _SOME.search(request) or _ALL.search(request):
        return []
    base = Path(root).resolve()
    named = [p for p in mentioned_paths(request, base) if p.suffix.lower() in SUFFIXES]
    made = [p for p in named if os.path.relpath(p, base) in changed]
    read = [p for p in named if p not in made and p.is_file()]
    if len(made) != 1 or len(read) != 1:
        return []
    new, old = _rows(made[0]), _rows(read[0])
    rel_new, rel_old = os.path.relpath(made[0], base), os.path.relpath(read[0], base)
    if new and old and len(new) == 1 and len(old) >= 3:
        # the header written, then the run failed or the rows went elsewhere (ho59 dev run: the right rows were
        # printed as a dict, and vegetarian.csv kept the header a failed run had written)
        return [f"{rel_new} has only its header row, none of the rows of {rel_old} the request asks for"]
    if not new or not old or len(old) < 4 or len(new) != len(old):
        return []
    said = _tokens(re.sub(r"[\w.-]+\.\w{2,4}\b", " ", request)) - _tokens(read[0].stem)  # "bikes" names the rows
    columns = [c.strip() for c in old[0] if len(c.strip()) >= 3 and _tokens(c) and _tokens(c) <= said]
    which = f" (its {columns[0]} column says which)" if len(columns) == 1 else ""
    return [f"{rel_new} has every row of {rel_old} ({len(old) - 1} of {len(old) - 1}), and the request asks for only "
            f"some{which}"]
