"""Empty leftovers: a failed run that made a new file and left it empty leaves a file that looks like
the result. Asked to resize photos/profile_pic.jpg into profile_pic_400.jpg, the 0.5B model's first code
opened the new file for writing, then failed reading the old one through the same name; the empty
profile_pic_400.jpg stayed after every later try failed too. A file that was not there before the run,
that the run's code writes and that is empty after the run failed, is removed, and the model and the
person are told. Files that were there before, and anything with content, are never touched."""
from __future__ import annotations

import os
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Removed {paths}: this failed run made {them} and left {them} empty."
_KEY = "empty_leftovers"


def _writes(lang: str, code: str) -> list[str]:
    from oi_local.core.writes import changed_paths

    try:
        return list(dict.fromkeys(changed_paths(lang, code)))
    except SyntaxError:
        return []


def check(turn: Turn, block: Block) -> Verdict | None:
    """Before the block runs: which files it writes are not there yet."""
    new = [p for p in _writes(block.lang, block.code) if not os.path.lexists(os.path.expanduser(p))]
    turn.state[_KEY] = (block.code, new)
    return None


def on_failure(turn: Turn, lang: str, code: str, output: str) -> str | None:
    ran, new = turn.state.pop(_KEY, (None, []))
    if ran != code:
        return None
    removed = []
    for p in new:
        path = Path(os.path.expanduser(p))
        try:
            if path.is_file() and not path.is_symlink() and path.stat().st_size == 0:
                path.unlink()
                removed.append(p)
        except OSError:
            continue
    if not removed:
        return None
    return NOTE.format(paths=", ".join(removed), them="it" if len(removed) == 1 else "them")


rule = Rule(
    name="empty leftovers", guards=True, setting="repair_slips", check=check, on_failure=on_failure,
    summary="a file that was not there before a run, that the run's code writes and that is empty after the run "
            "failed, is removed, and the model and the person are told (a failed resize had left an empty "
            "profile_pic_400.jpg that looked like the result); files that were there before, and anything with "
            "content, are never touched")
