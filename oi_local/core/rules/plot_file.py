"""Plot file: Python code for a request that names the picture to save ("save it as bike/distances.png")
and that shows its plot without saving it has `plt.savefig(<that name>)` put before the show (or at
the end), and the person is told; the code shown for confirmation is the code that runs. The 0.5B
model drew the right chart with `plt.show()` and no savefig; asked again for the file, it rewrote the
plot wrongly and the turn ended on an error."""
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


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    name = wanted(turn.request)
    if name is None:
        return None
    new = with_savefig(block.code, name)
    if new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(name=name))


rule = Rule(
    name="plot file", setting="check_outputs", check=check,
    summary="Python code for a request that names the picture to save (\"save it as chart.png\") that draws with "
            "pyplot but never calls savefig has `plt.savefig(<that name>)` put before its `plt.show()` (or at the "
            "end) before it runs, and the person is told")
