"""Endless loops: asked which hour of app.log had the most ERROR lines, the 0.5B model wrote `while True:` around
reading the log and printing its errors, with `time.sleep(1)` and no way out: the run printed the same lines
every second until the task's time ran out (ho43, a development run of session 47). A `while True:` (or
`while 1:`) whose body has no break, return, raise or exit of its own, for a request that does not ask to
watch or keep doing something, is not run; the model is told it would never end (twice a turn at most)."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_again, instruction

NOTE = ("Not run: `{head}` has no break, so it would never end (it would run until stopped). Write code that goes "
        "through the data once and prints the answer.")
_WATCH = re.compile(r"\b(?:watch\w*|monitor\w*|keep\s+\w+ing|every\s+\d*\s*(?:second|minute|hour)s?|until\s+i|forever|"
                    r"poll\w*|loop|repeatedly|daemon|server|listen\w*)\b", re.I)
TRIES = 2


def _exits(body: list[ast.stmt]) -> bool:
    """The loop's own body can leave it: a break of this loop (not of one inside it), a return, a raise, an exit."""
    for stmt in body:
        for n in _own_nodes(stmt):
            if isinstance(n, (ast.Break, ast.Return, ast.Raise)):
                return True
            if isinstance(n, ast.Call):
                name = ast.unparse(n.func)
                if name in ("exit", "quit", "sys.exit", "os._exit") or name.endswith(".exit"):
                    return True
    return False


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    """`node` and what is under it, leaving out inner loops' breaks (a break there leaves that loop) and functions."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        return []
    if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
        return [n for n in ast.walk(node) if not isinstance(n, ast.Break)]
    found: list[ast.AST] = [node]
    for child in ast.iter_child_nodes(node):
        found += _own_nodes(child)
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "while" not in block.code or turn.counts["endless loops"] >= TRIES \
            or _WATCH.search(instruction(turn.request)):
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    for n in ast.walk(tree):
        if isinstance(n, ast.While) and isinstance(n.test, ast.Constant) and n.test.value in (True, 1) \
                and not _exits(n.body):
            turn.counts["endless loops"] += 1
            note = NOTE.format(head=f"while {ast.unparse(n.test)}:")
            return Verdict(note=note, ask=code_again(turn.engine, note, 62))
    return None


rule = Rule(
    name="endless loops", setting="repair_slips", check=check,
    summary="a `while True:` with no break, return, raise or exit of its own, for a request that does not ask to watch "
            "or keep doing something, is not run; the model is told it would never end (twice a turn at most)")
