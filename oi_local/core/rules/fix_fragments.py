"""Fix fragments: asked to fix a script, a small model often replies with the corrected line alone
(`print(fruits[-1])` for last.py's `print(fruits[3])`), which fails in the session with a NameError
and leaves the script as it was. When every line of such a short block is a line of the script, some
of them changed, the changed lines are put into the script in place and the script is run: the block
that runs writes the patched script and runs it (the shape of the template's fix example), and the
person sees that block. Blocks that add lines the script does not have, write files or run the
script themselves are left alone."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

MAX_LINES = 12  # a longer block is a rewrite, not a fragment
ALIKE = 0.6  # difflib ratio of a block line to the script line it stands for
NOTE = "Your corrected line(s) were put into {name} in place of the old ones, and {name} is run."
_WRITES = re.compile(r"\bopen\([^)]*['\"][wa]|write_text|subprocess|os\.system", re.S)


def patched(script: str, fragment: str) -> str | None:
    """The script with the fragment's changed lines in place of the lines they stand for, or None when
    the fragment is not a changed piece of the script (a line it does not have, or nothing changed)."""
    lines = script.splitlines()
    body = [ln for ln in fragment.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if not body or len(body) > MAX_LINES:
        return None
    out, at, changed = list(lines), 0, False
    for ln in body:
        best, where = 0.0, -1
        for i in range(at, len(lines)):
            if not lines[i].strip():
                continue
            r = difflib.SequenceMatcher(None, lines[i].strip(), ln.strip()).ratio()
            if r > best:
                best, where = r, i
        if best < ALIKE:
            return None
        if best < 1.0:
            indent = lines[where][: len(lines[where]) - len(lines[where].lstrip())]
            out[where] = indent + ln.strip()
            changed = True
        at = where + 1
    if not changed:
        return None
    return "\n".join(out) + ("\n" if script.endswith("\n") else "")


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.fixes import save_code, targets
    from oi_local.core.pycheck import problems

    if block.lang != "python" or _WRITES.search(block.code):
        return None
    try:
        scripts = targets(turn.request)
    except OSError:
        return None
    if len(scripts) != 1:
        return None
    path, text = next(iter(scripts.items()))
    name = str(path.relative_to(Path.cwd().resolve())) if path.is_relative_to(Path.cwd().resolve()) else str(path)
    if name in block.code or not problems(block.code, name):
        return None  # it runs the script, or runs on its own: not a fragment
    new = patched(text, block.code)
    if new is None or problems(new, name):
        return None
    block.message["content"] = save_code(name, new, check=False)
    return Verdict(warning=NOTE.format(name=name))


rule = Rule(
    name="fix fragments", setting="check_outputs", check=check,
    summary="asked to fix a named script, a short block whose lines are all lines of the script, some changed, "
            "and that cannot run alone (`print(fruits[-1])` for the script's `print(fruits[3])`) becomes code that "
            "puts the changed lines into the script in place and runs it; the person is told")
