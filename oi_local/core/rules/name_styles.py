"""Name styles: asked to rename the files of a folder "to lowercase, with dashes instead of spaces", the
0.5B model wrote code that does one of the two, or neither (ho44). A rename request that describes the new
names by their style (lower case; spaces as dashes, underscores or nothing) has a rule that needs no
example: the new name of each file is its name with that style. Code that does not apply every asked part
(no `.lower()` for lower case, no replacement of spaces for the separator) is not run, and the model is
given the code that renames every file of the folder (or the files the request names) that way."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: rename {what} to {style}, and print each new name."
SHOWN = "Not run: the code does not make the names {style}, as the request asks; asked afresh with code that does."
_RENAME = re.compile(r"\b(?:renam\w*|re-?name\w*)\b", re.I)
_LOWER = re.compile(r"\blower[- ]?case\b|\ball\s+lower\b|\bsmall\s+letters\b|\bno\s+(?:capital|upper[- ]?case)", re.I)
_SEPS = {"dash": "-", "hyphen": "-", "underscore": "_"}
# "dashes instead of spaces", "spaces with underscores", "spaces to hyphens", "replace the spaces by dashes"
_SPACES = re.compile(r"\b(dash|hyphen|underscore)e?s?\b[^.?!\n]{0,25}\b(?:instead\s+of|for|in\s+place\s+of|not)\s+"
                     r"(?:the\s+|any\s+)?spaces?\b|"
                     r"\bspaces?\b[^.?!\n]{0,25}\b(?:with|to|into|as|by|->|→|become|turned\s+into)\s+(?:an?\s+|single\s+)?"
                     r"(dash|hyphen|underscore)e?s?\b", re.I)
_NO_SPACES = re.compile(r"\b(?:no|without|remove\s+(?:the\s+|all\s+)?)\s*spaces\b", re.I)
MAX_FILES = 500


def style(request: str) -> tuple[bool, str | None] | None:
    """(lower case asked, the separator for spaces or None), when a rename request asks for a style."""
    words = instruction(request)
    if not _RENAME.search(words):
        return None
    lower = bool(_LOWER.search(words))
    m = _SPACES.search(words)
    sep = _SEPS[(m.group(1) or m.group(2)).lower()] if m else ("" if _NO_SPACES.search(words) else None)
    return (lower, sep) if lower or sep is not None else None


def new_name(name: str, lower: bool, sep: str | None) -> str:
    if sep is not None:
        stem, dot, ext = name.rpartition(".") if "." in name.strip(".") else (name, "", "")
        stem = re.sub(r"\s+", sep, stem.strip())
        if sep:
            stem = re.sub(rf"(?:{re.escape(sep)}|[-_])*{re.escape(sep)}(?:{re.escape(sep)}|[-_])*", sep, stem)
        name = f"{stem}{dot}{ext}" if dot else stem
    return name.lower() if lower else name


def _targets(words: str, cwd: Path) -> tuple[str, list[Path], bool, list[str]] | None:
    """(the folder, the files to rename, whether the request named them, the extensions it names) the request
    means: the files it names, or the files of the folder it names (of the extensions it names), or of this folder."""
    from oi_local.core.hints import mentioned_paths

    named = mentioned_paths(words, cwd)
    files = [p for p in named if p.is_file()]
    folders = [p for p in named if p.is_dir()]
    if files:
        parents = {p.parent for p in files}
        return (os.path.relpath(parents.pop(), cwd), files, True, []) if len(parents) == 1 else None
    if not folders:  # "everything in recordings": a word that is a folder here
        folders = list(dict.fromkeys(cwd / w for w in re.findall(r"[\w.-]+", words)
                                     if not w.startswith(".") and (cwd / w).is_dir()))
    if len(folders) > 1:
        return None
    folder = folders[0] if folders else cwd
    try:
        found = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))[:MAX_FILES]
    except OSError:
        return None
    exts = {p.suffix.lower().lstrip(".") for p in found if p.suffix}
    # not the extension of a file named as an example ("so "Holiday Plans.txt" would become ...", in a folder
    # of .txt and .md notes: only the .txt ones were renamed, ho47)
    kinds = re.sub(r"\w[^\s\"']*\.\w+", " ", words)
    asked = sorted(e for e in exts if re.search(rf"(?<![\w]){re.escape(e)}s?\b", kinds, re.I))
    if asked:
        found = [p for p in found if p.suffix.lower().lstrip(".") in asked]
    return os.path.relpath(folder, cwd), found, False, asked


def ready_code(folder: str, names: list[str] | None, lower: bool, sep: str | None, exts: list[str] | None = None) -> str:
    pick = f"[Path({folder!r}) / n for n in {names!r}]" if names is not None else f"sorted(Path({folder!r}).iterdir())"
    lines = ["import re", "from pathlib import Path", f"for p in {pick}:",
             "    if not p.is_file() or p.name.startswith('.'):", "        continue"]
    if exts:
        lines += [f"    if p.suffix.lower() not in {tuple('.' + e for e in exts)!r}:", "        continue"]
    lines += ["    name = p.name"]
    if sep is not None:
        lines += ["    stem, ext = (p.stem, p.suffix) if p.suffix else (name, '')",
                  f"    stem = re.sub(r'\\s+', {sep!r}, stem.strip())"]
        if sep:
            lines += [f"    stem = re.sub(r'[-_]*{re.escape(sep)}[-_]*', {sep!r}, stem)"]
        lines += ["    name = stem + ext"]
    if lower:
        lines += ["    name = name.lower()"]
    lines += ["    if name == p.name:", "        continue", "    new = p.with_name(name)",
              "    if new.exists():", "        print('left as it is (the new name is taken):', p.name)", "        continue",
              "    p.rename(new)", "    print(p.name, '->', new.name)"]
    return "\n".join(lines)


def _does(code: str, lower: bool, sep: str | None) -> bool:
    """The code applies every asked part of the style (a look at its text, not a proof)."""
    if lower and "lower" not in code:
        return False
    if sep is not None:
        space = r"(?:' '|\" \"|r?['\"]\\s\+?['\"]|r?['\"] \+['\"])"
        if not (re.search(rf"replace\(\s*{space}\s*,\s*['\"]{re.escape(sep)}['\"]", code)
                or re.search(rf"sub\(\s*{space}\s*,\s*['\"]{re.escape(sep)}['\"]", code)
                or re.search(rf"['\"]{re.escape(sep)}['\"]\.join\([^)]*\.split\(\s*\)", code)
                or (sep and f"tr ' ' '{sep}'" in code)):
            return False
    return "rename" in code or "mv " in code or "move(" in code


def describe(lower: bool, sep: str | None) -> str:
    parts = ["lower case"] if lower else []
    if sep is not None:
        parts.append({"-": "dashes", "_": "underscores", "": "nothing"}[sep] + " in place of spaces")
    return " with ".join(parts) if len(parts) == 2 else parts[0]


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["name styles"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    asked = style(turn.request)
    if asked is None:
        return None
    lower, sep = asked
    cwd = Path.cwd()
    found = _targets(instruction(turn.request), cwd)
    if found is None:
        return None
    folder, files, by_name, exts = found
    if not any(new_name(p.name, lower, sep) != p.name for p in files) or _does(block.code, lower, sep):
        return None
    turn.counts["name styles"] += 1
    named = [p.name for p in files] if by_name else None
    what = ", ".join(named) if named else f"the files in {folder}/" if folder != "." else "the files in this folder"
    wanted = describe(lower, sep)
    ask = own_code(turn.engine, NOTE.format(what=what, style=wanted), ready_code(folder, named, lower, sep, exts))
    return Verdict(note=SHOWN.format(style=wanted), ask=ask)


rule = Rule(
    name="name styles", setting="repair_slips", check=check,
    summary="asked to rename files to a style (\"lowercase, with dashes instead of spaces\"), code that does not apply "
            "each asked part (no `.lower()`, no replacement of spaces) is not run: the model is given the code that "
            "renames every file of the folder (of the extensions named, or the files named) that way")
