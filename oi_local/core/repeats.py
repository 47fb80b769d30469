"""Repeats left in a file the request asked to hold each thing once ("merge the two lists; people in
both should only be in it once", "every address only once", "no duplicates"). Asked to merge two
contact lists so, the 0.5B model joined the two files line by line: the header twice and the shared
people twice, and the turn ended "Made all_contacts.csv." (ho59, session 60's start). A file the
request names that the turn wrote is read back: a CSV's header row again further down, a value of
a key column (email, id, phone ...) twice, else a row or a line twice, is a problem to tell.
"""
from __future__ import annotations

import csv
import io
import os
import re

ONCE = re.compile(r"\b(?:only|just)\b[^.?!\n]{0,30}\bonce\b|\beach\b[^.?!\n]{0,20}\bonce\b|\bonce\s+each\b|"
                  r"\bduplicat\w*|\bde-?dup\w*|\bno\s+repeats?\b|\bwithout\s+repeats?\b|\bunique\b", re.I)
SUFFIXES = {".csv", ".tsv", ".txt", ".md", ".list"}
_KEY = re.compile(r"e-?mail|(?:^|_)id$|^id|phone|mobile|user ?name|login|sku|isbn", re.I)
MAX_BYTES = 2_000_000


def _norm(value: str) -> str:
    return re.sub(r"\s+", " ", value.strip().lower())


def _twice(values: list[str]) -> str | None:
    seen: set[str] = set()
    for v in values:
        key = _norm(v)
        if key and key in seen:
            return v.strip()
        seen.add(key)
    return None


def _table_repeat(rel: str, text: str, delimiter: str) -> str | None:
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=delimiter) if any(c.strip() for c in r)]
    if len(rows) < 3:
        return None
    header = [_norm(c) for c in rows[0]]
    again = next((i for i, r in enumerate(rows[1:], start=2) if [_norm(c) for c in r] == header), None)
    if again is not None:
        return f"{rel} has its header row again (row {again})"
    for k, name in enumerate(rows[0]):
        if _KEY.search(name.strip()):
            value = _twice([r[k] for r in rows[1:] if len(r) > k])
            if value:
                return f"{rel} has {value} ({name.strip()}) more than once"
    row = _twice([delimiter.join(r) for r in rows[1:]])
    return f"{rel} has the row {row!r} more than once" if row else None


def repeats(root: str, request: str, changed: list[str]) -> list[str]:
    """What repeats in the files the request names and the turn changed, when it asks for each thing once."""
    if not ONCE.search(request):
        return []
    found = []
    for rel in changed:
        base = os.path.basename(rel)
        suffix = os.path.splitext(base)[1].lower()
        if suffix not in SUFFIXES or not re.search(rf"(?<![\w.-]){re.escape(base)}(?![\w-])", request):
            continue
        path = os.path.join(root, rel)
        try:
            if os.path.getsize(path) > MAX_BYTES:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if suffix in (".csv", ".tsv"):
            problem = _table_repeat(rel, text, "\t" if suffix == ".tsv" else ",")
        else:
            line = _twice([ln for ln in text.splitlines() if ln.strip()])
            problem = f"{rel} has {line!r} more than once" if line else None
        if problem:
            found.append(problem)
    return found
