"""Saved answers: asked "Please put that February number in a file called feb_groceries.txt" after answering
138.65, the 0.5B model ran the earlier code again and wrote `str(feb_groceries)`, the list of amounts, into the
file (ho47, a development run of session 50). A follow-up that asks to put "that number" (the total, the
amount, the average ...) into a text file it names, after an answer that gave one number, is checked after its
run: when the file does not hold that number, the loop offers its own code that writes it, once a turn."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

ASK = "(That did not put the answer before, {value}, into {file}."
HOW = "This block writes it; reply with it."
_PUT = re.compile(r"\b(?:put|save|write|store|record|stick|jot|add)\b", re.I)
# "that February number", "the total": a number asked for by name ("put that in notes.txt" after "3 tasks are overdue:
# A, B, C" may mean the names)
_THAT = re.compile(r"\b(?:that|this|the)(?:\s+[\w'-]+){0,2}?\s+(?:number|figure|total|amount|sum|value|count|average|mean|"
                   r"price|cost|result)\b", re.I)
_FILE = re.compile(r"(?<![\w/.-])([\w-]+\.(?:txt|md))\b", re.I)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w-]|\.\d)")
_DATE = re.compile(r"\b\d{4}-\d\d(?:-\d\d)?\b|\b\d{1,2}[:/]\d\d\b")


def _earlier_answer(turn: Turn) -> str:
    """The model's last prose answer before this turn's request ("" if none)."""
    for m in reversed(turn.engine.messages[:turn.start]):
        if m["role"] == "assistant" and m["type"] == "message" and isinstance(m.get("content"), str):
            return str(m["content"])
        if m["role"] == "user" and m["type"] == "message" and m is not turn.engine.messages[turn.start - 1]:
            return ""
    return ""


def _one_number(text: str) -> str | None:
    found = list(dict.fromkeys(n for n in _NUMBER.findall(_DATE.sub(" ", text))))
    return found[0] if len(found) == 1 else None


def wanted(turn: Turn) -> tuple[str, str] | None:
    """(file, the number to write) when the request puts the earlier answer's one number into a text file."""
    words = instruction(turn.request)
    files = list(dict.fromkeys(_FILE.findall(words)))
    if len(files) != 1 or not _PUT.search(words) or not _THAT.search(_FILE.sub(" ", words)) or _NUMBER.search(_FILE.sub(" ", words)):
        return None
    value = _one_number(_earlier_answer(turn))
    return (files[0], value) if value else None


def _holds(path: Path, value: str) -> bool:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    want = float(value.replace(",", ""))
    return any(abs(float(n.replace(",", "")) - want) <= 0.005 for n in _NUMBER.findall(text))


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["saved answer"] or not turn.start:
        return None
    found = wanted(turn)
    if found is None or _holds(Path(found[0]), found[1]):
        return None
    turn.counts["saved answer"] += 1
    file, value = found
    code = f"with open({file!r}, 'w') as f:\n    f.write({value + chr(10)!r})\nprint(open({file!r}).read())"
    return own_code(turn.engine, ASK.format(value=value, file=file), code, HOW)


rule = Rule(
    name="saved answers", setting="check_answers", after_run=after_run,
    summary="a follow-up that asks to put \"that number\" (the total, the amount, the average) into a text file it names, after "
            "an answer that gave one number, whose run leaves the file without that number: the loop offers its own "
            "code that writes it, once a turn")
