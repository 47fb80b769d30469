"""Rounding: code for a question that rounds its result to one decimal or none (`round(x, 1)`,
`f"{x:.1f}"`, `round(total / n)`) when the request asked for no rounding prints a value the person
takes for the exact one (2.5 for 2.51, issue 18). The 0.5B model copies the rounding of any example
it has seen. Before such code runs its rounding is widened to ten decimals (`:.15g` in a format), so
the value printed is the exact one (27.375, where two decimals said 27.38: ho44) without a float's noise
(0.3, not 0.30000000000000004); a value with more decimals than that is rounded in the answer by the
long decimals rule. The person is told; the code shown for confirmation is the code that runs."""
from __future__ import annotations

import ast
import re

from oi_local.core.pycheck import rewrite
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

# Asked for: "rounded", "to one decimal", "nearest", "about", "roughly", "whole", "percent" (a
# percentage is rounded by convention).
ROUNDING_ASKED = re.compile(
    r"\b(round\w*|decimals?|nearest|approx\w*|about|roughly|estimate\w*|whole|integer|percent\w*)\b|%", re.I)
_FORMAT = re.compile(r"(\{[^{}\n]*:[,_]?)\.[01]f\}|%\.[01]f")
WIDE = 10  # decimals kept by a widened round(): exact for any value with up to ten
NOTE = "Rounding widened before it ran, so the exact value is printed (the request did not ask for rounding)."


def _edits(code: str) -> list[tuple[int, int, int, int, str]]:
    """(line, col, end line, end col, new text) for each round() call that keeps fewer than two
    decimals of a result: round(x, 0), round(x, 1), and round(a / b) of a division (widened to WIDE)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round"):
            continue
        if len(node.args) == 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value in (0, 1) \
                and not isinstance(node.args[1].value, bool):
            n = node.args[1]
            found.append((n.lineno, n.col_offset, n.end_lineno or n.lineno, n.end_col_offset or n.col_offset, str(WIDE)))
        elif len(node.args) == 1 and not node.keywords and any(
                isinstance(x, ast.BinOp) and isinstance(x.op, ast.Div) for x in ast.walk(node.args[0])):
            a = node.args[0]
            end = (a.end_lineno or a.lineno, a.end_col_offset or a.col_offset)
            found.append((*end, *end, f", {WIDE}"))
    return found


def widened(code: str) -> str:
    """`code` with rounding to fewer than two decimals widened to WIDE, and `:.1f` formats to `:.15g`
    (the same code if none)."""
    lines = code.splitlines(keepends=True)
    for line, col, end_line, end_col, text in sorted(_edits(code), reverse=True):
        if line != end_line:
            continue
        s = lines[line - 1].encode()
        lines[line - 1] = (s[:col] + text.encode() + s[end_col:]).decode()
    out = "".join(lines)
    return _FORMAT.sub(lambda m: (m.group(1) + ".15g}") if m.group(1) else "%.15g", out)


# "2 decimal places pls", "to two decimals", "3 dp": the places asked for
PLACES = re.compile(r"\b(\d|one|two|three|four)\s*(?:decimal\s*(?:places?|points?|digits?)?|decimals|dp)\b", re.I)
_PLACE_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4}
_ANY_FORMAT = re.compile(r"(\{[^{}\n]*:[,_]?)\.(\d)f\}|%\.(\d)f")
PLACES_NOTE = "Rounding set to {n} decimals before it ran, as the request asks (the code rounded to {had})."


# "Round to cents" asks for two (the fuel cost was answered 69.552)
CENTS = re.compile(r"\b(?:to|in|nearest)\s+(?:the\s+)?(?:nearest\s+)?(?:cents?|pence|penny|pennies)\b", re.I)


def asked_places(request: str) -> int | None:
    """The number of decimals the request asks for, or None."""
    found = {int(_PLACE_WORDS.get(m.group(1).lower(), m.group(1))) for m in PLACES.finditer(request)}
    if CENTS.search(request):
        found.add(2)
    return found.pop() if len(found) == 1 else None


def to_places(code: str, n: int) -> tuple[str, set[int]]:
    """`code` with each round(x, k) and `:.kf` format that keeps k != n decimals set to n, and the k's it had.
    Asked for 2 decimal places, the 0.5B model printed round(avg, 1): 3.9 for 3.86 (ho34-kettle-average)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, set()
    had: set[int] = set()
    edits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round" and len(node.args) == 2:
            k = node.args[1]
            if isinstance(k, ast.Constant) and type(k.value) is int and k.value != n and k.lineno == k.end_lineno:
                had.add(k.value)
                edits.append((k.lineno, k.col_offset, k.end_col_offset or k.col_offset, str(n)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round" \
                and len(node.args) == 1 and not node.keywords and n > 0:
            # round(x) keeps none: asked to raise prices "rounded to cents", round(price * 1.10) made 2.2 into 2
            a = node.args[0]
            if a.end_lineno == node.end_lineno:
                had.add(0)
                edits.append((a.end_lineno or a.lineno, a.end_col_offset or 0, a.end_col_offset or 0, f", {n}"))
    code = rewrite(code, edits) if edits else code

    def fmt(m: re.Match[str]) -> str:
        k = int(m.group(2) or m.group(3))
        if k == n:
            return m.group(0)
        had.add(k)
        return f"{m.group(1)}.{n}f}}" if m.group(1) else f"%.{n}f"
    return _ANY_FORMAT.sub(fmt, code), had


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.writes import question

    request = turn.request
    if block.lang != "python":
        return None
    places = asked_places(request)
    if places is not None:
        new, had = to_places(block.code, places)
        if new == block.code:
            return None
        block.message["content"] = new
        return Verdict(warning=PLACES_NOTE.format(n=places, had=" and ".join(str(k) for k in sorted(had))))
    if not question(request) or ROUNDING_ASKED.search(request):
        return None
    new = widened(block.code)
    if new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE)


rule = Rule(
    name="rounding", setting="widen_rounding", check=check,
    summary="Python code for a question that rounds its result to one decimal or none (`round(x, 1)`, `:.1f`, "
            "`round(a / b)`) when the request did not ask for rounding has that rounding widened "
            "before it runs (to ten decimals; `:.15g` in a format), so the exact value is printed, and the person is told (2.5 printed "
            "for 2.51 was taken for the answer); code for a request "
            "that asks for N decimal places (\"2 decimal places pls\", \"to cents\") has its round(x, k), round(x) and `:.kf` set to N")
