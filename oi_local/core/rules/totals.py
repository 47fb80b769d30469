"""Totals: asked how many minutes they listened to one show in 2024, the code printed each episode's
minutes, twelve lines, and the 0.5B model answered with the first ("The episode with id 8 was 18
minutes long.", ho38). A how-many or how-much question that asks for no breakdown (each, per, by ...)
and no which, who or most (there the amount is one of the rows printed: "which region brought in the
most, and how much?"), whose last clean run printed several lines of numbers and
no total, is asked once for code that adds them up and prints the total. Not when it printed no more
values than the request asks questions: asked how many words a story has and how many times a name comes
up, the two right numbers were taken for parts of one total, and the model's next code counted a
sentence's letters (ho40, a development run)."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, asks_back, code_retry, instruction, own_code

NOTE = ("(Not answered yet: I asked {asked}, which is one total, and the code printed {n} separate values. Write one "
        "```python block that works out that one total from them and prints it with its label, and anything else I asked.)")
# "If I leave out the heaviest one, what do the rest weigh together?" (ho57: the code printed the rest as one list)
_ASKED = re.compile(r"\bhow\s+(?:many|much)\b[^?!,;]{0,40}|\bwhat\s+(?:do|does|did|would|will)\b[^?!,;]{0,40}?\b"
                    r"(?:together|altogether|combined|in\s+total|in\s+all)\b", re.I)
# a breakdown asked for: "for each file", "per month", "by category", "broken down", "separately", "list"
_BREAKDOWN = re.compile(r"\b(?:each|every|per|by|broken\s+down|breakdown|separately|individually|respectively|list|"
                        r"apiece|show\s+me\s+(?:all|the))\b", re.I)
# "which region brought in the most, and how much was it?": the amount is the top row's, one of those printed
_WHICH = re.compile(r"\b(?:which|who|whose|what\s+\w+\s+(?:has|had|is|was))\b|\b(?:most|least|fewest|highest|lowest|"
                    r"biggest|largest|smallest|top|best|worst|max(?:imum)?|min(?:imum)?)\b", re.I)
_SUMMED = re.compile(r"\b(?:total|sum|all|overall|altogether|combined|together|count|in\s+all|grand)\b", re.I)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")
MIN_LINES, MAX_LINES = 2, 60


_LIST = re.compile(r"\[\s*-?\d[\d.]*(?:\s*,\s*-?\d[\d.]*)+\s*\]")


def separate_values(output: str) -> int:
    """How many lines of a short output each give a value (and no total), or how many numbers one printed list of
    them holds ("[2.4, 0.8, 3.3]"); 0 when it is not such a list."""
    lines = [ln for ln in output.splitlines() if ln.strip()]
    if len(lines) == 1 and _LIST.fullmatch(lines[0].strip()):
        return len(_NUMBER.findall(lines[0]))
    if not (MIN_LINES <= len(lines) <= MAX_LINES) or any(_SUMMED.search(ln) for ln in lines):
        return 0
    with_numbers = [ln for ln in lines if _NUMBER.search(ln)]
    return len(lines) if len(with_numbers) == len(lines) and len(set(lines)) > 1 else 0


def picked_line(request: str, output: str) -> bool:
    """A word of the request (a name, not a word of the question) is on exactly one printed line."""
    lines = [ln.lower() for ln in output.splitlines() if ln.strip()]
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w'-]{2,}", request)} - _QUESTION_WORDS
    return any(sum(bool(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", ln)) for ln in lines) == 1 for w in words)


_QUESTION_WORDS = frozenset("how many much the and are was were has have had did does this that there total all made "
                            "in of for from with what".split())


def follow_up(turn: Turn) -> Ask | None:
    if not (turn.steps and turn.steps_left) or turn.counts["totals"] >= 1 or asks_back(turn.engine):
        return None
    last = turn.runs[-1] if turn.runs else None
    own = instruction(turn.request)
    asked = _ASKED.search(own)
    if last is None or last.failed or last.interrupted or asked is None or _BREAKDOWN.search(own):
        return None
    if _WHICH.search(own):
        return _part_total(turn, own, last.output, last.code)
    n = separate_values(last.output)
    if not n or n <= max(len(_ASKED.findall(own)), own.count("?")):
        return None  # as many values as questions: "How many words ...? And how many times does Marguerite come up?"
    if picked_line(own, last.output):
        return None  # "how many commits has Sam made?" over a count per author: Sam's line is the answer (ho49)
    turn.counts["totals"] += 1
    return Ask(NOTE.format(asked=f'"{asked.group(0).strip()}"', n=n), code_retry(turn.engine, 43))


def _part_total(turn: Turn, own: str, output: str, code: str) -> Ask | None:
    """A which-question with a total asked beside it ("which variety gave the most kilos, and how many kilos did we pick
    in total?"), whose run printed the values per row or group as one dict or list and no number that is their sum: the
    0.5B model printed the kilos per variety and the top one, and answered the top one's kilos for the total (ho58,
    session 59's start)."""
    from oi_local.core.rules.long_request import question_parts

    parts = [p for p in question_parts(own) if _ASKED.search(p) and _SUMMED.search(p) and not _WHICH.search(p)]
    values = listed_values(output)
    if len(question_parts(own)) < 2 or not parts or len(values) < 2:
        return None
    total = sum(values)
    printed = [float(n.replace(",", "")) for n in _NUMBER.findall(output)]
    if any(abs(n - total) <= 0.01 * max(1.0, abs(total)) for n in printed):
        return None
    turn.counts["totals"] += 1
    said = _ASKED.search(parts[0])
    asked = f'"{(said.group(0) if said else parts[0]).strip()}"'
    name = printed_name(code)
    if name is None:
        return Ask(NOTE.format(asked=asked, n=len(values)), code_retry(turn.engine, 43))
    # the same code with the sum of what it printed: asked for code that works out the total, the model read the file
    # again as csv.DictReader("orchard_harvest.csv") and failed twice (ho58, a development run)
    adding = f"{name}.values() if isinstance({name}, dict) else {name}"
    return own_code(turn.engine, SUMMED_NOTE.format(asked=asked, n=len(values)),
                    f"{code.rstrip()}\nprint('total:', round(sum({adding}), 2))", SUMMED_HOW)


SUMMED_NOTE = "(Not answered yet: I asked {asked}, which is one total, and the code printed {n} separate values."
SUMMED_HOW = "This block also prints their total; reply with it, then answer each thing I asked."


def printed_name(code: str) -> str | None:
    """The one variable the code prints whole (`print(totals)`, `print(dict(totals))`), or None."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    names = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print" and len(n.args) == 1:
            arg = n.args[0]
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in ("dict", "list") \
                    and len(arg.args) == 1:
                arg = arg.args[0]
            if isinstance(arg, ast.Name):
                names.append(arg.id)
    return names[0] if len(set(names)) == 1 else None


def listed_values(output: str) -> list[float]:
    """The numbers of the one printed line that is a dict or a list of numbers ("{'Cox': 241.9, 'Gala': 216.7}")."""
    found = []
    for line in output.splitlines():
        line = line.strip()
        if line[:1] not in "{[":
            continue
        try:
            value = ast.literal_eval(line)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        items = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
        if items and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in items):
            found.append([float(v) for v in items])
    return found[0] if len(found) == 1 else []


rule = Rule(
    name="totals", setting="check_answers", follow_up=follow_up,
    summary="a how-many or how-much question that asks one amount and no breakdown (each, per, by, list ...) nor "
            "which, who or most, whose last "
            "clean run printed more lines of numbers than the request asks questions and no total, is asked once for code that works out "
            "the one total and prints it; so is a total asked beside a which-question (\"and how many kilos did we pick in "
            "total?\") whose run printed the values as one dict or list and no number that is their sum")
