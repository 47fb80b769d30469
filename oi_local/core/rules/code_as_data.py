"""Code as data: asked to sort the names in members.txt and save the file, the 0.5B model's second try put its
first try's code in a string and wrote that string into members.txt: the names were gone, the file held a Python
program, and the run printed nothing (ho57, a development run of session 58). Code that writes, into a data file
here (text, CSV, JSON, a log: not a script), a string of its own that is a Python program (two or more
statements, and opens a file, imports or defines something) is not run; the request is asked afresh once."""
from __future__ import annotations

import ast
import os
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_again

NOTE = "Not run: this code writes the text of a Python program into {file}, a data file, which would replace what it holds."
DATA = {".txt", ".csv", ".tsv", ".json", ".md", ".log", ".yaml", ".yml", ".xml", ".html", ".ini", ".cfg"}
_PROGRAM = re.compile(r"\bopen\(|^\s*(?:import|from\s+\S+\s+import|def|class)\s", re.M)
MIN_CHARS = 30
_STATEMENT = re.compile(r"^[ \t]*(?:[A-Za-z_]\w*\s*=[^=]|with\s.+:$|for\s.+\sin\s.+:$|import\s|from\s\S+\s+import\s|"
                        r"def\s\w+\(|print\()", re.M)


def _program(text: str) -> bool:
    """A string that is a Python program, not data: it parses, has two or more statements, and does file work."""
    if len(text) < MIN_CHARS or not _PROGRAM.search(text):
        return False
    try:
        return len(ast.parse(text).body) >= 2
    except (SyntaxError, ValueError):
        # a "\n" of the inner code became a real line end in the outer string (ho57), so it no longer parses
        return len(_STATEMENT.findall(text)) >= 2


def _written_here(code: str) -> list[str]:
    """The data files here that the code writes or appends to (core/writes.py; not those it deletes)."""
    from pathlib import Path

    from oi_local.core.writes import changed_existing, deleted_paths

    gone = set(deleted_paths("python", code))
    return [p for p in changed_existing("python", code, Path.cwd())
            if p not in gone and os.path.splitext(p)[1].lower() in DATA and os.path.isfile(p)]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["code as data"]:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    files = _written_here(block.code)
    if not files or not any(isinstance(n, ast.Constant) and isinstance(n.value, str) and _program(n.value)
                            for n in ast.walk(tree)):
        return None
    turn.counts["code as data"] += 1
    note = NOTE.format(file=files[0])
    return Verdict(note=note, ask=code_again(turn.engine, note, 67))


rule = Rule(
    name="code as data", setting="repair_slips", check=check,
    summary="code that writes the text of a Python program (a string of its own that parses, with two or more "
            "statements, and opens a file, imports or defines something) into a data file here (text, CSV, JSON ...) "
            "is not run; the request is asked afresh once")
