"""Git discards: asked "undo my last commit but keep the changes in my files", the 0.5B model ran
`git reset --hard HEAD~1`, which took the commit's changes out of the files too (session 44's `ho43`, read
after its end run: a new file gone, an edit undone; they were left only in git's reflog). Commands that throw
away the changes in the files (`git reset --hard`, `git checkout -- <path>` or `git checkout .`, `git restore`
without `--staged`, `git clean -f`, `git stash drop`/`clear`) are not auto-run for a request that does not ask
to throw changes away: shown and confirmed, or, where no one can confirm, not run and asked afresh once, told
the way that keeps them (`git reset --soft HEAD~1` to undo a commit)."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.question_writes import refuse
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = ("Not run: `{command}` throws away the changes in the files, and the request does not ask for that. To undo "
        "the last commit and keep its changes in the files, use `git reset --soft HEAD~1`.")
WARNING = "`{command}` throws away the changes in the files, and the request does not ask for that."
_DISCARDS = re.compile(r"\bgit\s+(?:reset\s+(?:[^\n;&|]*\s)?--hard\b|checkout\s+(?:[^\n;&|]*\s)?--\s|checkout\s+\.(?:\s|$)|"
                       r"restore\s+(?![^\n;&|]*--staged)|clean\s+(?:[^\n;&|]*\s)?-\w*f|stash\s+(?:drop|clear)\b)", re.I | re.M)
_ASKS = re.compile(r"\b(?:discard\w*|throw\w*\s+(?:\w+\s+)?away|get\s+rid\s+of|lose|losing|hard\s+reset|--hard|reset\s+hard|"
                   r"wipe\w*|start\s+over|from\s+scratch|clean\s+up|untracked|revert\w*\s+(?:my|the|all)\s+(?:local\s+)?"
                   r"(?:changes|edits)|undo\s+(?:my|the|all)\s+(?:local\s+|uncommitted\s+)?(?:changes|edits)|"
                   r"drop\w*|restore\s+\S+\s+(?:to|from)|go\s+back\s+to|back\s+to\s+how)\b", re.I)
_KEEPS = re.compile(r"\bkeep\w*\b|\bwithout\s+losing\b|\bnot\s+lose\b|\bdon'?t\s+lose\b|\bstill\s+(?:need|want)\b", re.I)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang not in ("shell", "bash", "sh", "python"):
        return None
    m = _DISCARDS.search(block.code)
    if m is None:
        return None
    words = instruction(turn.request)
    if _ASKS.search(words) and not _KEEPS.search(words):
        return None  # asked to throw the changes away
    command = m.group(0).strip()
    return refuse(turn, NOTE.format(command=command), WARNING.format(command=command))


rule = Rule(
    name="git discards", guards=True, setting="confirm_destructive", check=check,
    summary="git commands that throw away the changes in the files (`reset --hard`, `checkout -- <path>`, `restore`, "
            "`clean -f`, `stash drop`) are not auto-run for a request that does not ask to throw changes away (\"undo "
            "my last commit but keep the changes\"): shown and confirmed, or not run and asked afresh once, told "
            "`git reset --soft HEAD~1`")
