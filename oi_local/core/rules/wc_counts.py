"""wc counts: asked to use wc to count the words in a file, the 0.5B model ran `wc -l` and answered with the number of
lines (ho55, session 56). Where the request asks to count words, lines or characters (and only one of them) and the
code runs `wc` with the option for another (in a shell block, or as a list given to subprocess), the option is the one
asked for before the code runs; the person is told."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: `wc {old}` counts {counted}; the request asks for {asked}, so `wc {new}`."
_ASKED = {"-w": re.compile(r"\bwords?\b", re.I), "-l": re.compile(r"\blines?\b", re.I),
          "-m": re.compile(r"\b(?:characters?|chars?|letters?)\b", re.I)}
_COUNTED = {"-w": "words", "-l": "lines", "-m": "characters", "-c": "bytes"}
_SHELL = re.compile(r"(\bwc\s+)(-[lwmc])\b")
_LISTED = re.compile(r"""(['"]wc['"]\s*,\s*['"])(-[lwmc])(['"])""")


def check(turn: Turn, block: Block) -> Verdict | None:
    if "wc" not in block.code:
        return None
    asked = [opt for opt, words in _ASKED.items() if words.search(instruction(turn.request))]
    if len(asked) != 1:
        return None
    pattern = _LISTED if block.lang == "python" else _SHELL
    olds = {m.group(2) for m in pattern.finditer(block.code)} - {asked[0]}
    if len(olds) != 1:
        return None
    old = olds.pop()
    block.message["content"] = pattern.sub(lambda m: m.group(0).replace(m.group(2), asked[0]) if m.group(2) == old
                                           else m.group(0), block.code)
    return Verdict(warning=NOTE.format(old=old, counted=_COUNTED[old], asked=_COUNTED[asked[0]], new=asked[0]))


rule = Rule(
    name="wc counts", setting="repair_slips", check=check,
    summary="a request to count words, lines or characters (one of them) whose code runs `wc` with another's option "
            "(`wc -l` for words; in a shell block or a subprocess list) runs it with the option asked for; the person "
            "is told")
