"""Requests to fix a script: is the fix saved?

Asked to fix sum_to.py, the 0.5B model often writes the corrected script, runs it in the session,
sees the right output and says so, while sum_to.py still has the old code (7 of the 12 fix tasks in
scripts/eval ended that way). The loop notes which scripts a fixing request names, and when the
model stops with one unchanged, or changed but still with a problem that shows without running it,
asks once more: with the code that worked ready to save, when there is such code.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from pathlib import Path

from oi_local.core.hints import mentioned_paths

_FIXING = re.compile(r"\b(fix\w*|repair\w*|debug\w*|crash\w*|broken)\b|\b(?:does\s*n[o']?t|do\s*n[o']?t|won'?t)\s+work\b", re.I)
SCRIPT_SUFFIXES = {".py"}  # the ones whose problems pycheck can see
MAX_BYTES = 100_000
SIMILAR = 0.5  # how alike (difflib ratio) code must be to the script to count as a version of it

SAVE_NOTE = (
    "That code works, but {name} still has the old code, so it is not fixed yet. "
    "Save the working code into {name} and run it: reply with this ```python block.\n{block}"
)
UNCHANGED_NOTE = (
    "{name} still has the old code, so it is not fixed yet. Find the mistake in it, then reply with one "
    "```python block that writes the whole corrected script into {name} and runs it with subprocess."
)
PROBLEMS_NOTE = "{name} still has a problem:\n{problems}\nReply with one ```python block that corrects {name} and runs it."
PROBLEMS_FIXED_NOTE = "{name} still has a problem:\n{problems}\nSave the corrected script into {name} and run it: reply with this ```python block.\n{block}"


def targets(request: str, cwd: str | os.PathLike[str] | None = None) -> dict[Path, str]:
    """The scripts a fixing request names, with their text now ({} for other requests)."""
    if not _FIXING.search(request):
        return {}
    base = Path(cwd or os.getcwd())
    found = {}
    for p in mentioned_paths(request, base):
        if p.suffix in SCRIPT_SUFFIXES and p.is_file():
            try:
                if p.stat().st_size <= MAX_BYTES:
                    found[p] = p.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
    return found


def _similar(code: str, original: str) -> bool:
    a = [ln.strip() for ln in original.splitlines() if ln.strip()]
    b = [ln.strip() for ln in code.splitlines() if ln.strip()]
    return difflib.SequenceMatcher(None, a, b).ratio() >= SIMILAR


def _standalone(code: str, name: str) -> bool:
    """Code that runs on its own as a script: no syntax error, no name it does not define (code run
    in the session may use variables an earlier step left there)."""
    from oi_local.core.pycheck import problems

    return not problems(code, name)


def _save_block(name: str, code: str) -> str:
    text = code.rstrip("\n") + "\n"
    literal = f'"""{text}"""' if '"""' not in text and "\\" not in text and not text.endswith('"\n') else repr(text)
    return (f"```python\nfixed = {literal}\nwith open({json.dumps(name)}, \"w\") as f:\n    f.write(fixed)\n"
            f"import subprocess\nsubprocess.run([\"python3\", {json.dumps(name)}], check=True)\n```")


def follow_up(before: dict[Path, str], worked: list[str], cwd: str | os.PathLike[str] | None = None) -> str | None:
    """What to ask the model when it stops: None when every named script was changed and shows
    no problem. `worked` is the Python code that ran without error in this turn, oldest first."""
    base = Path(cwd or os.getcwd()).resolve()
    for path, old in before.items():
        name = os.path.relpath(path, base)
        try:
            now = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # deleted or moved: not ours to second-guess
        from oi_local.core.pycheck import review

        found, fixed = review(now, name, base)
        if fixed is not None:  # changed or not, a problem with one obvious correction: ready to save
            return PROBLEMS_FIXED_NOTE.format(name=name, problems="\n".join(found), block=_save_block(name, fixed))
        if now == old:
            for code in reversed(worked):
                if os.path.basename(name) not in code and _similar(code, old) and _standalone(code, name):
                    return SAVE_NOTE.format(name=name, block=_save_block(name, code))
        if found:
            return PROBLEMS_NOTE.format(name=name, problems="\n".join(found))
        if now == old:
            return UNCHANGED_NOTE.format(name=name)
    return None
