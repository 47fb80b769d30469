"""First match: asked for the oldest (largest, cheapest, most ...) of something, code that prints the
first record it finds (`designs[0]["name"]`) and never orders or compares answers with whichever comes
first in the file. Asked who was the oldest person in the design department of team.json, the 0.5B
model printed the first designer and answered "Chloe Martin is the oldest" (ho6-data-json-oldest-designer).
Code for a request with such a word that prints a first (or last) item (`[0]`, `[-1]`, `.iloc[0]`,
`.head(1)`, `next(...)`) and takes no max, min, sort or ranking is not run; the request is asked afresh
once (sampled, the try hidden), saying to find it with max() or min().
Asked which word of five letters or more comes most often in a guest book, the model took a worked
example's code, `word = "rain"`, and counted that one word (ho59, session 60's start): code that counts a
word it typed in, which the request does not give, and ranks nothing is asked afresh the same way, without
the worked examples."""
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


_PICKED_NOTE = ("(A first try was not run: it counted one value it picked, \"{value}\", not the {word} one. Write one "
                "```python block that counts every one (collections.Counter) and prints the {word} with its count.)")
_PICKED_SHOWN = "Not run: the code counts \"{value}\", a value it picked, and the request asks for the {word}; asked afresh."
_COUNTS = {"count", "findall", "finditer", "escape", "search", "contains"}


def picked(code: str, request: str) -> str | None:
    """A word the code binds to a name (`word = "rain"`) and counts or searches for, which the request does not give."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    bound = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
             for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)
             and isinstance(n.value.value, str) and re.fullmatch(r"[A-Za-z][A-Za-z' -]{1,30}", n.value.value)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _COUNTS:
            names = {a.id for a in ast.walk(n) if isinstance(a, ast.Name)} & set(bound)
        elif isinstance(n, ast.Compare) and any(isinstance(o, (ast.Eq, ast.In)) for o in n.ops):
            names = {a.id for a in [n.left, *n.comparators] if isinstance(a, ast.Name)} & set(bound)
        else:
            continue
        for name in names:
            value = bound[name]
            if not re.search(rf"\b{re.escape(value)}\b", request, re.I):
                return value
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["first match"] or not turn.steps_left:
        return None
    m = SUPERLATIVE.search(turn.request)
    if not m or _RANKS.search(block.code):
        return None
    word = m.group(1).lower()
    if _firsts(block.code, word in _IN_TIME):
        turn.counts["first match"] += 1
        return Verdict(note=SHOWN.format(word=word), ask=Ask(NOTE.format(word=word), code_retry(turn.engine, 19), hide=True))
    value = picked(block.code, turn.request) if re.search(r"\b(?:which|what)\b", turn.request, re.I) else None
    if value is None:
        return None
    turn.counts["first match"] += 1
    return Verdict(note=_PICKED_SHOWN.format(value=value, word=word),
                   ask=Ask(_PICKED_NOTE.format(value=value, word=word), code_retry(turn.engine, 19), hide=True,
                           drop_recipes=True))


rule = Rule(
    name="first match", setting="computed_answers", check=check,
    summary="code for a request that asks for the oldest, largest, most ... of something that prints a first (or last) "
            "item (`designs[0][\"name\"]`, `.iloc[0]`, `next(...)`) and takes no max, min, sort or ranking is not run; "
            "the request is asked afresh once (sampled, the try hidden), told to find it with max() or min(); so is code that "
            "counts one word it typed in (`word = \"rain\"`) which the request does not give (then without the worked examples)")
