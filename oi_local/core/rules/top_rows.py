"""Top rows: asked which category cost the most, the code printed the totals sorted from the highest
down (groceries 227.0 first) and the 0.5B model answered with the second row, "fun, 195.0"
(ho32-top-category). When a question asks for the most or the least of something and the last run
printed rows of a label and a number sorted that way, an answer that names another row and not the
first is dropped and asked for once more with the first row named; the second time such an answer
gives way to the printed rows."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, asks_back, instruction, newest_reply

NOTE = "(Answer my question again in one sentence. The printed rows are sorted, so the answer is their first row: {row}.)"
MOST = re.compile(r"\b(?:most|highest|largest|biggest|greatest|top|maximum|max|longest|heaviest|busiest)\b", re.I)
LEAST = re.compile(r"\b(?:least|lowest|smallest|fewest|minimum|min|shortest|lightest|cheapest)\b", re.I)
MAX_OUTPUT = 1500  # characters: a printed table short enough to be read as the answer
_ROW = re.compile(r"^\s*(?:\d+[.)]\s+)?([A-Za-z][\w .&'/-]*?)(?:\s{2,}|\t|:\s*|\s+-\s+|,\s*)(?:.*?\s)?\$?(-?\d[\d,]*(?:\.\d+)?)\s*$")


def rows(output: str) -> list[tuple[str, float]]:
    """(label, number) for each printed line that starts with a label and ends with a number."""
    found = []
    for line in output.splitlines():
        m = _ROW.match(line)
        if m:
            found.append((m.group(1).strip(), float(m.group(2).replace(",", ""))))
    return found


def first_row(turn: Turn) -> tuple[str, float] | None:
    """The first printed row, when the question asks for the most (least) and the rows are sorted so."""
    from oi_local.core.writes import question

    last = turn.runs[-1] if turn.runs else None
    asked = instruction(turn.request)
    if not (last and not last.failed and question(turn.request) and len(last.output) <= MAX_OUTPUT):
        return None
    most, least = bool(MOST.search(asked)), bool(LEAST.search(asked))
    table = rows(last.output)
    if most == least or len(table) < 2 or len({v for _, v in table}) < 2 or len({lb.lower() for lb, _ in table}) < len(table):
        return None
    values = [v for _, v in table]
    pairs = list(zip(values, values[1:]))
    ordered = all(a >= b for a, b in pairs) if most else all(a <= b for a, b in pairs)
    return table[0] if ordered else None


def _names(said: str, label: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(label.lower())}(?![\w-])", said.lower()))


def skipped_top(turn: Turn) -> bool:
    """The newest reply names a printed row other than the first, and not the first."""
    reply = newest_reply(turn.engine)
    top = first_row(turn) if reply and not asks_back(turn.engine) else None
    if top is None or reply is None:
        return False
    said = str(reply.get("content", ""))
    others = [lb for lb, _ in rows(turn.runs[-1].output)[1:]]
    return not _names(said, top[0]) and any(_names(said, lb) for lb in others)


def follow_up(turn: Turn) -> Ask | None:
    if turn.counts["top rows"] >= 1 or not skipped_top(turn):
        return None
    turn.counts["top rows"] += 1
    label, value = first_row(turn) or ("", 0.0)
    return Ask(NOTE.format(row=f"{label} {value:g}"), final=True)


rule = Rule(
    name="top rows", setting="check_answers", follow_up=follow_up, discard=skipped_top,
    summary="a question for the most (or least) of something whose last run printed rows of a label and a number "
            "sorted that way, answered with another row and not the first, is asked again once with the first row "
            "named; the second time such an answer gives way to the printed rows")
