"""First match: asked for the oldest (largest, cheapest, most ...) of something, code that prints the
first record it finds (`designs[0]["name"]`) and never orders or compares answers with whichever comes
first in the file. Asked who was the oldest person in the design department of team.json, the 0.5B
model printed the first designer and answered "Chloe Martin is the oldest" (ho6-data-json-oldest-designer).
Code for a request with such a word that prints a first (or last) item (`[0]`, `[-1]`, `.iloc[0]`,
`.head(1)`, `next(...)`) and takes no max, min, sort or ranking is not run; the request is asked afresh
once (sampled, the try hidden), saying to find it with max() or min()."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

SUPERLATIVE = re.compile(r"\b(oldest|youngest|newest|latest|earliest|largest|biggest|smallest|highest|lowest|"
                         r"cheapest|dearest|priciest|longest|shortest|heaviest|lightest|hottest|coldest|warmest|"
                         r"wettest|driest|fastest|slowest|most|least|fewest|best|worst|top)\b", re.I)
_RANKS = re.compile(r"\b(?:max|min|sorted|heapq|Counter)\(|\.(?:sort|nlargest|nsmallest|idxmax|idxmin|sort_values|"
                    r"most_common|max|min|rank)\(|\bORDER\s+BY\b|\bsort\b|\bMAX\(|\bMIN\(", re.I)
NOTE = ("(A first try was not run: it printed the first match it found, not the {word} one. Write one ```python "
        "block that finds the {word} with max() or min() and a key.)")
SHOWN = "Not run: the code prints the first match it finds, and the request asks for the {word}; asked afresh."


# A log or a list in time order has its oldest line first and its latest last: `lines[-1]` for "the
# latest entry" is right. For these words only a record's field (`people[0]["name"]`) counts.
_IN_TIME = {"oldest", "newest", "latest", "earliest"}


def _index(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _firsts(code: str, keyed: bool) -> bool:
    """The code prints a first or last item: `x[0]`, `x[0]["name"]`, `x[-1]`, `.iloc[0]`, `.head(1)`,
    `next(...)`; with `keyed`, only a field of one (`x[0]["name"]`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"):
            continue
        for arg in ast.walk(n):
            if not isinstance(arg, ast.Subscript):
                if not keyed and isinstance(arg, ast.Call) and (
                        isinstance(arg.func, ast.Name) and arg.func.id == "next"
                        or isinstance(arg.func, ast.Attribute) and arg.func.attr == "head"):
                    return True
                continue
            inner = arg.value if keyed else arg
            if keyed and not (isinstance(arg.slice, ast.Constant) and isinstance(arg.slice.value, str)
                              and isinstance(inner, ast.Subscript)):
                continue
            index = _index(inner.slice) if isinstance(inner, ast.Subscript) else None
            if index in (0, -1) and not isinstance(index, bool):
                return True
    return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["first match"] or not turn.steps_left:
        return None
    m = SUPERLATIVE.search(turn.request)
    if not m or _RANKS.search(block.code) or not _firsts(block.code, m.group(1).lower() in _IN_TIME):
        return None
    turn.counts["first match"] += 1
    word = m.group(1).lower()
    return Verdict(note=SHOWN.format(word=word), ask=Ask(NOTE.format(word=word), code_retry(turn.engine, 19), hide=True))


rule = Rule(
    name="first match", setting="computed_answers", check=check,
    summary="code for a request that asks for the oldest, largest, most ... of something that prints a first (or last) "
            "item (`designs[0][\"name\"]`, `.iloc[0]`, `next(...)`) and takes no max, min, sort or ranking is not run; "
            "the request is asked afresh once (sampled, the try hidden), told to find it with max() or min()")
