"""Example names: code that uses a name only a worked example sets (`since`, from the example's
`since = time.time() - 7 * 24 * 60 * 60`) fails with a NameError. Asked to copy the files changed in
the last 7 days, the 0.5B model kept the example's loop and left out the line that sets `since`, three
runs in a row, each a NameError (ho38). Where the code reads such a name, that no code in the
conversation sets, and an example sets it in one line from modules alone, that line (and its imports)
goes first; only when each number in it that is not a unit (24, 60, 1024) is in the request."""
from __future__ import annotations

import ast
import builtins
import re
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {names} set first, as in the worked example (`{lines}`)."
_FENCED = re.compile(r"```(?:python|py)?\n(.*?)```", re.S)
_UNITS = {"0", "1", "2", "10", "12", "24", "60", "100", "365", "1000", "1024", "3600"}


def _unset(tree: ast.AST) -> list[str]:
    """Names the code reads and never sets (nor imports, nor takes as arguments)."""
    stored, read = set(), []
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            (stored.add(n.id) if isinstance(n.ctx, (ast.Store, ast.Del)) else read.append(n.id))
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            stored |= {(a.asname or a.name).split(".")[0] for a in n.names}
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(n.name)
        elif isinstance(n, ast.arg):
            stored.add(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            stored.add(n.name)
    return [x for x in dict.fromkeys(read) if x not in stored and not hasattr(builtins, x)]


def _definitions(examples: list[dict[str, Any]]) -> dict[str, tuple[str, list[str]]]:
    """name -> (the example's one line that sets it, the imports that line needs)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for e in examples:
        if e.get("role") != "assistant":
            continue
        for code in _FENCED.findall(str(e.get("content", ""))):
            try:
                tree = ast.parse(code)
            except SyntaxError:
                continue
            modules = {}
            for stmt in tree.body:
                if isinstance(stmt, ast.Import):
                    modules.update({(a.asname or a.name): ast.unparse(ast.Import(names=[a])) for a in stmt.names})
            for stmt in tree.body:
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
                    continue
                needs = _unset(stmt.value)
                if stmt.lineno == stmt.end_lineno and all(n in modules for n in needs):
                    found.setdefault(stmt.targets[0].id, (ast.unparse(stmt), [modules[n] for n in needs]))
    return found


def _set_before(engine: Any, name: str) -> bool:
    """Some code in the conversation sets `name` (the session may have it)."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\s*(?:=(?!=)|,|\bin\b)|\bas\s+{re.escape(name)}\b|def\s+{re.escape(name)}\b")
    return any(m.get("type") == "code" and pattern.search(str(m.get("content", ""))) for m in engine.messages)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    unset = [n for n in _unset(tree) if not _set_before(turn.engine, n)]
    if not unset:
        return None
    defs = _definitions(turn.engine.shown_examples())
    request = turn.request
    lines, imports, names = [], [], []
    for name in unset:
        if name not in defs:
            continue
        line, needs = defs[name]
        numbers = set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", line)) - _UNITS
        if all(re.search(rf"(?<![\d.]){re.escape(x)}(?![\d])", request) for x in numbers):
            lines.append(line)
            imports += [i for i in needs if i not in imports and i not in block.code]
            names.append(name)
    if not lines:
        return None
    block.message["content"] = "\n".join(imports + lines) + "\n" + block.code
    return Verdict(warning=NOTE.format(names=", ".join(names), lines="; ".join(lines)))


rule = Rule(
    name="example names", setting="repair_slips", check=check,
    summary="code that reads a name only a worked example sets (`since`, from `since = time.time() - 7 * 24 * 60 * 60`), "
            "that no code in the conversation sets, gets the example's one line that sets it first (with its imports), "
            "when each number in that line that is not a unit is in the request; the person is told")
