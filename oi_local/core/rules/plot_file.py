"""Plot file: Python code for a request that names the picture to save ("save it as bike/distances.png")
and that shows its plot without saving it has `plt.savefig(<that name>)` put before the show (or at
the end), and the person is told; the code shown for confirmation is the code that runs. The 0.5B
model drew the right chart with `plt.show()` and no savefig; asked again for the file, it rewrote the
plot wrongly and the turn ended on an error. A table written into a picture file is left out."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

IMAGE = re.compile(r"\.(png|jpe?g|svg|pdf|webp)$", re.I)
NOTE = "Added plt.savefig({name!r}) to the code: the request asks for that file."
_DRAW = {"plot", "bar", "barh", "hist", "scatter", "pie", "boxplot", "stackplot", "step", "fill_between", "imshow"}


def wanted(request: str) -> str | None:
    """The one picture file the request asks to be made, if it names exactly one."""
    from oi_local.core.rules.outputs import TARGET, placed

    names = list(dict.fromkeys(m.group(1).rstrip(".") for m in TARGET.finditer(request)))
    images = [n for n in names if IMAGE.search(n)]
    return placed(request, images[0]) if len(images) == 1 else None


def _pyplot_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == "matplotlib.pyplot" and a.asname}
        elif isinstance(node, ast.ImportFrom) and node.module == "matplotlib":
            names |= {a.asname or a.name for a in node.names if a.name == "pyplot"}
    return names | {"plt"}


def _method(node: ast.AST) -> tuple[str, str] | None:
    """(object, method) of a call like `plt.show()`, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
        return node.func.value.id, node.func.attr
    return None


def with_savefig(code: str, name: str) -> str:
    """`code` saving its figure to `name` before it shows it (the same code if it saves already,
    draws nothing with pyplot, or cannot be read)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    plt = _pyplot_names(tree)
    calls = [m for m in map(_method, ast.walk(tree)) if m is not None]
    if "savefig" in code:
        return code
    on_plt = [(obj, attr) for obj, attr in calls if obj in plt]
    if not on_plt or not any(attr in _DRAW for _, attr in calls) and not any(
            attr in ("figure", "subplots") for _, attr in on_plt):  # df.plot(); plt.show() draws too
        return code
    save = f"{sorted(obj for obj, _ in on_plt)[0]}.savefig({name!r})"
    lines = code.splitlines(keepends=True)
    shows = [s.lineno for s in ast.walk(tree) if isinstance(s, ast.Expr) and _method(s.value) in {(p, "show") for p in plt}]
    if shows:
        line = lines[min(shows) - 1]
        indent = line[: len(line) - len(line.lstrip())]
        lines.insert(min(shows) - 1, f"{indent}{save}\n")
        return "".join(lines)
    return code.rstrip("\n") + f"\n{save}\n"


_TABLE_WRITES = {"to_csv", "to_json", "to_excel", "to_html", "to_markdown", "to_string", "to_parquet", "to_pickle"}
DROPPED = "Left out before it ran: {calls} (it would write a table over the picture {name})."


def without_tables(code: str) -> tuple[str, list[str]]:
    """`code` without its one-line statements that write a table into a picture file
    (`temps.to_csv("week_temps.png")`), and those statements."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    drop = []
    for s in ast.walk(tree):
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute)
                and s.value.func.attr in _TABLE_WRITES and s.lineno == s.end_lineno):
            continue
        first = s.value.args[0] if s.value.args else next(
            (k.value for k in s.value.keywords if k.arg in ("path_or_buf", "path", "excel_writer", "buf")), None)
        whole = code.splitlines()[s.lineno - 1].strip() == ast.get_source_segment(code, s)  # alone on its line
        if whole and isinstance(first, ast.Constant) and isinstance(first.value, str) and IMAGE.search(first.value):
            drop.append(s)
    if not drop:
        return code, []
    alone = {id(b[0]) for n in ast.walk(tree) for f in ("body", "orelse", "finalbody")
             if isinstance(b := getattr(n, f, None), list) and len(b) == 1}
    lines = code.splitlines(keepends=True)
    for s in sorted(drop, key=lambda s: -s.lineno):  # `pass` keeps a block that held only this statement valid
        line = lines[s.lineno - 1]
        if id(s) in alone:
            lines[s.lineno - 1] = line[: len(line) - len(line.lstrip())] + "pass\n"
        else:
            del lines[s.lineno - 1]
    return "".join(lines), [ast.unparse(s) for s in drop]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    # The 0.5B model saved the chart, then `temps.to_csv("week_temps.png")` wrote the table over it: the
    # PNG asked for was CSV text (ho33-plot-temps).
    new, dropped = without_tables(block.code)
    told = [DROPPED.format(calls="; ".join(dropped), name=_named(dropped[0]))] if dropped else []
    name = wanted(turn.request)
    if name is not None:
        saved = with_savefig(new, name)
        if saved != new:
            new = saved
            told.append(NOTE.format(name=name))
    if new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=" ".join(told))


def _named(call: str) -> str:
    m = re.search(r"""["']([^"']+)["']""", call)
    return m.group(1) if m else "file"


rule = Rule(
    name="plot file", setting="check_outputs", check=check,
    summary="Python code for a request that names the picture to save (\"save it as chart.png\") that draws with "
            "pyplot but never calls savefig has `plt.savefig(<that name>)` put before its `plt.show()` (or at the "
            "end) before it runs, and the person is told; a one-line `df.to_csv(\"x.png\")` (a table written into a "
            "picture file) is left out of any code, and the person is told")
