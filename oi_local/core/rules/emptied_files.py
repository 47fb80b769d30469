"""Emptied files: a failed run that opened a person's file for writing, then failed before writing
it, leaves it empty. Asked to fix guests.py, the 0.5B model ran `open("guests.py", "w")` and then
`f.write(guests)` with a list; the TypeError left guests.py empty, and the turn ended with the
script gone (ho3-fix-list-append, whole-suite run of session 34). Before a block runs, the files
there that it writes are copied in memory (up to 5 MB each); a file that had content and is empty
after the run failed is put back as it was, and the model and the person are told. A file with any
content after the run is left as the run left it: the run may have meant that."""
from __future__ import annotations

import os
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Put {paths} back as {it} was: this failed run had left {it} empty."
LIMIT = 5_000_000  # bytes copied per file: larger files are left alone
_KEY = "emptied_files"


def _copies(lang: str, code: str) -> dict[str, bytes]:
    from oi_local.core.writes import changed_paths

    try:
        paths = list(dict.fromkeys(changed_paths(lang, code)))
    except SyntaxError:
        return {}
    found = {}
    for p in paths:
        path = Path(os.path.expanduser(p))
        try:
            if path.is_file() and not path.is_symlink() and 0 < path.stat().st_size <= LIMIT:
                found[p] = path.read_bytes()
        except (OSError, ValueError):
            continue
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    """Before the block runs: a copy of each file there that it writes."""
    turn.state[_KEY] = (block.code, _copies(block.lang, block.code))
    return None


def on_failure(turn: Turn, lang: str, code: str, output: str) -> str | None:
    ran, copies = turn.state.pop(_KEY, (None, {}))
    if ran != code:
        return None
    restored = []
    for p, data in copies.items():
        path = Path(os.path.expanduser(p))
        try:
            if path.is_file() and not path.is_symlink() and path.stat().st_size == 0:
                path.write_bytes(data)
                restored.append(p)
        except OSError:
            continue
    if not restored:
        return None
    return NOTE.format(paths=", ".join(restored), it="it" if len(restored) == 1 else "they")


rule = Rule(
    name="emptied files", guards=True, setting="repair_slips", check=check, on_failure=on_failure,
    summary="a file that had content before a run, that the run's code writes and that is empty after the run "
            "failed, is put back as it was, and the model and the person are told (a fix that opened guests.py "
            "for writing failed on its next line and left the script empty); a file with any content after the "
            "run is left as the run left it")
