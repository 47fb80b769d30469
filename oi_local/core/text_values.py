"""Three slips with text values (core/rules/slips.py runs them); the third, an alphabetical list never
sorted, is told at `sorted_as_asked`.

Characters walked for lines: `text = f.read()` then `[item for item in text if item.startswith("[ ]")]`
walks the text one character at a time, so no item is a line and the count is 0 (ho48's to-do list, read
after that set's end). Where a loop over a whole read text treats its item as a line (tests it for a
string of two or more characters, splits or strips it), it walks `text.splitlines()`.

Distinct values in one case: asked how many different email addresses a list has, "some typed with
capital letters", the code put each line into a set as written and counted Priya.K@ and priya.k@ twice
(ho48, after that set's end). Asked for distinct values where case does not count (the request says so,
or the values are email addresses, whose case never matters in practice), what goes into the set is
lower-cased."""
from __future__ import annotations

import ast
import re

from oi_local.core.pycheck import rewrite

_LINE_METHODS = {"split", "strip", "rstrip", "lstrip", "partition", "rsplit", "startswith", "endswith"}


def _whole_texts(tree: ast.AST) -> set[str]:
    """Names bound once, to a file's whole text (`text = f.read()`)."""
    bound: dict[str, int] = {}
    read: set[str] = set()
    for n in ast.walk(tree):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
        for t in targets:
            if isinstance(t, ast.Name):
                bound[t.id] = bound.get(t.id, 0) + 1
        if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)
                and n.value.func.attr == "read" and not n.value.args):
            read.add(n.targets[0].id)
    return {name for name in read if bound.get(name) == 1}


def _as_line(nodes: list[ast.AST], item: str) -> bool:
    """The loop's item is used as a line: a string method a character has no use for, or a test for
    a string of two or more characters."""
    for top in nodes:
        for n in ast.walk(top):
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _LINE_METHODS
                    and isinstance(n.func.value, ast.Name) and n.func.value.id == item):
                if n.func.attr not in ("startswith", "endswith"):
                    return True
                if n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str) and len(n.args[0].value) > 1:
                    return True
            if isinstance(n, ast.Compare) and len(n.ops) == 1:
                left, right = n.left, n.comparators[0]
                named = isinstance(right, ast.Name) and right.id == item or isinstance(left, ast.Name) and left.id == item
                word = next((s.value for s in (left, right) if isinstance(s, ast.Constant) and isinstance(s.value, str)), "")
                if named and len(word) > 1 and isinstance(n.ops[0], (ast.In, ast.NotIn, ast.Eq)):
                    return True
    return False


def characters_walked(code: str) -> tuple[str, list[str]]:
    """The code with each loop over a whole read text that treats its item as a line walking its lines."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    texts = _whole_texts(tree)
    if not texts:
        return code, []
    edits, names = [], []
    for n in ast.walk(tree):
        loops: list[tuple[ast.expr, ast.expr, list[ast.AST]]] = []
        if isinstance(n, ast.For):
            loops.append((n.iter, n.target, list(n.body)))
        elif isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            used: list[ast.AST] = [n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]
            loops += [(g.iter, g.target, used + list(g.ifs)) for g in n.generators]
        for it, target, body in loops:
            if (isinstance(it, ast.Name) and it.id in texts and isinstance(target, ast.Name)
                    and it.lineno == it.end_lineno and _as_line(body, target.id)):
                edits.append((it.lineno, it.col_offset, it.end_col_offset or 0, f"{it.id}.splitlines()"))
                names.append(it.id)
    return (rewrite(code, edits), list(dict.fromkeys(names))) if edits else (code, [])


_DISTINCT = re.compile(r"\b(?:different|distinct|unique|duplicates?|repeats?|twice|more than once)\b", re.I)
_CASE_FREE = re.compile(r"\b(?:capital|upper|lower)[- ]?(?:case|letters?)?\b|\bcapitals?\b|\bcase[- ]?(?:in)?sensitive\b|"
                        r"\b(?:any|different|mixed|ignor\w*|regardless\s+of(?:\s+the)?)\s+case\b|\bemails?\b|\be-mails?\b",
                        re.I)
_FOLDED = re.compile(r"\.(?:lower|casefold|upper)\(")


def asks_case_free_distinct(request: str) -> bool:
    return bool(_DISTINCT.search(request) and _CASE_FREE.search(request))


def distinct_lowered(code: str) -> tuple[str, bool]:
    """The code with what it puts into a set or a Counter (`seen.add(x)`, `{x for ...}`, `Counter(x for ...)`) lower-cased;
    unchanged when it folds case somewhere already."""
    if _FOLDED.search(code):
        return code, False
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    sets = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Name) and n.value.func.id == "set" and not n.value.args
            for t in n.targets if isinstance(t, ast.Name)}
    values: list[ast.expr] = []
    for n in ast.walk(tree):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "add" and len(n.args) == 1
                and isinstance(n.func.value, ast.Name) and n.func.value.id in sets):
            values.append(n.args[0])
        elif isinstance(n, ast.SetComp):
            values.append(n.elt)
        elif (isinstance(n, ast.Call) and len(n.args) == 1 and isinstance(n.args[0], (ast.GeneratorExp, ast.ListComp))
              and (isinstance(n.func, ast.Name) and n.func.id in ("set", "Counter")
                   or isinstance(n.func, ast.Attribute) and n.func.attr == "Counter")):
            values.append(n.args[0].elt)
    edits = []
    for v in values:
        text = ast.get_source_segment(code, v)
        if text is None or v.lineno != v.end_lineno or isinstance(v, (ast.Tuple, ast.Constant)):
            continue
        wrapped = f"({text})" if not isinstance(v, (ast.Name, ast.Call, ast.Subscript, ast.Attribute)) else text
        edits.append((v.lineno, v.col_offset, v.end_col_offset or 0, f"{wrapped}.lower()"))
    return (rewrite(code, edits), True) if edits else (code, False)


# "save the names sorted alphabetically", "in alphabetical order", "A to Z", "A-Z"
ALPHABETICAL = re.compile(r"\balphabetic\w*|\b(?:sort|sorted|order(?:ed)?)\s+(?:them\s+|it\s+)?by\s+(?:the\s+)?name|"
                          r"\bA\s*(?:-|to|–)\s*Z\b", re.I)


def sorted_as_asked(code: str) -> tuple[str, bool]:
    """Asked for an alphabetical list, code that sorts nothing: what it joins into lines (`"\\n".join(names)`) or
    writes line by line (`f.writelines(names)`) is sorted. Asked to save the names "sorted alphabetically", the
    0.5B model's code kept them in the order first seen (ho47, a development run of session 50)."""
    if re.search(r"\bsort(?:ed|_values)?\b", code):  # sorted(), .sort(), sort_values
        return code, False
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    edits = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and len(n.args) == 1):
            continue
        if (n.func.attr == "join" and isinstance(n.func.value, ast.Constant) and n.func.value.value in ("\n", "\r\n", ", ")
                or n.func.attr == "writelines"):
            arg = n.args[0]
            text = ast.get_source_segment(code, arg)
            if text and arg.lineno == arg.end_lineno:
                edits.append((arg.lineno, arg.col_offset, arg.end_col_offset or 0, f"sorted({text})"))
    return (rewrite(code, edits), True) if edits else (code, False)
