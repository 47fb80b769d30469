"""Written numbers: a request that gives the data to put into a file ("Start a shopping list in
shopping.csv ... Put in 6 apples at 0.45, 1 bread at 2.30 and 2 cheese at 3.75") is done when every
number it gives is written. The 0.5B model wrote "apples,0.45,0.45": the price twice, the 6 apples
gone, and every later total was wrong (ho6-multi-shopping-list). Code that writes a file the request
names, from text or values typed into it, and has some of the request's numbers but not all, is not
run; the request is asked afresh once (sampled, the try hidden), naming the numbers to write."""
from __future__ import annotations

import ast
import os
import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction

NOTE = "(Write one ```python block that does what I asked, writing every number I gave into {file}: {numbers}.)"
SHOWN = "Not run: the code writes {file} without {missing} from the request; asked afresh."
# A script's numbers are not data to write: "grades.py says the average is 62.0, but every mark is between
# 71 and 92" describes the fault (the fixed script was refused for leaving out 62.0, ho6-fix-grades-average).
_CODE = {".py", ".sh", ".js", ".r", ".rb", ".pl", ".ps1", ".bat", ".html", ".css"}
_NUMBER_IN_TEXT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
# The value being replaced is not one to write: "set the retention to 12 instead of 6" (the fresh set
# ho59's writer saw its right edit refused for leaving out 6).
_OLD_VALUE = re.compile(r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|replacing|currently|no\s+longer)\s+"
                        r"(?:the\s+)?(\d+(?:\.\d+)?)|\bfrom\s+(\d+(?:\.\d+)?)\s*(?:to|->|→)\s*\d", re.I)


def _typed_numbers(code: str) -> list[float] | None:
    """The numbers typed into the code: number constants and numbers inside its strings."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found: list[float] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and not isinstance(n.value, bool):
            found.append(float(n.value))
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            found += [float(x) for x in _NUMBER_IN_TEXT.findall(n.value)]
    return found


def _named_target(request: str, code: str) -> str | None:
    """The one file the code writes that the request names."""
    from oi_local.core.writes import changed_paths

    written = [p for p in dict.fromkeys(changed_paths("python", code))
               if re.search(rf"(?<![\w/.-]){re.escape(os.path.basename(p))}(?![\w-])", request)
               and os.path.splitext(p)[1].lower() not in _CODE]
    return written[0] if len(written) == 1 else None


def missing(request: str, code: str) -> tuple[str, list[str]] | None:
    """(the file, the request's numbers the code leaves out) when the code writes typed-in data with
    some of them, else None."""
    from oi_local.core.rules.unused_numbers import request_numbers

    old = {float(a or b) for a, b in _OLD_VALUE.findall(request)}
    asked = [(text, value) for text, value, pct in request_numbers(request) if not pct and value not in old]
    target = _named_target(request, code) if len(asked) >= 2 else None
    typed = _typed_numbers(code) if target else None
    if not typed:
        return None
    gone = [text for text, value in asked if not any(abs(value - n) < 1e-9 for n in typed)]
    return (target or "", gone) if gone and len(gone) < len(asked) else None


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.writes import question

    if block.lang != "python" or turn.counts["written numbers"] >= 1:
        return None
    request = instruction(turn.request)
    if question(request):
        return None
    found = missing(request, block.code)
    if found is None:
        return None
    file, gone = found
    from oi_local.core.rules.unused_numbers import request_numbers

    turn.counts["written numbers"] += 1
    old = {float(a or b) for a, b in _OLD_VALUE.findall(request)}
    every = ", ".join(text for text, value, pct in request_numbers(request) if not pct and value not in old)
    return Verdict(note=SHOWN.format(file=file, missing=", ".join(gone)),
                   ask=Ask(NOTE.format(file=file, numbers=every), code_retry(turn.engine, 11), hide=True))


rule = Rule(
    name="written numbers", setting="check_answers", check=check,
    summary="code that writes a file the request names from data typed into it, with some of the numbers the request "
            "gives but not all (\"6 apples at 0.45\" written as apples,0.45,0.45), is not run; the request is asked "
            "afresh once, sampled, with the numbers to write named")
