"""Led values: a question about a pasted text that ends on a verb and its preposition ("Who was the ticket about the
projector in the Fjord meeting room assigned to?") is answered by what follows those words on the line closest to
the question ("... | Hana Sato | Meeting room Fjord | Projector will not turn on ... | assigned to Ottilie"). The
0.5B model answered with the same line's reporter, Hana Sato (ho57, session 58's start run). An answer that leaves
that value out is asked for once more with the line in view; if it still leaves it out, the line is said after it."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, last_words

NOTE = ("(Check your answer against the line of the text closest to my question: \"{line}\". It says "
        "\"{words} {value}\". Answer my question in one sentence.)")
SAID = "Check this against the text you pasted: the line closest to the question says \"{words} {value}\": \"{line}\""
# the question's last two words: a verb (or a noun) and the preposition it ends on
_ENDS = re.compile(r"\b([a-z]{3,})\s+(to|by|from|with|for|into|onto|at|in|on|under|as|about)$", re.I)
_NOT_VERBS = frozenset("it them that this these those was were are the you him her one ones out".split())
_VALUE_END = r"\s*(?:[|;,()\[\]]|\.(?:\s|$)|\s-\s|$)"
MAX_VALUE = 40  # characters of a value: a name, a room, a code
MAX_LINE = 200


def _line_and_words(turn: Turn) -> tuple[str, str, str] | None:
    """(the closest line, the question's closing words as the line has them, the value after them), or None."""
    from oi_local.core.rules.long_request import (
        _stem,
        closeness_words,
        pasted_parts,
        question_of,
    )
    from oi_local.core.rules.pasted_answers import MAX_LINES, closest

    parts = pasted_parts(turn.engine, turn.request)
    if parts is None:
        return None
    own = parts[0] + "\n" + parts[2]
    question = question_of(own).strip().rstrip("?!. ").strip()
    ends = _ENDS.search(question)
    asked = closeness_words(own)
    if ends is None or ends.group(1).lower() in _NOT_VERBS or not asked:
        return None
    lines = [ln for ln in parts[1].splitlines() if ln.strip()]
    if len(lines) > MAX_LINES:
        return None
    scores, top = closest(lines, asked)
    best = [i for i, sc in enumerate(scores) if sc == top]
    if top <= 0 or len(best) != 1:
        return None
    line = lines[best[0]].strip()
    led = re.search(rf"\b({re.escape(_stem(ends.group(1).lower()))}\w*\s+{ends.group(2)})\s+(.+?){_VALUE_END}", line, re.I)
    if led is None or not 0 < len(led.group(2).strip(" \"'")) <= MAX_VALUE:
        return None
    return line, led.group(1), led.group(2).strip(" \"'")


def _left_out(turn: Turn) -> tuple[str, str, str] | None:
    said = last_words(turn)
    if not turn.runs or not said.strip() or said.startswith("This is not done"):
        return None
    found = _line_and_words(turn)
    if found is None or re.search(rf"(?<![\w-]){re.escape(found[2])}(?![\w-])", said, re.I):
        return None
    return found


def follow_up(turn: Turn) -> Ask | None:
    if turn.counts["led values"]:
        return None
    found = _left_out(turn)
    if found is None:
        return None
    turn.counts["led values"] += 1
    line, words, value = found
    return Ask(NOTE.format(line=line[:MAX_LINE], words=words, value=value), final=True)


def finish(turn: Turn) -> str | None:
    found = _left_out(turn)
    if found is None:
        return None
    line, words, value = found
    return SAID.format(words=words, value=value, line=line[:MAX_LINE])


rule = Rule(
    name="led values", setting="check_answers", follow_up=follow_up, finish=finish,
    summary="a question about a pasted text that ends on a verb and its preposition (\"who was it assigned to?\"), "
            "answered without what follows those words on the one line closest to the question, is asked once more "
            "with that line in view; if the answer still leaves it out, the line is said after it")
