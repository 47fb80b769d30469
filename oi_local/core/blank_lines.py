"""Blank lines read as numbers: `[float(line) for line in f]` over a file with an empty line fails with
"could not convert string to float: '\\n'". The 0.5B model, shown that error in a script it was asked to
fix (ho34-fix-stats-crash), rewrote everything but the reading line three times. The fix is certain:
skip the lines that are blank where they are read."""
from __future__ import annotations

import ast
import re

BLANK = re.compile(r"ValueError: (?:could not convert string to float|invalid literal for int\(\) with base 10): "
                   r"'((?:\\[nrt]|[ \t])*)'")


def _converts(node: ast.AST, name: str) -> bool:
    """float(name) or int(name) (or of name.strip()) somewhere in node."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("float", "int") and n.args:
            arg = n.args[0]
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr in ("strip", "rstrip"):
                arg = arg.func.value
            if isinstance(arg, ast.Name) and arg.id == name:
                return True
    return False


def _tests(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def blanks_skipped(code: str) -> str | None:
    """`code` with blank lines skipped wherever a loop or comprehension turns its item into a number;
    None when there is no such place (or it tests the item already)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    lines = code.splitlines()
    edits: list[tuple[int, int, str]] = []  # (line index, column, text to insert); columns count characters
    for node in ast.walk(tree):
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)) and len(node.generators) == 1:
            gen = node.generators[0]
            if (isinstance(gen.target, ast.Name) and _converts(node.elt, gen.target.id)
                    and not any(_tests(c, gen.target.id) for c in gen.ifs)):
                end = gen.ifs[-1] if gen.ifs else gen.iter
                if end.end_lineno is None or end.end_col_offset is None:
                    continue
                row = end.end_lineno - 1
                col = len(lines[row].encode()[:end.end_col_offset].decode(errors="replace"))
                edits.append((row, col, f" if {gen.target.id}.strip()"))
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.body:
            name = node.target.id
            first = node.body[0]
            if (any(_converts(b, name) for b in node.body) and not isinstance(first, ast.If)
                    and first.lineno > node.lineno):
                header = lines[first.lineno - 1]
                indent = header[:len(header) - len(header.lstrip())]
                edits.append((first.lineno - 1, 0, f"{indent}if not {name}.strip():\n{indent}    continue\n"))
    if not edits:
        return None
    for row, col, text in sorted(edits, reverse=True):
        lines[row] = lines[row][:col] + text + lines[row][col:]
    return "\n".join(lines) + ("\n" if code.endswith("\n") else "")
