"""Paces: "did a half marathon yesterday - 13.1 miles in 1:52:30. whats my avg pace in minutes per km?"
The 0.5B model read 1:52:30 as 152.30 seconds, divided the miles by it and answered 0.09 (ho50). When a
request names one distance (miles or km) and one time it took ("1:52:30", "48:10", "1 hour 5 minutes")
and asks for the pace (minutes per km or mile) or the speed (km/h, mph), and the last run failed or
printed no such figure, the loop offers its own code that works it out, once a turn."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not print the {what} for {distance} in {time}."
HOW = "This block works it out; reply with it, then answer with what it prints."
KM_PER_MILE = 1.609344
DISTANCE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(miles?|mi|km|kms|kilomet(?:er|re)s?|k)\b", re.I)
CLOCK = re.compile(r"(?<![\w:.])(?:(\d{1,2}):)?(\d{1,2}):(\d{2})(?![\w:])(?!\s*(?:am|pm|a\.m|p\.m)\b)", re.I)
SPELLED = re.compile(r"(?<![\w.])(?:(\d+)\s*(?:hours?|hrs?|h)\b(?:\s*(?:and\s+)?(\d+)\s*(?:minutes?|mins?|m)\b)?|"
                     r"(\d+)\s*(?:minutes?|mins?)\b)(?:\s*(?:and\s+)?(\d+)\s*(?:seconds?|secs?|s)\b)?", re.I)
PACE = re.compile(r"\bpace\b|\b(?:min(?:ute)?s?|time)\s*(?:per|/|a|an)\s*(?:km|kilomet\w*|mile|mi)\b|\bper\s+(?:km|kilomet\w*|mile)\b", re.I)
SPEED = re.compile(r"\bspeed\b|\bhow\s+fast\b|\bkm\s*/\s*h\b|\bkph\b|\bmph\b|\b(?:km|kilomet\w*|miles?)\s+(?:per|an|a)\s+hour\b", re.I)
_PER_MILE = re.compile(r"(?:per|/|a)\s*(?:mile|mi)\b|\bmph\b|\bmiles?\s+(?:per|an|a)\s+hour\b", re.I)
_PER_KM = re.compile(r"(?:per|/|a)\s*(?:km|kilomet\w*)\b|\bkm\s*/\s*h\b|\bkph\b|\bkm\s+(?:per|an|a)\s+hour\b", re.I)


def asked(request: str) -> dict[str, Any] | None:
    """What such a request asks: distance in km, seconds, the unit of the answer, pace or speed; or None."""
    words = instruction(request)
    pace, speed = PACE.search(words), SPEED.search(words)
    distances = DISTANCE.findall(words)
    if not (pace or speed) or len(distances) != 1:
        return None
    clocks, spelled = CLOCK.findall(words), [m for m in SPELLED.findall(words) if any(m)]
    if len(clocks) + len(spelled) != 1:
        return None
    if clocks:
        h, m, s = clocks[0]
        seconds = int(h or 0) * 3600 + int(m) * 60 + int(s)
    else:
        h, m, only_m, s = spelled[0]
        seconds = int(h or 0) * 3600 + int(m or only_m or 0) * 60 + int(s or 0)
    amount, unit = float(distances[0][0]), distances[0][1].lower()
    km = amount * KM_PER_MILE if unit.startswith("mi") else amount
    if not seconds or not km:
        return None
    per = "mile" if _PER_MILE.search(words) else "km" if _PER_KM.search(words) else (
        "mile" if unit.startswith("mi") else "km")
    return {"km": km, "seconds": seconds, "per": per, "pace": bool(pace), "speed": bool(speed),
            "distance": f"{distances[0][0]} {distances[0][1]}", "time": _clock(seconds)}


def _clock(seconds: float) -> str:
    h, rest = divmod(round(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def ready_code(found: dict[str, Any]) -> str:
    per = found["per"]
    lines = [f"km = {found['km']!r}  # the distance in km" + (" (1 mile = 1.609344 km)" if per == "mile" or
                                                                abs(found['km'] - round(found['km'])) > 1e-9 else ""),
             f"seconds = {found['seconds']}  # {found['time']}"]
    size = "km" if per == "km" else "km / 1.609344"
    lines.append(f"units = {size}  # in {per}s")
    if found["pace"]:
        lines += ["pace = seconds / units  # seconds per " + per, "m, s = divmod(round(pace), 60)",
                  f"print(f'pace: {{m}}:{{s:02d}} min per {per} ({{pace / 60:.2f}} minutes)')"]
    if found["speed"]:
        unit = "km/h" if per == "km" else "mph"
        lines.append(f"print(f'speed: {{units / (seconds / 3600):.2f}} {unit}')")
    return "\n".join(lines)


def figures(found: dict[str, Any]) -> tuple[set[str], set[float]]:
    """The pace as m:ss (a second either way) and the figures in decimals that answer it."""
    units = found["km"] if found["per"] == "km" else found["km"] / KM_PER_MILE
    clocks, numbers = set(), set()
    if found["pace"]:
        pace = found["seconds"] / units
        clocks = {_clock(pace + d) for d in (-1, 0, 1)}
        numbers |= {round(pace / 60, 2), round(pace / 60, 1)}
    if found["speed"]:
        speed = units / (found["seconds"] / 3600)
        numbers |= {round(speed, 2), round(speed, 1)}
    return clocks, numbers


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["paces"]:
        return None
    found = asked(turn.request)
    if found is None:
        return None
    clocks, numbers = figures(found)
    out = last.output[:5000]
    said = {round(float(n), 2) for n in re.findall(r"(?<![\w.:])\d+\.\d+(?![\w:])", out)}
    said |= {round(float(n), 1) for n in re.findall(r"(?<![\w.:])\d+\.\d+(?![\w:])", out)}
    if not last.failed and (any(re.search(rf"(?<![\d:]){re.escape(c)}(?![\d:])", out) for c in clocks) or said & numbers):
        return None
    turn.counts["paces"] += 1
    what = " and the ".join(w for w, on in (("pace", found["pace"]), ("speed", found["speed"])) if on)
    return own_code(turn.engine, NOTE.format(what=what, distance=found["distance"], time=found["time"]), ready_code(found), HOW)


rule = Rule(
    name="paces", setting="check_answers", after_run=after_run,
    summary="asked for the pace (minutes per km or mile) or the speed (km/h, mph) of the one distance and the one time a "
            "request names (\"13.1 miles in 1:52:30\"): a run that failed or printed no such figure gets the loop's own "
            "code that works it out (once a turn)")
