"""Git log: asked who made the last commit ("Tell me its message and who made it"), the 0.5B model ran
`git log --oneline`, which shows no author and no date, and answered with the messages alone
(ho5-shell-git-last-commit). A `git log --oneline` for a request that asks who or when shows each
commit's date and author too (`--format='%h %ad %an: %s' --date=short`); the person is told."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, instruction

NOTE = "Changed before it ran: git log shows each commit's date and author too (the request asks {what})."
FORMAT = "--format='%h %ad %an: %s' --date=short"
_WHO = re.compile(r"\b(?:who|whom|author\w*|committer|by\s+whom)\b", re.I)
_WHEN = re.compile(r"\b(?:when|what\s+(?:date|day|time)|how\s+long\s+ago)\b", re.I)
_ONELINE = re.compile(r"(\bgit\s+(?:-C\s+\S+\s+)?log\b[^\n|;&]*?)\s--oneline\b")


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang not in SHELLS or "--oneline" not in block.code:
        return None
    asked = instruction(turn.request)
    what = "who" if _WHO.search(asked) else "when" if _WHEN.search(asked) else None
    if what is None:
        return None
    code = _ONELINE.sub(lambda m: f"{m.group(1)} {FORMAT}", block.code)
    if code == block.code:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(what=what))


rule = Rule(
    name="git log", setting="repair_slips", check=check,
    summary="`git log --oneline` for a request that asks who or when (\"who made the last commit?\") shows each "
            "commit's date and author too; the person is told")
