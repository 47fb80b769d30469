"""Their details: "nice. put their email address in a file called vip.txt, just the address", after an answer
that named the biggest customer. The 0.5B model ran the earlier code again and wrote "vip: 585.49 120.0" into
vip.txt (ho49, a development run of session 53). When a follow-up asks for a field of the one person (or thing)
the last answer named ("their email", "her phone number"), and one CSV here has exactly one row with that name
and a column the request names, a run that failed, or that printed (or wrote into the file the request names)
no such value, gets the loop's own code: the row looked up, the value printed and, when asked, written. Once a
turn."""
from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any, Iterator

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not give {field} of {name} from {file}."
HOW = "This block looks it up; reply with it, then answer with what it prints."
_THEIR = re.compile(r"\b(?:their|his|her|its)\b|\b(?:that|this)\s+(?:person|customer|one|guy|member|client)'?s\b", re.I)
_WRITTEN = re.compile(r"(?<![\w/.-])([\w-]+\.(?:txt|csv|md))\b", re.I)
MAX_BYTES = 1_000_000
MAX_REQUEST = 200  # characters: a follow-up, not a new task


def earlier_answer(messages: list[dict[str, Any]]) -> str:
    """The last thing the model said before the newest request."""
    asks = [i for i, m in enumerate(messages) if m["role"] == "user" and m["type"] == "message"]
    if len(asks) < 2:
        return ""
    said = [str(m.get("content", "")) for m in messages[asks[-2] + 1:asks[-1]]
            if m["role"] == "assistant" and m["type"] == "message"]
    return said[-1] if said else ""


def _fields(columns: list[str], words: str) -> list[str]:
    """The column the request names: of several ("email address" beside an address column), the first said."""
    from oi_local.core.records import stems

    said = {c: min((m.start() for w in stems(c) for m in re.finditer(rf"\b{re.escape(w)}", words.lower())), default=-1)
            for c in columns if c and stems(c) & stems(words)}
    return sorted(said, key=lambda c: said[c])[:1]


def small_tables(skip: str = "") -> Iterator[tuple[Path, list[dict[str, Any]]]]:
    """The rows of each small CSV file here that has any (not `skip`, a file the request writes)."""
    for p in sorted(Path.cwd().glob("*.csv")):
        if p.stat().st_size > MAX_BYTES or p.name == skip:
            continue
        with open(p, newline="", encoding="utf-8", errors="replace") as f:
            rows = list(csv.DictReader(f))
        if rows:
            yield p, rows


def asked(turn: Turn) -> dict[str, str] | None:
    """{file, name column, name, field column, value, out (a file to write, or "")} of such a follow-up."""
    words = instruction(turn.request)
    if len(words) > MAX_REQUEST or not _THEIR.search(words):
        return None
    answer = earlier_answer(turn.engine.messages)
    if not answer:
        return None
    out = next((f for f in _WRITTEN.findall(words) if not Path(f).exists() or f.lower().endswith(".txt")), "")
    found = []
    for p, rows in small_tables(skip=out):
        fields = _fields(list(rows[0]), words)
        for column in rows[0]:
            named = [r for r in rows if (v := str(r.get(column) or "").strip()) and len(v) >= 3 and not v.replace(".", "").isdigit()
                     and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", answer)]
            if len(named) == 1 and len(fields) == 1 and fields[0] != column:
                found.append({"file": p.name, "column": column, "name": str(named[0][column]).strip(),
                              "field": fields[0], "value": str(named[0][fields[0]] or "").strip(), "out": out})
    return found[0] if len(found) == 1 and found[0]["value"] else None


_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:\w+\s+){0,2}?(?:did|does|do|have|has|had)\s+(?:they|he|she)\b", re.I)


def named_once(rows: list[dict[str, Any]], column: str, answer: str, signs: str = ".") -> str | None:
    """The one value of `column` that `answer` names, where the column's values repeat (one row an order, a visit, a
    day), leaving out values of three characters or fewer and numbers (digits and `signs`)."""
    values = {v for r in rows if (v := str(r.get(column) or "").strip())}
    named = [v for v in values if len(v) >= 3 and not v.translate({ord(c): None for c in signs}).isdigit()
             and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", answer)]
    return named[0] if len(named) == 1 and len(values) < len(rows) else None


def counted(turn: Turn) -> dict[str, str] | None:
    """{file, column, name, count} of "and how many orders did they place" after an answer that named one person: the
    rows of the one CSV here whose column holds that name. The 0.5B model summed every order's amount (ho53)."""
    words = instruction(turn.request)
    answer = earlier_answer(turn.engine.messages) if len(words) <= MAX_REQUEST and _HOW_MANY.search(words) else ""
    found = []
    for p, rows in small_tables() if answer else []:
        for column in rows[0]:
            name = named_once(rows, column, answer)
            if name is not None:
                n = sum(str(r.get(column) or "").strip() == name for r in rows)
                found.append({"file": p.name, "column": column, "name": name, "count": str(n)})
    return found[0] if len(found) == 1 else None


def count_code(found: dict[str, str]) -> str:
    return "\n".join(["import csv", f"with open({found['file']!r}, newline='') as f:",
                      f"    rows = [r for r in csv.DictReader(f) if r[{found['column']!r}].strip() == {found['name']!r}]",
                      f"print({found['name']!r}, 'has', len(rows), 'rows in {found['file']}')"])


COUNT_NOTE = "(That did not count the rows of {name} in {file}."


def _count_after_run(turn: Turn, last: Any) -> Ask | None:
    found = counted(turn)
    if found is None or not last.failed and re.search(rf"(?<![\d.]){found['count']}(?![\d]|\.\d)", last.output):
        return None
    turn.counts["their details"] += 1
    return own_code(turn.engine, COUNT_NOTE.format(name=found["name"], file=found["file"]), count_code(found), HOW)


def ready_code(found: dict[str, str]) -> str:
    lines = ["import csv", f"with open({found['file']!r}, newline='') as f:",
             f"    row = next(r for r in csv.DictReader(f) if r[{found['column']!r}].strip() == {found['name']!r})",
             f"value = row[{found['field']!r}].strip()"]
    if found["out"]:
        lines += [f"with open({found['out']!r}, 'w') as f:", "    f.write(value + '\\n')",
                  f"print('wrote', value, 'to {found['out']}')"]
    else:
        lines.append(f"print({found['field'] + ':'!r}, value)")
    return "\n".join(lines)


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["their details"]:
        return None
    try:
        found = asked(turn)
        if found is None:
            return _count_after_run(turn, last)
        if not last.failed:
            if found["out"]:
                target = Path(found["out"])
                if target.is_file() and found["value"] in target.read_text(encoding="utf-8", errors="replace"):
                    return None
            elif found["value"] in last.output:
                return None
    except (OSError, ValueError):
        return None
    turn.counts["their details"] += 1
    return own_code(turn.engine, NOTE.format(field=found["field"], name=found["name"], file=found["file"]),
                    ready_code(found), HOW)


rule = Rule(
    name="their details", setting="check_answers", after_run=after_run,
    summary="a follow-up asking for a field of the one person or thing the last answer named (\"put their email "
            "address in vip.txt\"), where one CSV here has exactly one row with that name and one column the request "
            "names: a run that failed, or printed (or wrote into the file asked for) no such value, gets the loop's "
            "own code that looks the row up (once a turn); so does \"how many orders did they place\" when one CSV's column "
            "repeats that name and the run printed no such count: the code counts their rows")
