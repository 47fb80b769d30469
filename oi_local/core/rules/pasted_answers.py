"""Pasted answers: an answer about a text the person pasted (long requests) that names a date or a number found
neither in that text nor in anything the turn's code printed (nor in the lines the model was shown) is followed by
one sentence saying so. Asked how many nights a pasted backup log failed, the 0.5B model answered "The backup failed
1 time on 2026-12-07.": today's date, in no line of the log (ho23, a development run of session 54). Such an answer
is not grounded; the person is told to check it against the text, not left to take it as read, and is shown the
turn's newest earlier answer whose dates and numbers are all found. Small counts (one or two digits) are left alone:
a count is rarely written in the text it counts. But a small number read from the text (not worked out) must be on a
line that holds the question's rarest word: if none is, those lines are shown. And a code or a number read from a
line further from the question (fewer of its words, or commoner ones) than the one closest line (with one of the
same shape) is followed by that line."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule
from oi_local.core.rules.turn import Turn, last_words

NOTE = "Check this against the text you pasted: {what} is not in it, nor in anything the code printed."
# a number that must have come from somewhere: three or more digits, or a decimal (a time "02:00" is a number too)
_FACT = re.compile(r"(?<![\w.,:/-])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,]|\.\d)|(?<![\w.,:/-])\d+(?:[.:]\d+)+(?![\w]|[.:]\d)|"
                   r"(?<![\w.,:/-])\d{3,}(?![\w]|[.,]\d)")


def _digits(text: str) -> str:
    return text.replace(",", "")


def _dates(text: str) -> set[tuple[int, int]]:
    from oi_local.core.dates import named_dates

    return {(n.month, n.day) for n in named_dates(text)}


def ungrounded(said: str, sources: str) -> list[str]:
    """The dates and numbers of `said` that `sources` do not hold (a date in any form the dates module reads)."""
    import calendar

    from oi_local.core.dates import named_dates_at

    missing: list[str] = []
    known = _dates(sources)
    spans = []
    for n, end in named_dates_at(said):
        spans.append(end)
        if (n.month, n.day) not in known:
            missing.append(f"{n.day} {calendar.month_name[n.month]}" + (f" {n.year}" if n.year else ""))
    plain = _digits(sources)
    for m in _FACT.finditer(said):
        if any(m.start() < end <= m.end() + 12 for end in spans):
            continue  # a part of a date said above
        value = _digits(m.group(0))
        if not re.search(rf"(?<![\d.]){re.escape(value)}(?![\d]|\.\d)", plain):
            missing.append(m.group(0))
    return list(dict.fromkeys(missing))


def finish(turn: Turn) -> str | None:
    from oi_local.core.rules.long_request import pasted_parts, shown_lines

    parts = pasted_parts(turn.engine, turn.request)
    if not turn.runs or turn.runs[-1].failed or parts is None:
        return None
    said = last_words(turn)
    if not said.strip() or said.startswith("This is not done"):
        return None
    sources = "\n".join([turn.request, shown_lines(turn.engine, turn.request)] + [r.output for r in turn.runs])
    missing = ungrounded(said, sources)
    if not missing:
        return unpaired(said, parts) or misplaced(said, parts)
    earlier = _grounded_earlier(turn, said, sources)
    return NOTE.format(what=" and ".join(missing[:3])) + (EARLIER.format(said=earlier) if earlier else "")


# A small number, though in the text, must stand where the question points: "Which plot number did the Okafor family
# get?" was answered "plot number 1." The one line that names the Okafors says 27 (ho55, read after session 56's end).
UNPAIRED = "Check this against the text you pasted: no line of it that mentions \"{word}\" has {number}. {lines}"
_SMALL = re.compile(r"(?<![\w.,:/-])\d{1,2}(?![\w]|[.,:/]\d)")
# a number that is worked out, not read: a count, a sum, a length of time (small counts are rarely in the text)
_WORKED_OUT = re.compile(r"\bhow\s+(?:many|much|long|often|old)\b|\b(?:count\w*|total\w*|sum|average|mean|altogether|"
                         r"in\s+all|combined|percent\w*|difference|between|times)\b|\bnumber\s+of\b", re.I)
MAX_LINE = 160


def unpaired(said: str, parts: tuple[str, str, str]) -> str | None:
    """An answer's small numbers, none of them on a line of the pasted text that holds the question's rarest word
    (a question that asks for a number read from the text, not a count): the lines that do hold it."""
    from oi_local.core.rules.long_request import question_of, rare_words

    own = parts[0] + "\n" + parts[2]
    question = question_of(own)
    numbers = [m.group(0) for m in _SMALL.finditer(said) if not re.search(rf"(?<!\d){m.group(0)}(?!\d)", question)]
    if not numbers or _WORKED_OUT.search(question):
        return None
    found, filled = rare_words(parts[1].splitlines(), own)
    asked = set(re.findall(r"[a-z]{3,}", question.lower()))
    found = [f for f in found if f[1] in asked]
    if not found:
        return None
    near = [filled[i] for f in found for i in f[3]]  # the lines of each of the question's rare words
    if any(re.search(rf"(?<!\d){n}(?!\d)", line) for n in numbers for line in near):
        return None
    _, word, _, hits = found[0]
    lines = [filled[i].strip() for i in hits]
    shown = " ".join(f'"{ln[:MAX_LINE]}"' for ln in lines[:2])
    return UNPAIRED.format(word=word, number=" or ".join(dict.fromkeys(numbers)),
                           lines=("It says: " if len(lines) == 1 else "They say: ") + shown)


# A code or a number read from the wrong line: asked for "the serial number of the new water heater that was put in",
# the 0.5B model answered with the new dryer's serial, on a line with "new" and "serial" only; the water heater's line
# held four of the question's words and a serial of the same shape (ho56, session 57).
MISPLACED = ("Check this against the text you pasted: {token} is on a line further from the question than this one: "
             "\"{line}\"")
_CODE = re.compile(r"(?<![\w-])[A-Za-z]{1,6}[-/#]?\d[\w-]*(?![\w-])")
CLOSE = 2  # question words a line must hold to be the one the question points at
MAX_LINES = 5000  # lines of a pasted text looked through


def _shape(token: str) -> str:
    return re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "0", token))


def _facts(text: str) -> list[str]:
    """The codes ("HX-20417") and numbers (three or more digits, or decimals) of a text."""
    return [m.group(0) for m in _CODE.finditer(text)] + [m.group(0) for m in _FACT.finditer(text)]


def closest(lines: list[str], asked: tuple[str, ...]) -> tuple[list[float], float]:
    """Each line's closeness to the question, and the top score: 0 when no line at the top holds CLOSE of its words."""
    from oi_local.core.rules.long_request import closeness, holds

    score = closeness(lines, list(range(len(lines))), asked)
    scores = [score[i] for i in range(len(lines))]
    top = max(scores, default=0.0)
    held = any(sum(holds(lines[i], w) for w in asked) >= CLOSE for i, sc in enumerate(scores) if sc == top)
    return scores, top if top > 0 and held else 0.0


def misplaced(said: str, parts: tuple[str, str, str]) -> str | None:
    """An answer's code or number that is in the pasted text, but only on lines further from the question (`closeness`)
    than the one closest line, where a code or number of the same shape stands: that line."""
    from oi_local.core.rules.long_request import closeness_words, question_of

    own = parts[0] + "\n" + parts[2]
    asked = closeness_words(own)
    if not asked or _WORKED_OUT.search(question_of(own)):
        return None
    lines = [ln for ln in parts[1].splitlines() if ln.strip()]
    if len(lines) > MAX_LINES:
        return None
    scores, top = closest(lines, asked)
    if top <= 0:
        return None
    question = question_of(own)
    for token in dict.fromkeys(_facts(said)):
        if token in question:
            continue
        homes = [i for i, ln in enumerate(lines) if re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", ln)]
        if not homes or max(scores[i] for i in homes) >= top:
            continue
        best = [i for i, sc in enumerate(scores) if sc == top and any(_shape(t) == _shape(token) for t in _facts(lines[i]))]
        if len(best) == 1:
            return MISPLACED.format(token=token, line=lines[best[0]].strip()[:MAX_LINE])
    return None


EARLIER = " Earlier I said, with dates and numbers that are in the text: \"{said}\""
MAX_EARLIER = 300


def _grounded_earlier(turn: Turn, said: str, sources: str) -> str:
    """The newest earlier answer of the turn that names a date or a number, all of them found in the sources. Asked
    when a pasted log first failed and what went wrong, the 0.5B model answered "on 2025-01-23 ... insufficient space";
    its next code failed, and its last answer was today's date (ho30, a development run of session 54)."""
    from oi_local.core.dates import named_dates

    for m in reversed(turn.engine.messages[turn.start:]):
        text = str(m.get("content", "")).strip()
        if m.get("role") != "assistant" or m.get("type") != "message" or not text or text in said \
                or len(text) > MAX_EARLIER or text.startswith(("This is not done", "Check this")):
            continue
        if (named_dates(text) or _FACT.search(text)) and not ungrounded(text, sources):
            return text
    return ""


rule = Rule(
    name="pasted answers", setting="honest_end", finish=finish,
    summary="an answer about a pasted text (long requests) that names a date or a number (three or more digits, or a "
            "decimal) found neither in that text nor in anything the turn's code printed is followed by one sentence "
            "saying so, asking the person to check it, with the turn's newest earlier answer whose dates and numbers are "
            "all found; a small number, for a question that reads one from the text (not a count, sum or length of time), "
            "on no line that holds the question's rarest word, is followed by those lines; a code or number read from a line "
            "further from the question than the one closest line (which holds one of the same shape), by that line")
