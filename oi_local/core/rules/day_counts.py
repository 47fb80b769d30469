"""Day counts: "my visa runs out 17 feb 2026. how many days is that from 2025-09-04?" The 0.5B model
wrote `timedelta(days=27)` from nowhere, added it to the first date, and printed 27 (ho50). When a
request asks how many days (nights, weeks) lie between the two dates it names, each with its year, and
the last run failed or printed no number that is that count (or one more, counting both days; of weeks,
the days over 7), the loop offers its own code that counts them, once a turn."""
from __future__ import annotations

import re
from datetime import date

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code, printed_numbers

NOTE = "(That did not print how many days there are from {start} to {end}."
HOW = "This block counts them; reply with it, then answer with the number it prints."
ASKED = re.compile(r"\bhow\s+many\s+(?:more\s+)?(?P<unit>days|nights|weeks)\b|\b(?P<unit2>days|nights|weeks)\s+(?:are\s+there\s+)?"
                   r"(?:between|until|till|til|left|from|since|to\s+go)\b|\bhow\s+long\s+(?:is\s+it\s+)?(?:until|till|between|from)\b",
                   re.I)


# "how many nights am I away in total?" of an itinerary: the span from its first date to its last (ho51)
_TRIP = re.compile(r"\b(?:away|trip|travel\w*|holiday|vacation|stay\w*|gone|abroad|itinerary|hotels?|booking)\b", re.I)
_TEXTS = (".txt", ".md")
MAX_SPAN = 366  # days: an itinerary's dates, not a diary's


def asked(request: str) -> tuple[date, date, str] | None:
    """(the earlier date, the later one, the unit asked) of such a request, or None: the two dates it names,
    or for a trip's length the first and last dates of the one text file it names."""
    from oi_local.core.dates import named_dates

    words = instruction(request)
    m = ASKED.search(words)
    if m is None:
        return None
    dates = named_dates(words)
    unit = (m.group("unit") or m.group("unit2") or "days").lower()
    if not dates and _TRIP.search(words):
        dates = _file_dates(words)
        if len(dates) < 2:
            return None
        found = sorted(date(d.year or 0, d.month, d.day) for d in dates)
        return (found[0], found[-1], unit) if (found[-1] - found[0]).days <= MAX_SPAN else None
    if len(dates) != 2 or any(d.year is None for d in dates):
        return None
    first, second = sorted(date(d.year or 0, d.month, d.day) for d in dates)
    return first, second, unit


def _file_dates(words: str) -> list:
    """The dates, each with its year, in the one text file the request names (none if any lacks a year)."""
    from pathlib import Path

    from oi_local.core.dates import named_dates
    from oi_local.core.hints import mentioned_paths

    files = [p for p in mentioned_paths(words, Path.cwd()) if p.is_file() and p.suffix.lower() in _TEXTS]
    if len(files) != 1 or files[0].stat().st_size > 20_000:
        return []
    dates = named_dates(files[0].read_text(encoding="utf-8", errors="replace"))
    return [] if any(d.year is None for d in dates) else dates


def ready_code(start: date, end: date, unit: str) -> str:
    lines = ["from datetime import date", f"start, end = date({start.year}, {start.month}, {start.day}), "
             f"date({end.year}, {end.month}, {end.day})", "days = (end - start).days",
             f"print(days, {'nights' if unit == 'nights' else 'days'!r}, 'from', start.strftime('%d %B %Y'), 'to', "
             "end.strftime('%d %B %Y'), f'({days + 1} counting both days)')"]
    if unit == "weeks":
        lines.append("print(round(days / 7, 1), 'weeks', f'({days // 7} whole weeks and {days % 7} days)')")
    return "\n".join(lines)


def _counts(start: date, end: date, unit: str) -> set[float]:
    days = (end - start).days
    found: set[float] = {days, days + 1}
    if unit == "weeks":
        found |= {round(days / 7, 1), round(days / 7, 2), days // 7, round(days / 7)}
    return found


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["day counts"]:
        return None
    try:
        found = asked(turn.request)
    except (OSError, ValueError):
        return None
    if found is None:
        return None
    start, end, unit = found
    printed = printed_numbers(last.output)
    if not last.failed and printed & _counts(start, end, unit):
        return None
    turn.counts["day counts"] += 1
    return own_code(turn.engine, NOTE.format(start=start.strftime("%d %B %Y"), end=end.strftime("%d %B %Y")),
                    ready_code(start, end, unit), HOW)


rule = Rule(
    name="day counts", setting="check_answers", after_run=after_run,
    summary="asked how many days (nights, weeks) lie between the two dates a request names, each with its year (or, asked "
            "how long a trip is, the first and last dates of the one text file it names, an itinerary): a run "
            "that failed or printed no such count (or one more, counting both days) gets the loop's own code that "
            "counts them (once a turn)")
