"""In words: asked which chapter file in book/ is the longest in words, the 0.5B model took
`len(p.read_text())` for the key and the count, and answered "1089 words" for a 210-word chapter
(ho39): the length of a text is its characters. Where the request measures in words and says nothing
of characters, letters or bytes, `len()` of a file's whole text (`.read_text()`, `.read()`, or a name
bound to one) counts its words (`len(....split())`); the person is told. So, asked for a number of
lines, does `sum(len(line) for line in lines)`: it counts them (ho37)."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: {changes} (len() of a text counts its characters; the request counts words)."
_WORDS = re.compile(r"\b(?:words?|word[- ]?counts?|wordiest)\b", re.I)
_CHARS = re.compile(r"\b(?:characters?|chars?|letters?|bytes?|size|lines?)\b", re.I)
_READS = {"read_text", "read"}


def _reads_whole(node: ast.AST) -> bool:
    """`p.read_text()`, `f.read()`, `open(p).read()`: a file's whole text."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _READS
            and not node.args)


def counts(code: str) -> tuple[str, list[str]]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    texts = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and _reads_whole(n.value)
             for t in n.targets if isinstance(t, ast.Name)}
    # a name also bound to something else (a list of lines, a split) is not surely a whole text
    others = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and not _reads_whole(n.value)
              for t in n.targets if isinstance(t, ast.Name)}
    texts -= others
    edits, changes = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and len(n.args) == 1):
            continue
        arg = n.args[0]
        if not (_reads_whole(arg) or isinstance(arg, ast.Name) and arg.id in texts) or arg.lineno != arg.end_lineno:
            continue
        old = ast.get_source_segment(code, arg)
        if old is None:
            continue
        edits.append((arg.lineno, arg.col_offset, arg.end_col_offset or 0, f"{old}.split()"))
        changes.append(f"len({old}) → len({old}.split())")
    if not edits:
        return code, []
    return rewrite(code, edits), changes


_LINES = re.compile(r"\b(?:lines?|line\s+counts?)\b", re.I)
_NOT_LINES = re.compile(r"\b(?:characters?|chars?|letters?|bytes?|size|long(?:est)?|length|words?)\b", re.I)
LINES_NOTE = "Changed before it ran: {changes} (len() of a line counts its characters; the request counts lines)."


def line_counts(code: str) -> tuple[str, list[str]]:
    """`sum(len(line) for line in lines)` → `sum(1 for line in lines)`: asked for the total number of lines
    of the .log files, the 0.5B model added up the lines' lengths and answered 101009 for 2155 (ho37)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, changes = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "sum" and len(n.args) == 1
                and isinstance(n.args[0], ast.GeneratorExp)):
            continue
        gen = n.args[0]
        elt, target = gen.elt, gen.generators[0].target
        if not (len(gen.generators) == 1 and isinstance(target, ast.Name) and isinstance(elt, ast.Call)
                and isinstance(elt.func, ast.Name) and elt.func.id == "len" and len(elt.args) == 1
                and isinstance(elt.args[0], ast.Name) and elt.args[0].id == target.id and elt.lineno == elt.end_lineno):
            continue
        old = ast.get_source_segment(code, elt) or ""
        edits.append((elt.lineno, elt.col_offset, elt.end_col_offset or 0, "1"))
        changes.append(f"sum({old} for ...) → sum(1 for ...)")
    return (rewrite(code, edits), changes) if edits else (code, [])


def check(turn: Turn, block: Block) -> Verdict | None:
    asked = instruction(turn.request)
    if block.lang != "python" or "len(" not in block.code:
        return None
    if _LINES.search(asked) and not _NOT_LINES.search(asked) and "sum(" in block.code:
        new, changes = line_counts(block.code)
        if changes:
            block.message["content"] = new
            return Verdict(warning=LINES_NOTE.format(changes="; ".join(dict.fromkeys(changes))))
    if not _WORDS.search(asked) or _CHARS.search(asked):
        return None
    new, changes = counts(block.code)
    if not changes:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes="; ".join(dict.fromkeys(changes))))


rule = Rule(
    name="in words", setting="repair_slips", check=check,
    summary="asked to count or compare in words (and not characters, letters, bytes or lines), `len()` of a file's "
            "whole text (`p.read_text()`, `f.read()`, or a name bound to one) counts its words (`len(text.split())`); "
            "asked for a number of lines, `sum(len(line) for line in ...)` counts them (`sum(1 for ...)`); "
            "the person is told")
