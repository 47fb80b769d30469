"""Stale values: the Python session keeps what earlier code read, and a later turn's code may use it after the
file has changed: rows read from stock.csv in the first turn, the file rewritten in the second, and "what's the
total now?" answered from the rows as they were. Code that uses a name it does not make, which the
conversation's code last made by reading a file that later code wrote, has that reading made again first
(the statement as it was written, with its `with open(...)` and its import); the person is told."""
from __future__ import annotations

import ast
import builtins
import os
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {names} read again from {files} first (the file was changed after the session read it)."
_MODULES = {"csv", "json", "pd", "pandas", "Path", "os"}
_IMPORTS = (("csv.", "import csv"), ("json.", "import json"), ("pd.", "import pandas as pd"), ("Path(", "from pathlib import Path"))


def _unmade(tree: ast.Module) -> list[str]:
    """Names the code reads but never makes itself (nor imports, nor a builtin)."""
    made, read = set(), []
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            (made.add(n.id) if isinstance(n.ctx, (ast.Store, ast.Del)) else read.append(n.id))
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            made.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            made.add(n.name)
        elif isinstance(n, ast.arg):
            made.add(n.arg)
    return [r for r in dict.fromkeys(read) if r not in made and not hasattr(builtins, r)]


def _reading(code: str, name: str) -> tuple[str, str] | None:
    """(the statement that makes `name` from a file, the file) in `code`: the last such plain assignment, with the
    `with open(...)` around it when it reads the handle."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = None
    for top in tree.body:
        outer = top if isinstance(top, ast.With) else None
        for n in (outer.body if outer else [top]):
            if not (isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)):
                continue
            text = ast.get_source_segment(code, n) or ""
            handle = {i.optional_vars.id for i in outer.items if isinstance(i.optional_vars, ast.Name)} if outer else set()
            if set(_unmade(ast.parse(text))) - handle - _MODULES:
                continue  # it needs other values too (`rows = [r for r in reader]`): not made again alone
            paths = [c.value for c in ast.walk(n.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)
                     and os.path.isfile(c.value)]
            if paths:
                found = (text, paths[0])
            elif outer is not None:
                opened = [c.value for item in outer.items for c in ast.walk(item.context_expr)
                          if isinstance(c, ast.Constant) and isinstance(c.value, str) and os.path.isfile(c.value)]
                if opened and len(outer.items) == 1:
                    head = (ast.get_source_segment(code, outer) or "").split("\n", 1)[0]
                    found = (f"{head}\n    {text}", opened[0])
    return found


def _codes(messages: list[dict[str, Any]], current: str) -> list[str]:
    """The conversation's Python code blocks before the one at hand, oldest first."""
    codes = [str(m.get("content") or "") for m in messages if m.get("role") == "assistant" and m.get("type") == "code"
             and (m.get("format") or "python") == "python"]
    if codes and codes[-1] == current:
        codes.pop()
    return codes


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    unmade = _unmade(tree)
    if not unmade:
        return None
    from oi_local.core.writes import changed_paths

    codes = _codes(turn.engine.messages, block.code)
    again: list[tuple[str, str, str]] = []  # (name, statement, file)
    for name in unmade:
        at = next((i for i in range(len(codes) - 1, -1, -1) if _reading(codes[i], name)), None)
        if at is None:
            continue
        statement, path = _reading(codes[at], name) or ("", "")
        for later in codes[at + 1:]:
            try:
                written = [os.path.normpath(p) for p in changed_paths("python", later)]
            except (SyntaxError, ValueError):
                continue
            if os.path.normpath(path) in written:
                again.append((name, statement, path))
                break
    if not again:
        return None
    lines = [statement for _, statement, _ in again]
    needed = [imp for key, imp in _IMPORTS if any(key in s for s in lines) and imp not in block.code]
    block.message["content"] = "\n".join([*needed, *lines, block.code])
    return Verdict(warning=NOTE.format(names=", ".join(n for n, _, _ in again),
                                       files=", ".join(dict.fromkeys(p for _, _, p in again))))


rule = Rule(
    name="stale values", setting="repair_slips", check=check,
    summary="code that uses a name it does not make, which the conversation's code last made by reading a file that "
            "later code wrote (rows read before the file was changed), has that reading made again first; the person "
            "is told")

