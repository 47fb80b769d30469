"""Whole folder: asked to "pack the reports folder into a zip file called reports.zip", the 0.5B model
zipped the files that end in .txt and left summary.md out, and said the folder was packed (ho6).
When the request packs, copies, moves or backs up one named folder and names no kind of file, and the
code takes only some extensions (`name.endswith(".txt")`, `glob("*.txt")`) while the folder holds
others too, the filter is dropped before the code runs, and the person is told."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: every file of {folder} is taken (the request names no kind of file; {only} would have left out {left})."
_WHOLE = re.compile(r"\b(?:zip\w*|pack\w*|archiv\w*|compress\w*|tar|back(?:s|ed|ing)?\s*up|backup|copy\w*|cop(?:y|ies)|"
                    r"mov(?:e|es|ed|ing)|sync\w*)\b", re.I)
# Words that pick some files: a kind, an extension, or a narrowing ("only", "except").
_SOME = re.compile(r"\.\w{1,5}\b|\b(?:pictures?|images?|photos?|pdfs?|documents?|docs|spreadsheets?|text|logs?|"
                   r"scripts?|videos?|music|songs?|audio|csvs?|jpe?gs?|pngs?|only|just|except|excluding|without|but not|"
                   r"newer|older|bigger|larger|smaller|recent|modified|changed|files\s+(?:named|called|starting|ending|"
                   r"with|that|from|over|under))\b", re.I)
_PATTERN = re.compile(r"^(?P<head>.*?)\*(?P<ext>\.\w{1,5})$")


def _folder(request: str, cwd: Path) -> Path | None:
    from oi_local.core.hints import mentioned_paths

    named = [p for p in mentioned_paths(request, cwd) if p.is_dir() and p.resolve() != cwd.resolve()]
    files = [p for p in mentioned_paths(request, cwd) if p.is_file()]
    return named[0] if len(named) == 1 and not files else None


def _filters(code: str) -> tuple[list[tuple[str, str]], set[str]]:
    """(source, replacement) for each extension filter of the code, and the extensions it keeps."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return [], set()
    edits, kept = [], set()
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and len(n.args) == 1 and not n.keywords):
            continue
        arg, name = n.args[0], n.func.attr
        consts = arg.elts if isinstance(arg, ast.Tuple) else [arg]
        texts = [c.value for c in consts if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        if len(texts) != len(consts) or not texts:
            continue
        segment = ast.get_source_segment(code, n)
        if name == "endswith" and all(re.fullmatch(r"\.\w{1,5}", t) for t in texts) and segment:
            edits.append((segment, "True"))
            kept |= {t.lower() for t in texts}
        elif name in ("glob", "rglob", "iglob") and len(texts) == 1 and segment:
            m = _PATTERN.match(texts[0])
            arg_text = ast.get_source_segment(code, arg)
            if m and arg_text:
                edits.append((segment, segment.replace(arg_text, repr(m.group("head") + "*"), 1)))
                kept.add(m.group("ext").lower())
    return edits, kept


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or ("endswith(" not in block.code and "glob(" not in block.code):
        return None
    request = instruction(turn.request)
    if not _WHOLE.search(request):
        return None
    folder = _folder(request, Path.cwd())
    if folder is None:
        return None
    rest = re.sub(r"[\w/-]+\.(?:zip|tar|gz|tgz|7z)\b", " ", request)  # the archive's own name
    rest = re.sub(rf"(?<![\w-]){re.escape(folder.name)}(?![\w-])", " ", rest)
    if _SOME.search(rest):
        return None
    edits, kept = _filters(block.code)
    try:
        left = sorted(p.name for p in folder.rglob("*") if p.is_file() and p.suffix.lower() not in kept)
    except OSError:
        return None
    if not edits or not left or folder.name not in block.code:
        return None
    code = block.code
    for old, new in edits:
        code = code.replace(old, new, 1)
    block.message["content"] = code
    only = " and ".join(sorted(kept)) + " files only"
    shown = ", ".join(left[:3]) + (" and more" if len(left) > 3 else "")
    return Verdict(warning=NOTE.format(folder=os.path.relpath(folder, Path.cwd().resolve()), only=only, left=shown))


rule = Rule(
    name="whole folder", setting="repair_slips", check=check,
    summary="asked to pack, copy, move or back up one named folder, naming no kind of file, code that takes only some "
            "extensions (`endswith(\".txt\")`, `glob(\"*.txt\")`) of a folder that holds others too takes every file; "
            "the person is told")
