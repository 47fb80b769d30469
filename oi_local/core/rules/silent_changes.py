"""Silent changes: a turn whose runs changed files often ends on words that say nothing of them. Asked to rename
a photo or to copy a file into a backup folder, the 0.5B model answered "The code ran without errors and printed
nothing." (ho57, session 58's start run: both done, neither said). When the answer is only such words ("Done.")
and the turn's runs made, renamed, changed or removed files in the working folder, one line says which."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule
from oi_local.core.rules.turn import Turn, last_words

# answers that say nothing of what was done
GENERIC = re.compile(r"(?:the\s+code\s+(?:ran|has\s+run|was\s+run|executed)(?:\s+successfully)?(?:\s+without\s+(?:any\s+)?errors?)?"
                     r"(?:\s+and\s+printed\s+nothing)?|done|ok(?:ay)?|finished|completed?|success(?:fully)?)[.!]?", re.I)
MAX_NAMES = 5
_OURS = re.compile(r"(?:^|/)(?:message|pasted)-[0-9a-f]{8}\.txt$")  # a long request's text, saved by the loop


def _names(paths: list[str]) -> str:
    shown = ", ".join(sorted(paths)[:MAX_NAMES])
    return shown + (f" and {len(paths) - MAX_NAMES} more" if len(paths) > MAX_NAMES else "")


def changes(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> str:
    """What the files went through, in one line ("Renamed a.jpg to b.jpg. Made backup/r.md."), or ""."""
    made = [p for p in after if p not in before and not _OURS.search(p)]
    gone = [p for p in before if p not in after]
    changed = [p for p in after if p in before and after[p] != before[p]]
    renamed = []
    for old in list(gone):  # a file gone and one made with the same size: a rename or a move
        same = [new for new in made if after[new][0] == before[old][0]]
        if len(same) == 1:
            renamed.append(f"{old} to {same[0]}")
            gone.remove(old)
            made.remove(same[0])
    parts = [f"Renamed {_names(renamed)}." if renamed else "", f"Made {_names(made)}." if made else "",
             f"Changed {_names(changed)}." if changed else "", f"Removed {_names(gone)}." if gone else ""]
    return " ".join(p for p in parts if p)


def finish(turn: Turn) -> str | None:
    from oi_local.core.rules.outputs import snapshot

    last = turn.runs[-1] if turn.runs else None
    root, before = turn.state.get("outputs", (None, None))
    if last is None or last.failed or last.interrupted or root is None or before is None:
        return None
    if not GENERIC.fullmatch(last_words(turn).strip()):
        return None
    after = snapshot(root)
    said = changes(before, after) if after is not None else ""
    return said or None


rule = Rule(
    name="silent changes", setting="honest_end", finish=finish,
    summary="a turn that ends on words that say nothing of what was done (\"The code "
            "ran without errors and printed nothing.\", \"Done.\") gets one line naming the files its runs made, "
            "renamed, changed or removed in the working folder")
