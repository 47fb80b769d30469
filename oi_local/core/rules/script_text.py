"""Script text: two repairs to the text of a Python script the code writes, made before it runs.

A header of ours copied in: shown a script as "grades.py contains:" and its lines, the 0.5B model
wrote that header line into the fixed grades.py, which then did not compile. A first line that is
one of the loop's own headers ("NAME contains:", "First lines of NAME:") is dropped when the rest
compiles.
An import missing: its fixed bill_total.py used `csv.DictReader` with no `import csv`; the
NameError came from the script, the note about it was read as about the cell, and each of the three
tries after it broke something else. A standard-library module the script uses and never imports
is imported on top; other corrections stay the model's to make.
Only a text the code gives whole (a string, or a name given one string) that appears once in the
code is changed; the person is told."""
from __future__ import annotations

import re

from oi_local.core.pycheck import compiles
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.broken_scripts import written_texts
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {changes}."
_HEADER = re.compile(r"\A\s*(?:[\w./-]+\.py contains:|First lines of [\w./-]+\.py:)[ \t]*\n")




def _repaired(path: str, text: str) -> tuple[str, list[str]]:
    from oi_local.core.pycheck import corrected

    changes = []
    header = _HEADER.match(text)
    if header and not compiles(text) and compiles(text[header.end():]):
        text = text[header.end():]
        changes.append(f"the line {header.group(0).strip()!r} taken out of {path}")
    fixed = corrected(text, path) if compiles(text) else None
    if fixed is not None and fixed.endswith(text):  # only imports put on top
        changes.append(f"{fixed[:len(fixed) - len(text)].strip().replace(chr(10), ', ')} added to {path}")
        text = fixed
    return text, changes


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    code, changes = block.code, []
    for path, text in written_texts(code):
        if not path.endswith(".py") or not text.strip() or code.count(text) != 1:
            continue
        new, made = _repaired(path, text)
        if made:
            code = code.replace(text, new)
            changes += made
    if not changes:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="script text", setting="repair_slips", check=check,
    summary="a Python script the code writes loses a first line that is one of the loop's own headers "
            "(\"grades.py contains:\") and gets the standard-library imports it uses and lacks (`csv.DictReader` "
            "with no `import csv`) before it runs; the person is told")
