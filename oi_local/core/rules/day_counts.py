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


def asked(request: str) -> tuple[date, date, str] | None:
    """(the earlier date, the later one, the unit asked) of such a request, or None."""
    from oi_local.core.dates import named_dates

    words = instruction(request)
    m = ASKED.search(words)
    dates = named_dates(words)
    if m is None or len(dates) != 2 or any(d.year is None for d in dates):
        return None
    first, second = sorted(date(d.year or 0, d.month, d.day) for d in dates)
    return first, second, (m.group("unit") or m.group("unit2") or "days").lower()


def ready_code(start: date, end: date, unit: str) -> str:
    lines = ["from datetime import date", f"start, end = date({start.year}, {start.month}, {start.day}), "
             f"date({end.year}, {end.month}, {end.day})", "days = (end - start).days",
             "print(days, 'days from', start.strftime('%d %B %Y'), 'to', end.strftime('%d %B %Y'), "
             "f'({days + 1} counting both days)')"]
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
    found = asked(turn.request)
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
    summary="asked how many days (nights, weeks) lie between the two dates a request names, each with its year: a run "
            "that failed or printed no such count (or one more, counting both days) gets the loop's own code that "
            "counts them (once a turn)")
