"""Line totals: "i logged this weeks runs in runs.txt, all in miles. whats that in km total?" over lines like
"wed  5 mi" and "sun  13.1 mi (half marathon!!)". The 0.5B model multiplied days by 3.1, then converted
the lines at made-up places [1, 4, 7, 10, 13] until its tries ran out (ho49, read after that set's end).
When a request asks for the total (or average) of one named text file whose lines each hold one number
(dates and times of day aside), a run that failed or printed no number near that total, in the file's
unit or the one asked for ("in km"), gets the loop's own code: each line's number, the total (or
average), and the total in the asked unit where both units are known lengths, weights or volumes. Once a turn."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not print the {what} of the numbers in {file}, one on each line."
HOW = "This block prints it; reply with it, then answer with the {what} it prints."
MAX_BYTES = 200_000
MIN_LINES = 2
_TEXT = {".txt", ".md", ".log", ".text", ""}
_TOTAL = re.compile(r"\b(?:total|sum|add(?:ed)?\s+up|altogether|in\s+all|combined|overall|how\s+(?:far|much|many\s+(?:km|miles|kilo\w*)))\b", re.I)
_COUNTED = re.compile(r"\bhow\s+many\b(?!\s+(?:km|miles?|kilo\w*|hours|minutes|steps|calories|litres|liters|kg|pounds|lbs))", re.I)
_MEAN = re.compile(r"\b(?:average|avg|mean)\b", re.I)
# dates and times of day are not the line's number
_NOT_NUMBERS = re.compile(r"\b\d{4}-\d\d-\d\d\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{1,2}:\d\d(?::\d\d)?\b|^\s*\d+[.)]\s")
NUMBER = r"-?\d+(?:,\d{3})*(?:\.\d+)?"
_NUMBER = re.compile(r"(?<![\w.])" + NUMBER + r"(?![\d])")
# units in one base each: metres, grams, litres
UNITS = {"mi": ("length", 1609.344), "mile": ("length", 1609.344), "km": ("length", 1000.0), "m": ("length", 1.0),
         "metre": ("length", 1.0), "meter": ("length", 1.0), "kilometre": ("length", 1000.0),
         "kilometer": ("length", 1000.0), "ft": ("length", 0.3048), "feet": ("length", 0.3048), "foot": ("length", 0.3048),
         "kg": ("weight", 1000.0), "kilo": ("weight", 1000.0), "kilogram": ("weight", 1000.0), "g": ("weight", 1.0),
         "gram": ("weight", 1.0), "lb": ("weight", 453.59237), "lbs": ("weight", 453.59237), "pound": ("weight", 453.59237),
         "oz": ("weight", 28.349523125), "ounce": ("weight", 28.349523125), "l": ("volume", 1.0), "litre": ("volume", 1.0),
         "liter": ("volume", 1.0), "ml": ("volume", 0.001), "gal": ("volume", 3.785411784), "gallon": ("volume", 3.785411784)}


def _unit(word: str) -> str | None:
    w = word.lower().rstrip(".")
    return w if w in UNITS else w[:-1] if w.endswith("s") and w[:-1] in UNITS else None


def numbers(text: str) -> list[tuple[float, str | None]] | None:
    """Each line's one number and the unit after it, or None when a line holds two numbers."""
    found = []
    for line in text.splitlines():
        plain = _NOT_NUMBERS.sub(" ", line)
        hits = list(_NUMBER.finditer(plain))
        if not hits:
            continue
        if len(hits) > 1:
            return None
        after = re.match(r"\s*([A-Za-z]+)", plain[hits[0].end():])
        found.append((float(hits[0].group(0).replace(",", "")), _unit(after.group(1)) if after else None))
    return found if len(found) >= MIN_LINES else None


@dataclass(frozen=True)
class Asked:
    file: str
    what: str  # "total" or "average"
    have: str | None  # the file's unit
    target: str | None  # the unit asked for, when another of the same kind
    values: tuple[float, ...]


def asked(request: str, cwd: Path) -> Asked | None:
    """(file, "total"/"average", the file's unit, the asked unit) for such a request, or None."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    mean = bool(_MEAN.search(words))
    if not (_TOTAL.search(words) or mean) or "\n" in words.strip() or _COUNTED.search(words):
        return None
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in _TEXT]
    if len(files) != 1 or files[0].stat().st_size > MAX_BYTES:
        return None
    found = numbers(files[0].read_text(encoding="utf-8", errors="replace"))
    if found is None:
        return None
    units = {u for _, u in found if u}
    have = units.pop() if len(units) == 1 else None
    said = [u for w in re.findall(r"[A-Za-z]+", words) if (u := _unit(w))]
    if have is None and said:
        have = said[0]  # "all in miles"
    # "all in miles. whats that in km": the unit of the file's kind that is not the file's own
    targets = [u for m in re.finditer(r"\b(?:in|to|into|as)\s+([A-Za-z]+)", words) if (u := _unit(m.group(1)))]
    target = next((u for u in targets if have and UNITS[u][0] == UNITS[have][0] and UNITS[u][1] != UNITS[have][1]), None)
    base = cwd.resolve()
    file = str(files[0].relative_to(base)) if files[0].is_relative_to(base) else str(files[0])
    return Asked(file, "average" if mean else "total", have, target, tuple(v for v, _ in found))


def ready_code(found: Asked) -> str:
    file, what, have, target = found.file, found.what, found.have, found.target
    unit = f" {have}" if have else ""
    lines = ["import re", "", "values = []", f"with open({file!r}, encoding='utf-8', errors='replace') as f:",
             "    for line in f:",
             f"        plain = re.sub({_NOT_NUMBERS.pattern!r}, ' ', line)  # dates and times are not the number",
             f"        found = re.findall({NUMBER!r}, plain)",
             "        if found:", "            values.append(float(found[0].replace(',', '')))",
             "            print(line.strip(), '->', values[-1])",
             f"result = {'sum(values) / len(values)' if what == 'average' else 'sum(values)'}",
             f"print({what + ':'!r}, round(result, 2), {unit.strip()!r}, f'({{len(values)}} lines)')"]
    if have and target:
        factor = UNITS[have][1] / UNITS[target][1]
        lines.append(f"print({what + ' in ' + target + ':'!r}, round(result * {factor!r}, 2), {target!r})")
    return "\n".join(lines)


def expected(found: Asked) -> float:
    """The number the answer needs: the total or average, in the asked unit where one is asked."""
    result = sum(found.values) / len(found.values) if found.what == "average" else sum(found.values)
    return result * UNITS[found.have][1] / UNITS[found.target][1] if found.have and found.target else result


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["line totals"]:
        return None
    try:
        found = asked(turn.request, Path.cwd())
    except OSError:
        return None
    if found is None:
        return None
    want = expected(found)
    printed = [float(n.replace(",", "")) for n in re.findall(r"-?\d[\d,]*(?:\.\d+)?", last.output[:5000])]
    if not last.failed and any(abs(n - want) <= max(0.051, abs(want) * 0.005) for n in printed):
        return None
    turn.counts["line totals"] += 1
    return own_code(turn.engine, NOTE.format(what=found.what, file=found.file), ready_code(found),
                    HOW.format(what=found.what))


rule = Rule(
    name="line totals", setting="check_answers", after_run=after_run,
    summary="asked for the total (or average) of a named text file whose lines each hold one number (dates and times "
            "aside), a run that failed or printed no number near it (in the unit asked for: \"in km\" of miles) gets the "
            "loop's own code: each line's number, the total or average, and that in the asked unit (once a turn)")
