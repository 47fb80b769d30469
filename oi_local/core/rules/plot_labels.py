"""Plot labels: asked to plot sales_by_month.csv, the 0.5B model adapted a worked example and labelled the sales
axis "average score", the example's words (ho53, session 54). A chart's value-axis label (`plt.ylabel`,
`ax.set_ylabel`) whose own words are in neither the request, nor the names of the files the code opens, nor the
columns it reads, while the code reads exactly one column as numbers, names that column instead: the words of
kind ("average", "total", "number of") are kept. The person is told."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: the axis label {old!r} is in neither the request nor the data; it is {new!r}."
_KIND = {"average", "avg", "mean", "total", "sum", "count", "number", "of", "per", "in", "the", "a", "an", "value",
         "values", "amount", "by", "and", "median", "max", "min", "maximum", "minimum", "daily", "monthly", "weekly",
         "yearly", "cumulative"}
_LABELS = ("plt.ylabel", "ax.set_ylabel", "axes.set_ylabel", "ax1.set_ylabel")
_NUMBERS = ("float", "int", "number", "to_float", "pd.to_numeric")


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]+", text.replace("_", " "))


def _numeric_keys(tree: ast.AST) -> set[str]:
    """The string keys read as numbers: `float(r["sales"])`."""
    keys = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and ast.unparse(n.func) in _NUMBERS and n.args:
            arg = n.args[0]
            while isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute):  # r["sales"].strip()
                arg = arg.func.value
            if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Constant) and isinstance(arg.slice.value, str):
                keys.add(arg.slice.value)
    return keys


def _known(tree: ast.AST, request: str) -> set[str]:
    """The words the label may use: the request's, the opened files' names and headers', the code's keys'."""
    from oi_local.core.records import stems

    text = [request]
    labels = {id(a) for a in _label_args(tree)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) < 200 and id(n) not in labels:
            text.append(n.value)
            if re.fullmatch(r"[\w./-]+\.(?:csv|tsv)", n.value):
                try:
                    with open(n.value, encoding="utf-8", errors="replace") as f:
                        text.append(f.readline())
                except OSError:
                    pass
    return stems(" ".join(text))


def _label_args(tree: ast.AST) -> list[ast.AST]:
    return [n.args[0] for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) in _LABELS and n.args]


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.pycheck import rewrite
    from oi_local.core.records import stems

    if block.lang != "python" or "label" not in block.code:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    labels = [a for a in _label_args(tree) if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    keys = _numeric_keys(tree)
    if len(labels) != 1 or len(keys) != 1 or labels[0].lineno != labels[0].end_lineno:
        return None
    old = str(labels[0].value)
    own = [w for w in _words(old) if w.lower() not in _KIND and len(w) > 1]
    known = _known(tree, instruction(turn.request))
    if not own or any(stems(w) & known for w in own):
        return None
    column = next(iter(keys))
    kind = [w for w in _words(old) if w.lower() in _KIND and w.lower() not in ("of", "in", "by", "and")]
    new = " ".join(kind[:1] + [column])
    line = labels[0].lineno
    start, end = labels[0].col_offset, labels[0].end_col_offset or 0
    block.message["content"] = rewrite(block.code, [(line, start, end, repr(new))])
    return Verdict(warning=NOTE.format(old=old, new=new))


rule = Rule(
    name="plot labels", setting="repair_slips", check=check,
    summary="a chart's value-axis label whose own words are in neither the request, the names or headers of the files "
            "the code opens, nor its strings, where the code reads one column as numbers, names that column (\"average "
            "score\" over sales is \"average sales\"); the person is told")
