"""Sorted kinds: a request that sorts kinds of file into folders ("Put the pictures (.jpg and .png)
into a subfolder called images and the .pdf and .docx files into a subfolder called documents") pairs
each ending with a folder. The 0.5B model wrote one loop per ending and moved every one of them into
documents (ho5-files-sort-desktop). Where a loop takes files of endings the request pairs with one
folder (`glob("*.jpg")`, `endswith(".jpg")`) and moves or copies them into another folder of the
request's, that folder is changed to the paired one in the loop before the code runs; the person is told."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: {changes} (the request puts those files there)."
_ENDING = re.compile(r"(?<![\w/.-])\.([A-Za-z][A-Za-z0-9]{1,4})\b")
# "into a subfolder called images", "into a new folder named docs", "into images/", "to a folder pictures"
_INTO = re.compile(r"\b(?:into|to|in)\s+(?:a\s+|the\s+)?(?:new\s+)?(?:(?:sub)?folder|directory)\s+(?:called\s+|named\s+)?"
                   r"['\"`]?([\w-]+)|\b(?:into|to)\s+['\"`]?([\w-]+)/", re.I)


def pairs(request: str) -> dict[str, str]:
    """Each ending the request names with the folder it is to go into: {".jpg": "images", ...}; only when
    two or more folders are named, each after its endings."""
    text = instruction(request)
    found: dict[str, str] = {}
    start = 0
    for m in _INTO.finditer(text):
        folder = m.group(1) or m.group(2)
        for e in _ENDING.findall(text[start:m.start()]):
            found.setdefault("." + e.lower(), folder)
        start = m.end()
    return found if len(set(found.values())) >= 2 else {}


def _endings(loop: ast.For) -> set[str]:
    """The endings a loop takes: its glob pattern's, or those its body tests names for."""
    found = set()
    for n in ast.walk(loop.iter):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            found |= {"." + e.lower() for e in re.findall(r"\*\.(\w{1,5})$", n.value)}
    if not found:
        for n in ast.walk(loop):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "endswith":
                found |= {str(c.value).lower() for c in ast.walk(n) if isinstance(c, ast.Constant) and isinstance(c.value, str)
                          and re.fullmatch(r"\.\w{1,5}", str(c.value))}
    return found


def regrouped(code: str, paired: dict[str, str]) -> tuple[str, list[str]]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    folders = set(paired.values())
    edits, changes = [], []
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For):
            continue
        takes = _endings(loop)
        targets = {paired[e] for e in takes if e in paired}
        if not takes or len(targets) != 1 or not takes <= set(paired):
            continue
        right = targets.pop()
        for stmt in loop.body:
            for n in ast.walk(stmt):
                if not (isinstance(n, ast.Constant) and isinstance(n.value, str) and n.lineno == n.end_lineno):
                    continue
                parts = re.split(r"(/)", n.value)
                wrong = [p for p in parts if p in folders and p != right]
                if len(wrong) == 1 and right not in parts:
                    new = "".join(right if p == wrong[0] else p for p in parts)
                    edits.append((n.lineno, n.col_offset, n.end_col_offset or n.col_offset, repr(new)))
                    changes.append(f"{' and '.join(sorted(takes))} files go to {right}, not {wrong[0]}")
    return (rewrite(code, edits) if edits else code), list(dict.fromkeys(changes))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "for " not in block.code:
        return None
    paired = pairs(turn.request)
    if not paired:
        return None
    code, changes = regrouped(block.code, paired)
    if not changes or code == block.code:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="sorted kinds", setting="repair_slips", check=check,
    summary="a request that sorts endings into folders (\".jpg and .png into images and the .pdf and .docx files into "
            "documents\"), whose code moves a loop's files of one folder's endings into another of those folders, has "
            "the loop's folder changed to the paired one before it runs; the person is told")
