"""Offline: a request that needs the internet ("look up today's exchange rate online") gets an answer
from what is on this computer only, because the sandbox gives code no network unless the person
allows it. The 0.5B model never said so: asked for a total in pounds at today's rate, it summed the
euros and answered with that. The turn's last line says that nothing was looked up online, unless the
model's own answer already speaks of the network."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule
from oi_local.core.rules.turn import Turn, instruction, last_words

NOTE = ("Note: code here runs without network access (allow it with interpreter.computer.allow_network = True), so "
        "nothing was looked up online; the answer uses only what is on this computer.")
NEEDS = re.compile(r"\b(?:look\w*|search\w*|check\w*|find\w*|get\w*|fetch\w*|pull\w*|download\w*|google\w*)\s+"
                   r"(?:[\w']+\s+){0,8}?(?:online|on the (?:internet|web|net)|from the (?:internet|web|net))\b|"
                   r"\bgoogle it\b|"
                   r"\b(?:today'?s|current|live|latest|up[- ]to[- ]date)\s+(?:\w+\s+)?(?:exchange rates?|rates?|prices?|"
                   r"weather|forecast|news|scores?|headlines)\b|https?://", re.I)
SAID = re.compile(r"\b(?:internet|offline|online|network|connection|connect\w*|web)\b", re.I)


def finish(turn: Turn) -> str | None:
    computer = turn.engine.computer
    allowed = getattr(computer, "network_allowed", None)
    # the person's own words: a pasted page's links ask for nothing
    if not NEEDS.search(instruction(turn.request)) or (callable(allowed) and allowed()) or SAID.search(last_words(turn)):
        return None
    return NOTE


rule = Rule(
    name="offline", setting="honest_end", finish=finish,
    summary="a request that needs the internet (\"look up today's exchange rate online\", a URL) ends with a note "
            "that code here has no network unless allowed, so nothing was looked up online, unless the model's "
            "answer already says so")
