"""The records of a data file a request names (a CSV's rows, a JSON file's list of objects) and the
readings of a request against them that several rules share: which columns hold numbers, and which
values of text columns the request says (the rows it narrows to)."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

MAX_BYTES = 2_000_000
# "hasnt been paid" written without the apostrophe too (ho50's invoices follow-up)
_NEGATED = re.compile(r"\b(?:not|never|no|n't|haven't|hasn't|didn't|don't|isn't|aren't|wasn't|un\w+|"
                      r"(?:has|have|had|did|do|does|is|are|was|were|wo|ca)nt)\s+(?:\w+\s+){0,2}$", re.I)
_NEGATIONS = ("un{}", "not {}", "not_{}", "non-{}", "non{}", "not-{}")  # the value that says the negation
_ISO = re.compile(r"^\d{4}-\d\d(?:-\d\d)?")


def records(path: Path) -> list[dict[str, object]] | None:
    """The rows of a CSV file, or the records of a JSON file (a list of objects, or an object holding one)."""
    if not path.is_file() or path.stat().st_size > MAX_BYTES:
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() == ".csv":
        return list(csv.DictReader(text.splitlines()))
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else None
    return data if isinstance(data, list) and data and all(isinstance(r, dict) for r in data) else None


def _number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    try:
        float(str(value).replace(",", ""))
    except ValueError:
        return False
    return bool(str(value).strip())


def columns(rows: list[dict[str, object]]) -> list[str]:
    return list(dict.fromkeys(k for r in rows for k in r))


def number_columns(rows: list[dict[str, object]]) -> list[str]:
    """Columns whose filled values are all numbers (not ids, years or numbers that name)."""
    return [c for c in columns(rows) if any(r.get(c) not in (None, "") for r in rows)
            and all(_number(r.get(c)) for r in rows if r.get(c) not in (None, ""))
            and not re.search(r"(?:^|_)(?:id|year|no|zip|phone)$", c, re.I)]


def text_columns(rows: list[dict[str, object]]) -> list[str]:
    numbers = set(number_columns(rows))
    return [c for c in columns(rows) if c not in numbers
            and all(isinstance(r.get(c), str) for r in rows if r.get(c) is not None)]


def date_column(rows: list[dict[str, object]]) -> str | None:
    """The one column whose filled values are all ISO dates."""
    dates = [c for c in text_columns(rows) if any(r.get(c) for r in rows)
             and all(_ISO.match(str(r.get(c))) for r in rows if r.get(c))]
    return dates[0] if len(dates) == 1 else None


def said_values(words: str, rows: list[dict[str, object]], skip: set[str]) -> dict[str, list[str]] | None:
    """{column: [values]} of the text columns' values (3 characters or more) the request says, lower-cased;
    None when it says one negated ("the ones I haven't finished"), which is no value to keep."""
    low = " " + " ".join(re.findall(r"[a-z0-9']+", words.lower())) + " "
    found: dict[str, list[str]] = {}
    for c in text_columns(rows):
        if c in skip:
            continue
        for value in sorted({str(r.get(c)).strip() for r in rows if r.get(c)}):
            spoken = " ".join(re.findall(r"[a-z0-9']+", value.lower()))
            at = low.find(f" {spoken} ") if len(spoken) >= 3 else -1
            if at < 0:
                continue
            if _NEGATED.search(low[:at + 1]):
                # "hasn't been paid" of a status column that holds "unpaid": that value is the one said
                values = {str(r.get(c)).strip().lower() for r in rows if r.get(c)}
                opposite = next((n.format(value.lower()) for n in _NEGATIONS if n.format(value.lower()) in values), None)
                if opposite is None:
                    return None
                found.setdefault(c, []).append(opposite)
                continue
            if value.lower() not in found.get(c, []):
                found.setdefault(c, []).append(value.lower())
    return found


def stem(word: str) -> str:
    """A word without its ending, so that "rate", "rated" and "rating" meet (my_rating)."""
    word = word.lower()
    for end in ("ings", "ing", "ed", "es", "e", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[:-len(end)]
    return word


def stems(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[A-Za-z]+", text.replace("_", " ")) if len(w) > 1}


def load_code(file: str) -> str:
    """Pandas lines that read `file` (a CSV, or a JSON file's records) into `df`."""
    if file.lower().endswith(".json"):
        return (f"import json\nimport pandas as pd\nwith open({file!r}) as f:\n    data = json.load(f)\n"
                "records = data if isinstance(data, list) else next(v for v in data.values() if isinstance(v, list))\n"
                "df = pd.DataFrame(records)\n")
    return f"import pandas as pd\ndf = pd.read_csv({file!r})\n"


def narrow_code(filters: dict[str, list[str]]) -> str:
    return "".join(f"df = df[df[{c!r}].astype(str).str.strip().str.lower().isin({v!r})]\n" for c, v in filters.items())
