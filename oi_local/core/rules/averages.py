"""Averages: an average is a total divided by a count, so code for a question that asks for one and
never divides (no `/`, no `mean`) prints something else. Asked for the average sale per region, the
0.5B model added up each region's sales and answered with the largest total. Such code is not run;
the request is asked afresh once (sampled, the try hidden), saying what an average is."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, rewrite

NOTE = ("(Write one ```python block that does what I asked. I asked for an average: add up the values, then divide "
        "by how many there are{each}. The first try never divided.)")
SHOWN = "Not run: an average was asked for, and the code never divides; asked afresh."
MEAN_NOTE = "Changed before it ran: an average was asked for, so the column's {was} is its .mean()."
ASKED = re.compile(r"\b(?:average|averages|avg|the mean|mean (?:of|value|score|price|age|time|length|amount|number))\b", re.I)
_EACH = re.compile(r"\b(?:per|each|every|by)\b", re.I)
_MEANS = re.compile(r"mean|average|avg", re.I)


def divides(code: str) -> bool:
    """The code divides, or calls something named like a mean (statistics.mean, df.mean(), np.average)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return True  # not Python we can read: other rules see to it
    for n in ast.walk(tree):
        if isinstance(n, (ast.BinOp, ast.AugAssign)) and isinstance(n.op, (ast.Div, ast.FloorDiv)):
            return True
        if isinstance(n, ast.Call):
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if _MEANS.search(name) or name in ("agg", "aggregate", "describe"):
                return True
    from oi_local.core.rules.named_values import _data_strings

    # df.agg("mean"), or a column that holds averages already (r["avg_rating"]); not a printed label
    return any(_MEANS.search(s) for s in _data_strings(code))


def computes(code: str) -> bool:
    """The code works something out: a loop, or a call other than print()."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    return any(isinstance(n, (ast.For, ast.comprehension)) or isinstance(n, ast.Call)
               and not (isinstance(n.func, ast.Name) and n.func.id == "print") for n in ast.walk(tree))


def totalled_column(code: str) -> ast.Call | None:
    """The one `.sum()` or `.count()` of a column (`df["amount"].sum()`, `df.groupby("region")["amount"].count()`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("sum", "count") and not n.args and not n.keywords
             and isinstance(n.func.value, ast.Subscript) and n.lineno == n.end_lineno]
    return found[0] if len(found) == 1 else None


def _total_asked(request: str) -> bool:
    """The request also asks how many, or for a total: a sum or a count may be meant as it is."""
    from oi_local.core.rules.counts import HOW_MANY

    return bool(HOW_MANY.search(request) or re.search(r"\b(?:total|sum)\b", request, re.I))


def _mean_instead(turn: Turn, block: Block) -> Verdict | None:
    """Told to take `df.groupby('region')['amount'].mean()`, the 0.5B model wrote `.count()`, and
    answered with a count for the average asked: one column summed or counted, in code that never
    divides, is averaged instead (not when the request also asks how many)."""
    call = totalled_column(block.code)
    if call is None or _total_asked(turn.request):
        return None
    code, func = block.code, call.func
    assert isinstance(func, ast.Attribute)
    segment = ast.get_source_segment(code, call) or ""
    was = "." + func.attr + "()"
    if not segment.endswith(was):
        return None
    block.message["content"] = rewrite(code, [(call.lineno, call.col_offset, call.end_col_offset or 0,
                                               segment[:-len(was)] + ".mean()")])
    return Verdict(warning=MEAN_NOTE.format(was=was))


GROUPS_NOTE = "Changed before it ran: an average was asked for, so the totals in {name} are divided by each group's count."


def _accumulation(tree: ast.Module) -> tuple[ast.For, ast.stmt, str, ast.expr] | None:
    """The one `name[key] += value` (or `name[key] = name.get(key, 0) + value`) in a for loop: the loop,
    the statement, the dict's name and the key."""
    found: list[tuple[ast.For, ast.stmt, str, ast.expr]] = []
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For):
            continue
        for st in ast.walk(loop):
            if not isinstance(st, ast.stmt):
                continue
            target = st.target if isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add) else \
                st.targets[0] if isinstance(st, ast.Assign) and len(st.targets) == 1 else None
            if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
                continue
            name = target.value.id
            if isinstance(st, ast.Assign) and not (isinstance(st.value, ast.BinOp) and isinstance(st.value.op, ast.Add)
                                                   and name in {n.id for n in ast.walk(st.value) if isinstance(n, ast.Name)}):
                continue
            found.append((loop, st, name, target.slice))
    outer: dict[int, tuple[ast.For, ast.stmt, str, ast.expr]] = {}
    for f in found:  # ast.walk goes outside in: a statement in nested loops keeps its outermost loop
        outer.setdefault(id(f[1]), f)
    return list(outer.values())[0] if len(outer) == 1 else None


def _grouped_totals(turn: Turn, block: Block) -> Verdict | None:
    """Asked which shop has the best average rating, the 0.5B model added up each shop's ratings in a
    dict, and asked afresh it averaged all the ratings together (3.0). The dict's totals are divided by
    each group's count right after the loop, so the code's own prints and max() see averages."""
    code = block.code
    if _total_asked(turn.request):
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = _accumulation(tree)
    if found is None:
        return None
    loop, st, name, key = found
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    counts = next(c for c in ("counts", "group_counts", "counts_") if c not in taken)
    lines = code.splitlines()
    key_src = ast.get_source_segment(code, key) or ""
    if not key_src or "\n" in key_src or st.end_lineno != st.lineno:
        return None
    loop_pad = lines[loop.lineno - 1][:loop.col_offset]
    st_pad = lines[st.lineno - 1][:st.col_offset]
    end = loop.end_lineno or loop.lineno
    out = lines[:loop.lineno - 1] + [f"{loop_pad}{counts} = {{}}"] + lines[loop.lineno - 1:st.lineno]
    out += [f"{st_pad}{counts}[{key_src}] = {counts}.get({key_src}, 0) + 1"] + lines[st.lineno:end]
    out += [f"{loop_pad}{name} = {{k: {name}[k] / {counts}[k] for k in {name}}}"] + lines[end:]
    block.message["content"] = "\n".join(out) + ("\n" if code.endswith("\n") else "")
    return Verdict(warning=GROUPS_NOTE.format(name=name))


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.writes import question

    if block.lang != "python":
        return None
    if not ASKED.search(turn.request) or not question(turn.request) or divides(block.code):
        return None
    repaired = _mean_instead(turn, block) or _grouped_totals(turn, block)
    if repaired is not None or turn.counts["averages"] >= 1:
        return repaired
    if "print" not in block.code or not computes(block.code):
        return None  # prints nothing (the fresh retries see to it), or only typed-in values (made-up results)
    turn.counts["averages"] += 1
    each = " in each group" if _EACH.search(turn.request) else ""
    return Verdict(note=SHOWN, ask=Ask(NOTE.format(each=each), code_retry(turn.engine, 29), hide=True))


rule = Rule(
    name="averages", setting="check_answers", check=check,
    summary="code for a question that asks for an average and never divides (no `/`, no mean) is not run (it added "
            "up each group's values); the request is asked afresh once, sampled, saying an average is a total divided "
            "by a count; code that sums or counts one column (`df.groupby('region')['amount'].count()`) takes its "
            ".mean() instead, and totals added up per group in a dict (`totals[r['shop']] += ...`) are divided by "
            "each group's count after the loop, the person told")
