"""Replace order: told "I misspelled Johnson as "Jonhson" all over invite.txt. Can you fix every one of them?",
the 0.5B model wrote `text.replace("Johnson", "Jonhson")`: the right spelling into the wrong one, which the
file did not have, so nothing changed and "replaced 0 times" ended the turn (ho56, session 57). When a
block's `.replace(a, b)` or `re.sub(a, b, ...)` has two literal words that the request both names, and the
request's words say which of them is to go ("misspelled A as B", "replace B with A", "change B to A",
"from B to A", "B should be A", "B is a typo"), code that replaces the other way round has the two swapped
before it runs, and the person is told. Words that do not say a way ("use A instead of B" and "typed B
instead of A" say opposite ways) leave the code as it is."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: the code replaced {a!r} with {b!r}; the request asks for {b!r} to become {a!r}."
_Q = r"""['"“”‘’`]?"""
# (old, new) -> patterns that say `old` is to go and `new` to stay, with {old} and {new} filled in
_WAYS = (
    r"\b(?:replac|chang|swap|switch|turn|correct|fix|updat|renam)\w*\s+(?:\w+\s+){{0,3}}?{q}{old}{q}\s+(?:\w+\s+){{0,2}}?"
    r"(?:with|to|into|for|by)\s+(?:\w+\s+){{0,2}}?{q}{new}{q}",
    r"\bfrom\s+{q}{old}{q}\s+(?:\w+\s+){{0,2}}?(?:to|into)\s+{q}{new}{q}",
    r"{q}{old}{q}\s+(?:should|must|ought\s+to|needs?\s+to)\s+(?:be|read|say)\s+{q}{new}{q}",
    r"\bmis-?(?:spel|spelt|typ|writ|wrot|nam)\w*\s+(?:it\s+|{q}{new}{q}\s+)?as\s+{q}{old}{q}",
    r"{q}{old}{q}\s+(?:is|was|are|were)\s+(?:a\s+|an\s+)?(?:typo|misspel\w*|wrong|mistake)",
)


def said_way(request: str, a: str, b: str) -> tuple[str, str] | None:
    """(old, new): which of the two words the request says is to go, or None when it does not say."""
    ways = set()
    for old, new in ((a, b), (b, a)):
        for way in _WAYS:
            if re.search(way.format(q=_Q, old=re.escape(old), new=re.escape(new)), request, re.I):
                ways.add((old, new))
    return ways.pop() if len(ways) == 1 else None


def _replacements(tree: ast.AST) -> list[tuple[ast.Constant, ast.Constant]]:
    """The two literal strings of each `x.replace("a", "b")` and `re.sub("a", "b", x)`."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or len(node.args) < 2:
            continue
        attr, owner = node.func.attr, node.func.value
        if attr == "replace" or (attr == "sub" and isinstance(owner, ast.Name) and owner.id == "re" and len(node.args) >= 3):
            a, b = node.args[0], node.args[1]
            if isinstance(a, ast.Constant) and isinstance(b, ast.Constant) and isinstance(a.value, str) \
                    and isinstance(b.value, str) and a.value.strip() and b.value.strip() and a.value != b.value:
                found.append((a, b))
    return found


def _offset(lines: list[str], line: int, col: int) -> int:
    """A node's (line, UTF-8 column) as an index into the code's text."""
    return sum(len(x) for x in lines[:line - 1]) + len(lines[line - 1].encode()[:col].decode(errors="replace"))


def swapped(code: str, a: ast.Constant, b: ast.Constant) -> str:
    """`code` with the two literals' source text exchanged."""
    lines = code.splitlines(keepends=True)
    spans = [(_offset(lines, n.lineno, n.col_offset), _offset(lines, n.end_lineno or n.lineno, n.end_col_offset or 0))
             for n in (a, b)]
    (s1, e1), (s2, e2) = spans
    return code[:s1] + code[s2:e2] + code[e1:s2] + code[s1:e1] + code[e2:]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["replace order"]:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    request = turn.request
    for a, b in _replacements(tree):
        old, new = str(a.value), str(b.value)
        if not all(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", request) for w in (old, new)):
            continue
        way = said_way(request, old, new)
        if way != (new, old):
            continue
        turn.counts["replace order"] += 1
        block.message["content"] = swapped(block.code, a, b)
        return Verdict(warning=NOTE.format(a=old, b=new))
    return None


rule = Rule(
    name="replace order", setting="repair_slips", check=check,
    summary="a `.replace(a, b)` or `re.sub(a, b, ...)` of two words the request names, the other way round from the way "
            "its words say (\"misspelled Johnson as Jonhson\", \"replace B with A\", \"from B to A\", \"B should be A\"): the two "
            "are swapped before it runs (the person is told); words that say no way leave it")
