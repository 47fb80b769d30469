"""Same columns: "save just the refunded ones to a new file refunds.csv, same columns?" asks for the
source file's header and whole rows. The 0.5B model wrote `f"{row['order_id']},{row['customer']},..."`
lines with no header and a column left out (ho31), or a DictWriter over some of the columns. When the
model stops, a new CSV the request names, with a source CSV it (or the request before it) names,
whose first line is not the source's header, is checked row by row: where each of its lines is one
row of the source (all of the line's values in that row), the loop's own code rewrites it as the
source's header and those whole rows, in the same order; it runs as any code does, shown first."""
from __future__ import annotations

import csv
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = ("({new} does not have the columns of {src}: its first line is {first!r}. This block writes the header of {src} "
        "and the whole rows that {new} picked.")
HOW = "Reply with it."
_SAME = re.compile(r"\bsame\s+(?:columns|headers?|fields)\b|\bkeep(?:ing)?\s+(?:the|all)\s+(?:same\s+)?(?:columns|headers?)\b",
                   re.I)
_CSV = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-][\w.-]*\.csv)\b", re.I)
LIMIT = 2_000_000  # bytes: larger files are left alone


def _rows(path: Path) -> list[list[str]] | None:
    try:
        if path.stat().st_size > LIMIT:
            return None
        with path.open(encoding="utf-8-sig", errors="replace", newline="") as f:
            return [r for r in csv.reader(f) if any(c.strip() for c in r)]
    except (OSError, csv.Error):
        return None


def picked(source: list[list[str]], written: list[list[str]]) -> list[list[str]] | None:
    """The source rows (header first) that the written lines are, one each, in their order; None when any
    line is no one row of the source."""
    header, rows = source[0], source[1:]
    lines = written[1:] if written and set(c.strip() for c in written[0]) <= set(header) else written
    out = [header]
    for line in lines:
        values = [c.strip() for c in line]
        found = [r for r in rows if all(v in [c.strip() for c in r] for v in values)]
        if not found or any(r != found[0] for r in found[1:]):
            return None
        out.append(found[0])
    return out if len(out) > 1 else None


def _files(turn: Turn) -> tuple[str, str] | None:
    """(source, new) for a request that asks for a new CSV with a named CSV's columns."""
    asked = instruction(turn.request)
    if not _SAME.search(asked):
        return None
    named = list(dict.fromkeys(_CSV.findall(asked)))
    new = [n for n in named if any(n in r.code for r in turn.runs if not r.failed)]
    sources = [n for n in named if n not in new] or list(dict.fromkeys(_CSV.findall(turn.earlier_request)))
    sources = [s for s in sources if Path(s).is_file() and s not in new]
    if len(new) != 1 or len(sources) != 1 or not Path(new[0]).is_file():
        return None
    return sources[0], new[0]


def follow_up(turn: Turn) -> Ask | None:
    if turn.counts["same columns"] or not turn.runs or turn.runs[-1].failed:
        return None
    files = _files(turn)
    if files is None:
        return None
    src, new = files
    source, written = _rows(Path(src)), _rows(Path(new))
    if not source or not written or [c.strip() for c in written[0]] == [c.strip() for c in source[0]]:
        return None
    if picked(source, written) is None:
        return None
    turn.counts["same columns"] += 1
    return own_code(turn.engine, NOTE.format(new=new, src=src, first=",".join(written[0])), ready_code(src, new), HOW)


def ready_code(src: str, new: str) -> str:
    return f'''import csv
with open({src!r}, encoding="utf-8-sig", newline="") as f:
    source = [r for r in csv.reader(f) if any(c.strip() for c in r)]
with open({new!r}, encoding="utf-8-sig", newline="") as f:
    written = [r for r in csv.reader(f) if any(c.strip() for c in r)]
header, rows = source[0], source[1:]
if written and set(c.strip() for c in written[0]) <= set(header):
    written = written[1:]  # its own header line
keep = []
for line in written:
    values = [c.strip() for c in line]
    keep += [r for r in rows if all(v in [c.strip() for c in r] for v in values)][:1]
with open({new!r}, "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(header)
    out.writerows(keep)
print(len(keep), "rows in {new}, with the columns of {src}:", ", ".join(header))'''


rule = Rule(
    name="same columns", setting="check_outputs", follow_up=follow_up,
    summary="a new CSV asked for with the same columns as a named one, whose first line is not that header, has its "
            "lines matched to the source's rows; when each is one row, the loop's own code rewrites it with the source's "
            "header and those whole rows")
