"""Picked names: code for a "which file" question that picks a file by a name typed into it
(`if p.name == "recipes_to_try.txt": print(p)`) prints the name it was given, whatever the files
hold: the answer guessed, then dressed as found. Asked which file of lists/ had the most lines, the
0.5B model sorted the files by date and printed the one it had named (ho5-files-most-lines); asked
which report changed last, the same (ho33-multi-newest-copy). When the name is a file here that no
request of the conversation gives, the code is not run and the request is asked afresh once
(sampled, the try hidden, the name not said: named in an ask, the model wrote it again)."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

WHICH = re.compile(r"\b(?:which|what)\b", re.I)
NOTE = ("(A first try was not run: it picked a file by a name typed into the code, so it printed a guess. "
        "Write one ```python block that finds the answer from the files themselves.)")
SHOWN = "Not run: the code picks {names} by a name the request does not give (the answer typed in); asked afresh."
MAX_FILES = 2000
_NAME_PARTS = {"name", "stem"}


def _compared_names(code: str) -> list[str]:
    """File-like names the code compares a path's name (or a listed name) with: `p.name == "a.txt"`,
    `f == "a.txt"`, `name in ("a.txt", "b.txt")`."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Eq, ast.In))):
            continue
        sides = [n.left, n.comparators[0]]
        texts = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
        texts += [e for s in sides if isinstance(s, (ast.Tuple, ast.List, ast.Set)) for e in s.elts
                  if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        other = [s for s in sides if not isinstance(s, (ast.Constant, ast.Tuple, ast.List, ast.Set))]
        if not texts or len(other) != 1:
            continue
        o = other[0]
        named = isinstance(o, ast.Attribute) and o.attr in _NAME_PARTS or isinstance(o, ast.Name) or (
            isinstance(o, ast.Call) and isinstance(o.func, ast.Name) and o.func.id == "str")
        if named:
            found += [str(t.value) for t in texts if "." in str(t.value).strip(".") or isinstance(o, ast.Attribute)]
    return list(dict.fromkeys(found))


def _here(names: list[str]) -> list[str]:
    """The names that are files (by name or stem) in the working folder or under it."""
    from oi_local.core.pycheck import folder_files

    files = folder_files(Path.cwd(), MAX_FILES)
    base = {os.path.basename(f) for f in files} | {Path(f).stem for f in files}
    return [n for n in names if os.path.basename(n) in base]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["picked names"] or not turn.steps_left or not WHICH.search(turn.request):
        return None
    names = _compared_names(block.code)
    if not names:
        return None
    asked = " ".join(str(m.get("content", "")) for m in turn.engine.messages if m.get("role") == "user").lower()
    given = [n for n in _here(names) if os.path.basename(n).lower() not in asked]
    if not given:
        return None
    turn.counts["picked names"] += 1
    return Verdict(note=SHOWN.format(names=", ".join(given[:3])),
                   ask=Ask(NOTE, code_retry(turn.engine, 17), hide=True))


rule = Rule(
    name="picked names", setting="computed_answers", check=check,
    summary="code for a \"which\"/\"what\" question that picks a file by a name typed into it (`if p.name == "
            "\"recipes_to_try.txt\": print(p)`), a file here that no request gives, is not run; the request is "
            "asked afresh once (sampled, the try hidden, the name not said)")
