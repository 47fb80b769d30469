"""Problems in a Python script that show without running it: syntax errors and undefined names.

Asked to fix a script, a small model copies it back unchanged unless it is told where the fault
is (the 0.5B model rewrote `pritn(...)` as `pritn(...)`). pyflakes reads the code (it never runs
it); only what would make the script fail is kept, with a likely correction.
"""
from __future__ import annotations

import ast
import builtins
import difflib
import re
import sys
from typing import Any

MAX_PROBLEMS = 3


def problems(code: str, filename: str = "<script>") -> list[str]:
    """Lines such as "line 4: pritn is not defined (did you mean print?)"; [] if none were found
    or pyflakes is not installed."""
    return [text for text, _ in _check(code, filename)]


def corrected(code: str, filename: str = "<script>") -> str | None:
    """`code` with the problems that have one obvious correction corrected (a misspelt name, a
    missing standard-library import), or None when there is none to make."""
    lines = code.splitlines(keepends=True)
    imports: list[str] = []
    changed = False
    for _, fix in _check(code, filename):
        if fix is None:
            continue
        lineno, name, replacement = fix
        if replacement.startswith("import "):
            if replacement not in imports:
                imports.append(replacement)
            continue
        if 0 < lineno <= len(lines):
            new = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w)", replacement, lines[lineno - 1])
            changed |= new != lines[lineno - 1]
            lines[lineno - 1] = new
    if not imports and not changed:
        return None
    return "".join(f"{i}\n" for i in imports) + "".join(lines)


def _check(code: str, filename: str) -> list[tuple[str, tuple[int, str, str] | None]]:
    """(problem text, (line, name, correction) or None), in line order, at most MAX_PROBLEMS."""
    try:
        from pyflakes import api, messages
    except ImportError:
        return []

    found: list[tuple[int, str, tuple[int, str, str] | None]] = []

    class _Reporter:
        def unexpectedError(self, name: str, msg: str) -> None:
            pass

        def syntaxError(self, name: str, msg: str, lineno: int, offset: Any, text: Any) -> None:
            found.append((lineno or 0, f"line {lineno}: {msg}", None))

        def flake(self, m: Any) -> None:
            if isinstance(m, messages.UndefinedLocal):
                found.append((m.lineno, f"line {m.lineno}: {m.message_args[0]} is used before it is given a value", None))
            elif isinstance(m, messages.UndefinedName):
                name = m.message_args[0]
                fix = _correction(name, code)
                hint = "" if fix is None else f" (it needs `{fix}`)" if fix.startswith("import ") else f" (did you mean {fix}?)"
                found.append((m.lineno, f"line {m.lineno}: {name} is not defined{hint}",
                              None if fix is None else (m.lineno, name, fix)))

    api.check(code, filename, _Reporter())
    return [(text, fix) for _, text, fix in sorted(found, key=lambda f: f[0])][:MAX_PROBLEMS]


def _correction(name: str, code: str) -> str | None:
    if name in sys.stdlib_module_names:
        return f"import {name}"
    known = (set(dir(builtins)) | _defined(code)) - {name}
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
    return close[0] if close else None


def _defined(code: str) -> set[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names
