"""Made-up results: after a failed run, code that only prints fixed values (`print(0)`,
`echo "done"`) computes nothing; run, it shows a made-up result as if the task had worked (the
0.5B model, told a CSV did not exist, printed 0 and answered "0"). Where no one confirms it is not
run and the turn ends on the real error (core/rules/honest_end.py says it); a person is warned."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Not run: after the error above, this code only prints fixed values; it computes nothing."
WARNING = "Careful: after the error above, this code only prints fixed values; it computes nothing."
_ECHO = re.compile(r"^\s*(echo|printf)\b[^$`|;&<>]*$")


def _constant(node: ast.AST, known: set[str]) -> bool:
    """An expression made of literals (and names assigned literals in the same code)."""
    if isinstance(node, ast.Name):
        return node.id in known
    if isinstance(node, ast.JoinedStr):
        return all(_constant(v, known) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return _constant(node.value, known)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_constant(e, known) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand, known)
    return isinstance(node, ast.Constant)


def _python_prints_only_literals(code: str) -> bool:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    known: set[str] = set()
    printed = False
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets) \
                and _constant(stmt.value, known):
            known.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if not (isinstance(call.func, ast.Name) and call.func.id == "print"):
                return False
            if not all(_constant(a, known) for a in call.args) or \
                    not all(_constant(k.value, known) for k in call.keywords):
                return False
            printed = True
        elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            continue
        else:
            return False
    return printed


def prints_only_literals(lang: str, code: str) -> bool:
    """The code does nothing but print fixed text or numbers."""
    if lang in ("python", "py", "python3"):
        return _python_prints_only_literals(code)
    if lang in ("shell", "bash", "sh", "zsh"):
        lines = [ln for ln in code.splitlines() if ln.strip() and not ln.strip().startswith("#")]
        return bool(lines) and all(_ECHO.match(ln) for ln in lines)
    return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if not (turn.runs and turn.runs[-1].failed and prints_only_literals(block.lang, block.code)):
        return None
    if turn.approve is not None:
        return Verdict(warning=WARNING)
    return Verdict(note=NOTE, stop=True)


rule = Rule(
    name="made-up results", setting="stop_made_up", check=check,
    summary="after a failed run, code that only prints fixed values (`print(0)`) is not run where no one confirms "
            "(a person is warned): the turn ends on the real error instead of a made-up result")
