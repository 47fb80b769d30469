"""Time zones: asked "I have a call at 3:30pm London time on Friday 14 March 2025. What time is that for my
colleague in New York?", the 0.5B model parsed the date with a wrong format, then typed a variable name with a
space, then subtracted two `time.mktime` tuples and answered -149.0; asked "And for the one in Tokyo?" next, it
ran the same code again (ho42). A clock time in one place, asked in another, is two time zones of the tz database
(Python's zoneinfo), with summer time on the given date. When a request gives a time and names two places whose
time zones are known (a city of the tz database, or a common country or zone name), or a follow-up names one new
place after such a request, code that does not convert with zoneinfo (or pytz) is not run and the model is given
the code that does: the time in the first place, and in the other, with its date and weekday."""
from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from oi_local.core.dates import named_dates
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: {time} in {src} is what time in {dst}?"
SHOWN = "Not run: the code does not convert between the time zones of {src} and {dst}; asked afresh with the code that does."
# places people name that are not the last part of a tz database name
ALIASES = {"uk": "Europe/London", "britain": "Europe/London", "england": "Europe/London", "nyc": "America/New_York",
           "new york city": "America/New_York", "california": "America/Los_Angeles", "san francisco": "America/Los_Angeles",
           "seattle": "America/Los_Angeles", "washington": "America/New_York", "boston": "America/New_York",
           "japan": "Asia/Tokyo", "india": "Asia/Kolkata", "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata",
           "bangalore": "Asia/Kolkata", "germany": "Europe/Berlin", "france": "Europe/Paris", "spain": "Europe/Madrid",
           "italy": "Europe/Rome", "netherlands": "Europe/Amsterdam", "china": "Asia/Shanghai", "beijing": "Asia/Shanghai",
           "korea": "Asia/Seoul", "singapore": "Asia/Singapore", "hong kong": "Asia/Hong_Kong", "dubai": "Asia/Dubai",
           "brazil": "America/Sao_Paulo", "sao paulo": "America/Sao_Paulo", "mexico city": "America/Mexico_City",
           "utc": "UTC", "gmt": "Europe/London", "pacific": "America/Los_Angeles", "eastern": "America/New_York",
           "central": "America/Chicago", "mountain": "America/Denver", "pst": "America/Los_Angeles",
           "pdt": "America/Los_Angeles", "est": "America/New_York", "edt": "America/New_York", "cet": "Europe/Paris",
           "ist": "Asia/Kolkata", "jst": "Asia/Tokyo", "aest": "Australia/Sydney"}
_TIME = re.compile(r"\b(?P<h>[01]?\d|2[0-3])(?:[:.](?P<m>[0-5]\d))?\s*(?P<ap>[ap]\.?m\.?)?(?![\w:])", re.I)
_ASKS = re.compile(r"\bwhat\s+time\b|\btime\s+(?:is|will|would)\b|\btime\s+(?:there|for|in)\b|\bconvert\b|"
                   r"\bfor\s+(?:my|our|the|him|her|them)\b|\b(?:and|what\s+about|how\s+about)\s+(?:for\s+)?(?:the\s+one\s+)?in\b",
                   re.I)
_LOOKS = re.compile(r"\bzoneinfo\b|\bZoneInfo\b|\bpytz\b|\bdateutil\.tz\b")


@lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    from zoneinfo import available_timezones

    names = {z.rsplit("/", 1)[-1].replace("_", " ").lower(): z for z in sorted(available_timezones())
             if "/" in z and not z.startswith(("Etc/", "SystemV/", "US/", "posix/", "right/"))}
    return {**names, **ALIASES}


def _places(text: str) -> list[tuple[int, str, str]]:
    """(where, the place as written, its time zone) for each known place in the text, in order."""
    zones = _zones()
    found: list[tuple[int, str, str]] = []
    taken: list[range] = []
    for name in sorted(zones, key=len, reverse=True):  # "new york" before "york"
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I):
            if name in ALIASES and len(name) <= 4 and not m.group(0).isupper() and name not in ("uk", "utc", "gmt"):
                continue  # "est", "ist": zone names only when written in capitals
            if name in ("central", "eastern", "pacific", "mountain") and not re.match(r"\s+time", text[m.end():], re.I):
                continue
            if any(m.start() in r for r in taken):
                continue
            taken.append(range(m.start(), m.end()))
            found.append((m.start(), m.group(0), zones[name]))
    return sorted(found)


def _clock(text: str) -> tuple[int, int, int] | None:
    """(hour, minute, where it is written) of the first clock time."""
    for m in _TIME.finditer(text):
        h, mins, ap = int(m["h"]), int(m["m"] or 0), (m["ap"] or "").lower().replace(".", "")
        if not ap and not m["m"]:
            continue  # a bare number: a day, a count
        if ap == "pm" and h < 12:
            h += 12
        elif ap == "am" and h == 12:
            h = 0
        return h, mins, m.start()
    return None


def asked(request: str, earlier: str, cwd: Path | None = None) -> dict[str, Any] | None:
    words = instruction(request)
    places = _places(words)
    clock = _clock(words)
    if clock is not None and len(places) == 2 and _ASKS.search(words):
        # "3:30pm London time ... New York", "in Sydney when it's 9am in Berlin": the place nearest the clock is where it is
        near = sorted(places, key=lambda p: abs(p[0] - clock[2]))
        src, dst = (near[0][1], near[0][2]), (near[1][1], near[1][2])
        day = next((d for d in named_dates(words) if d.year), None)
        return {"clock": clock[:2], "src": src, "dst": dst, "day": (day.year, day.month, day.day) if day else None}
    if clock is None and len(places) == 1 and earlier and _ASKS.search(words):  # "And for the one in Tokyo?"
        before = asked(earlier, "")
        if before is not None and places[0][2] not in (before["src"][1], before["dst"][1]):
            return {**before, "dst": (places[0][1], places[0][2])}
    return None


def ready_code(found: dict[str, Any]) -> str:
    h, m = found["clock"]
    day = found["day"] or date.today().timetuple()[:3]
    (src, src_zone), (dst, dst_zone) = found["src"], found["dst"]
    return ("from datetime import datetime\nfrom zoneinfo import ZoneInfo\n"
            f"when = datetime({day[0]}, {day[1]}, {day[2]}, {h}, {m}, tzinfo=ZoneInfo({src_zone!r}))  # {src}\n"
            f"there = when.astimezone(ZoneInfo({dst_zone!r}))  # {dst}\n"
            f"print(f'{{when:%A %d %B %Y, %H:%M}} ({{when:%I:%M %p}}) in {src} is {{there:%A %d %B %Y, %H:%M}} "
            f"({{there:%I:%M %p}}) in {dst}')")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["time zones"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, turn.earlier_request)
    if found is None or _LOOKS.search(block.code) and found["dst"][1] in block.code:
        return None  # converts, and to the zone asked (a follow-up's code for the place before is not: ho42's Tokyo)
    turn.counts["time zones"] += 1
    h, m = found["clock"]
    ask = own_code(turn.engine, NOTE.format(time=f"{h:02d}:{m:02d}", src=found["src"][0], dst=found["dst"][0]), ready_code(found))
    return Verdict(note=SHOWN.format(src=found["src"][0], dst=found["dst"][0]), ask=ask)


rule = Rule(
    name="time zones", setting="repair_slips", check=check,
    summary="a time in one place asked in another (two places whose time zones are known: a city of the tz database or a "
            "common country or zone name), or a follow-up naming one new place: code that does not convert with zoneinfo "
            "is not run and the model is given the code that does, with the date's summer time, the weekday and the date")
