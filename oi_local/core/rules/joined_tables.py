"""Joined tables: "who's our biggest customer by total spend? orders are in orders.csv and the names are in
customers.csv". The answer needs both files: the orders' amounts added up per customer_id, and the name
of the top id from the other file. The 0.5B model read one file, then the other, then a column of one
from the other (KeyError), and the turn ended "not done" (ho49, read after that set's end). When a
request asks who or which has the most (or least) and names two CSV files, one of them with a column of
ids each on one row and a name beside it, the other repeating those ids with amounts, code that does not
read both files is not run, and a run that failed or printed no name of the top one gets the loop's own
code: the amounts (or rows) added up per id, each id's name looked up, the top ten and the one asked
for printed. Once a turn."""
from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Not answered yet: {facts} holds the {how} per {fk}, and {people} the {name} of each {key}: both are needed."
SHOWN = "Not run: the answer needs both {facts} and {people}; asked afresh with the code that reads both."
HOW = "This block works it out; reply with it, then answer with the name it prints."
MAX_ROWS = 5000  # rows of each file read here to find the answer the code should print
_ID = re.compile(r"(?:^|_|\b)(?:id|no|nr|num|number|code|key)$", re.I)
_NAME = re.compile(r"name|title|label", re.I)


def _rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        reader = csv.DictReader(f)
        rows = [r for _, r in zip(range(MAX_ROWS), reader)]
        return list(reader.fieldnames or []), rows


def _number(value: str) -> float | None:
    from oi_local.core.number_signs import amount

    return amount(value) if value.strip() else None


def _pair(people: Path, facts: Path, words: set[str], which: str | None) -> dict[str, Any] | None:
    """How `facts` refers to `people`: (key, name, fk, amount column or None), or None; `name` is the column
    of `people` that "which <word>" names ("which city": city), else its names."""
    from oi_local.core.rules.asked_column import _tokens

    p_cols, p_rows = _rows(people)
    f_cols, f_rows = _rows(facts)
    if not p_rows or not f_rows:
        return None
    for key in p_cols:
        keys = [r.get(key, "").strip() for r in p_rows]
        if not _ID.search(key) or "" in keys or len(set(keys)) != len(keys):
            continue
        texts = [c for c in p_cols if c != key and all(_number(r.get(c) or "") is None for r in p_rows)]
        # "which customer": no column of that name, the people themselves
        names = [c for c in texts if which and _tokens(c) & _tokens(which)] or \
            [c for c in p_cols if c != key and _NAME.search(c)] or texts
        fks = [c for c in f_cols if _ID.search(c) and (values := [r.get(c, "").strip() for r in f_rows])
               and set(values) <= set(keys) and len(set(values)) < len(values)]
        if not names or len(fks) != 1:
            continue
        numbers = [c for c in f_cols if c not in fks and not _ID.search(c)
                   and all(_number(r.get(c) or "") is not None for r in f_rows if (r.get(c) or "").strip())
                   and any((r.get(c) or "").strip() for r in f_rows)]
        said = [c for c in numbers if _tokens(c) & words]
        return {"key": key, "name": names[0], "fk": fks[0], "column": said[0] if len(said) == 1 else
                numbers[0] if len(numbers) == 1 else None}
    return None


def asked(request: str, cwd: Path) -> dict[str, Any] | None:
    """What a who-has-the-most question over two named CSV files needs from each, or None."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _tokens
    from oi_local.core.rules.per_group import _AMOUNT, _EXTREME, ASKS

    words = instruction(request)
    m = ASKS.search(words)
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() == ".csv"]
    if m is None or len(files) != 2:
        return None
    for people, facts in (files, files[::-1]):
        try:
            found = _pair(people, facts, _tokens(words), m.group(1))
        except (OSError, csv.Error):
            return None
        if found is None:
            continue
        if found["column"] is not None and not _AMOUNT.search(words) and not _tokens(found["column"]) & _tokens(words):
            found["column"] = None  # "who placed the most orders": rows counted
        base = cwd.resolve()
        found.update(people=str(people.relative_to(base)) if people.is_relative_to(base) else str(people),
                     facts=str(facts.relative_to(base)) if facts.is_relative_to(base) else str(facts),
                     smallest=_EXTREME.get(m.group(2).lower()) == "smallest")
        return found
    return None


def best_name(found: dict[str, Any]) -> str | None:
    """The name (or value of the asked column) the right code prints as the answer; a tie: None."""
    _, p_rows = _rows(Path(found["people"]))
    _, f_rows = _rows(Path(found["facts"]))
    names = {(r.get(found["key"]) or "").strip(): (r.get(found["name"]) or "").strip() for r in p_rows}
    totals: dict[str, float] = {}
    for r in f_rows:
        value = 1.0 if found["column"] is None else _number(r.get(found["column"]) or "")
        who = names.get((r.get(found["fk"]) or "").strip())
        if value is not None and who:
            totals[who] = totals.get(who, 0.0) + value
    if not totals:
        return None
    best = (min if found["smallest"] else max)(totals.values())
    top = [k for k, v in totals.items() if v == best]
    return top[0] if len(top) == 1 else None


def ready_code(found: dict[str, Any]) -> str:
    fk, key, name, column = found["fk"], found["key"], found["name"], found["column"]
    lines = ["import pandas as pd", f"people = pd.read_csv({found['people']!r})", f"facts = pd.read_csv({found['facts']!r})",
             f"# each row's {name}, looked up by its {fk} in {found['people']}",
             f"names = people.set_index(people[{key!r}].astype(str).str.strip())[{name!r}]",
             f"who = facts[{fk!r}].astype(str).str.strip().map(names)"]
    if column is None:
        lines.append("totals = who.value_counts()")
    else:
        lines += ["# amounts written like '$1,200' are numbers too",
                  f"values = pd.to_numeric(facts[{column!r}].astype(str).str.replace(r'[^0-9.\\-]', '', regex=True), errors='coerce')",
                  "totals = values.groupby(who).sum()"]
    lines += [f"totals = totals.sort_values(ascending={found['smallest']})",
              "print(totals.head(10).round(2).to_string())",
              f"print({'smallest:' if found['smallest'] else 'largest:'!r}, totals.index[0], round(float(totals.iloc[0]), 2))"]
    return "\n".join(lines)


def _ask(turn: Turn, found: dict[str, Any]) -> Ask:
    how = "rows" if found["column"] is None else found["column"]
    text = NOTE.format(facts=found["facts"], how=how, fk=found["fk"], people=found["people"], name=found["name"],
                       key=found["key"])
    return own_code(turn.engine, text, ready_code(found), HOW)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["joined tables"]:
        return None
    found = asked(turn.request, Path.cwd())
    if found is None or (Path(found["people"]).name in block.code and Path(found["facts"]).name in block.code):
        return None
    turn.counts["joined tables"] += 1
    return Verdict(note=SHOWN.format(facts=found["facts"], people=found["people"]), ask=_ask(turn, found))


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["joined tables"]:
        return None
    try:
        found = asked(turn.request, Path.cwd())
        name = best_name(found) if found else None
    except (OSError, csv.Error):
        return None
    if found is None or name is None or (not last.failed and name.lower() in last.output.lower()):
        return None
    turn.counts["joined tables"] += 1
    return _ask(turn, found)


rule = Rule(
    name="joined tables", setting="asked_column", check=check, after_run=after_run,
    summary="asked who or which has the most (or least) over two named CSV files, one with ids each on one row and a "
            "name beside them, the other repeating those ids with amounts: code that does not read both is not run, "
            "and a run that failed or printed no name of the top one gets the loop's own code (amounts or rows added "
            "up per id, names looked up, the top ten and the answer printed); once a turn")
