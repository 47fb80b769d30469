"""One name for many files: a loop that renames, moves or copies each file to the same file name
keeps only the last one; the others are overwritten, and nothing says so. Asked to back up three
.ini files with .bak added to each name, the 0.5B model renamed each copy to
`p.with_name("config_backup.ini.bak")` and two of the three were gone. Such code is not run (twice a
turn at most, then the turn stops); the request is asked afresh, saying each file needs its own name."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

NOTE = ("(Write one ```python block that does what I asked. The first try gave every file the same new name "
        "({target}), so each one overwrote the last: build each new name from that file's own name.)")
SHOWN = "Not run: the loop gives every file the same name ({target}), so each would overwrite the last; asked afresh."
ASKS = 2
_MOVERS = {"move", "copy", "copy2", "copyfile", "rename", "replace"}
_FILE_NAME = re.compile(r"\.\w{1,6}$")


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _fixed_name(node: ast.expr, varying: set[str]) -> bool:
    """The expression gives the same file name each time round: it uses nothing that changes with
    the loop, or it is `x.with_name("...")` / `x.parent / "..."` / `os.path.join(dir, "...")` of a
    fixed name."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "with_name":
        return all(not (_names(a) & varying) for a in node.args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return not (_names(node.right) & varying)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" and node.args:
        return not (_names(node.args[-1]) & varying)
    return not (_names(node) & varying)


def _text(node: ast.expr) -> str:
    """The literal text of a name where it is one ("a.bak", f"x.bak" with no fields), else ''."""
    if isinstance(node, ast.Call) and node.args:
        node = node.args[-1]
    elif isinstance(node, ast.BinOp):
        node = node.right
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
    return ""


def same_target(code: str) -> str | None:
    """The fixed file name a loop renames, moves or copies every file to, if it does."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        varying = _names(loop.target)
        assigned: dict[str, ast.expr] = {}
        for _ in range(3):  # names made from the loop's file, made from those, ...
            for n in ast.walk(loop):
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                    assigned[n.targets[0].id] = n.value
                    if _names(n.value) & varying and not _fixed_name(n.value, varying):
                        varying.add(n.targets[0].id)
        for n in ast.walk(loop):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _MOVERS):
                continue
            method = isinstance(n.func.value, ast.Name) and n.func.value.id in ("shutil", "os")
            if method and len(n.args) != 2 or not method and len(n.args) != 1 or n.func.attr == "copy" and not method:
                continue
            source, target = (n.args[0], n.args[1]) if method else (n.func.value, n.args[0])
            if not (_names(source) & varying):
                continue  # the same file each time round: not a loop over files
            expr = assigned.get(target.id, target) if isinstance(target, ast.Name) else target
            if isinstance(target, ast.Name) and target.id in varying:
                continue
            if not _fixed_name(expr, varying):
                continue
            text = _text(expr)
            if _FILE_NAME.search(text):  # a file name, not a folder to put them in
                return text
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["one name"] >= ASKS:
        return None
    target = same_target(block.code)
    if target is None:
        return None
    turn.counts["one name"] += 1
    return Verdict(note=SHOWN.format(target=target),
                   ask=Ask(NOTE.format(target=target), code_retry(turn.engine, 30 + turn.counts["one name"]), hide=True))


rule = Rule(
    name="one name", guards=True, setting="check_answers", check=check,
    summary="a loop that renames, moves or copies every file to one and the same file name "
            "(`p.rename(p.with_name(\"backup.ini.bak\"))`), so that each overwrites the last, is not run; the request "
            "is asked afresh (twice at most), sampled, saying each file needs its own name")
