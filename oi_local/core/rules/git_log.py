"""Git log: asked who made the last commit ("Tell me its message and who made it"), the 0.5B model ran
`git log --oneline`, which shows no author and no date, and answered with the messages alone
(ho5-shell-git-last-commit). A `git log --oneline` for a request that asks who or when shows each
commit's date and author too (`--format='%h %ad %an: %s' --date=short`); the person is told.
Asked "what was the last commit message in this git repo?", the 0.5B model ran a worked example's count of
the files changed in two weeks and answered "1 README.md" (ho46, a development run of session 50). Asked
about the last commit alone (its message, who made it, when), git commands that cannot show it (none of
`-1`, `-n 1`, `HEAD`, `head`, `git show`) are the one that does: `git log -1` in that format."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, instruction

NOTE = "Changed before it ran: git log shows each commit's date and author too (the request asks {what})."
FORMAT = "--format='%h %ad %an: %s' --date=short"
_WHO = re.compile(r"\b(?:who|whom|author\w*|committer|by\s+whom)\b", re.I)
_WHEN = re.compile(r"\b(?:when|what\s+(?:date|day|time)|how\s+long\s+ago)\b", re.I)
_ONELINE = re.compile(r"(\bgit\s+(?:-C\s+\S+\s+)?log\b[^\n|;&]*?)\s--oneline\b")


LAST_NOTE = "Changed before it ran: the last commit is shown (`git log -1`; the command as written could not show it)."
LAST = f"git log -1 {FORMAT}"
_LAST_ASKED = re.compile(r"\b(?:last|latest|newest|most\s+recent|previous)\s+commit(?!s)\b(?!\s+(?:changed|touched|did))", re.I)
_OTHER_ASKS = re.compile(r"\b(?:files?|changed?|changes|diff|lines?|undo|revert|reset|amend|push|before|since|all|every|"
                         r"commits)\b", re.I)
# in a git command: one commit, HEAD, `git show`; after it: `| head`
_SHOWS_LAST = re.compile(r"(?:^|\s)(?:-1|-n\s*1|--max-count=1)\b|\bHEAD\b|^git\s+(?:-C\s+\S+\s+)?show\b")


def _shows_last(code: str) -> bool:
    return bool(re.search(r"\|\s*head\b", code)) or any(
        _SHOWS_LAST.search(seg) for seg in re.findall(r"\bgit\b[^|;&\n]*", code))


def last_commit(turn: Turn, block: Block) -> Verdict | None:
    """Asked only about the last commit, a git command that cannot show it is `git log -1`."""
    asked = instruction(turn.request)
    if (not _LAST_ASKED.search(asked) or _OTHER_ASKS.search(_LAST_ASKED.sub(" ", asked))
            or not re.search(r"\bgit\b", block.code) or _shows_last(block.code) or not Path(".git").exists()):
        return None
    block.message["content"] = LAST
    return Verdict(warning=LAST_NOTE)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang not in SHELLS:
        return None
    last = last_commit(turn, block)
    if last is not None or "--oneline" not in block.code:
        return last
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
            "commit's date and author too; asked only about the last commit, a git command that cannot show it (no `-1`, `HEAD`, "
            "`head` or `git show`) is `git log -1` in that format; the person is told")
