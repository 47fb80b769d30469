"""Kept files: a request that says which files must not change ("don't change anything in the club
folder", "leave notes.txt alone") is held to it. Asked to run a treasurer's script and not to change
her folder, the 0.5B model renamed club/membership.csv to .md after the script failed (ho27). Code
that would change, move or delete a kept path is not auto-run, as for a question (writes for a
question): shown and confirmed, or not run and the request asked afresh once."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.question_writes import refuse
from oi_local.core.rules.turn import Block, Turn

_VERBS = r"(?:change|touch|modify|edit|alter|overwrite|rename|move|delete|remove)"
_DONT = re.compile(rf"\b(?:don'?t|do not|dont|never|without)\s+(?:\w+\s+)?(?P<verb>{_VERBS})\w*\s+(?P<what>(?:[^,;.!?\n]|\.(?=\w)){{0,60}})",
                   re.I)
_LEAVE = re.compile(r"\bleave\s+(?P<what>(?:[^,;.!?\n]|\.(?=\w)){1,40}?)\s+(?:alone|as (?:it|they) (?:is|are)|untouched|unchanged)\b", re.I)
_EVERYTHING = re.compile(r"^(?:anything|everything|any(?: of the)? files?|nothing)\b(?!\s+(?:else|in|inside|under|within|of)\b)", re.I)
_ANY_WORD = re.compile(r"^(?:anything|everything|any(?: of the)? files?)\s+(?:in|inside|under|within|of)\b", re.I)
_THE_NAMED = re.compile(r"^(?:it|them|the originals?|the files?|(?:the|my) \w+ files?)\b", re.I)
_PATH = re.compile(r"[\w.~-]+(?:/[\w.~-]+)*/?")
_SOME_OF = re.compile(r"^(?:the\s+|any\s+)?(?:\w+\s+){0,2}?(?:ones?|others?|rest|remaining|newer|newest|recent|latest|new|"
                      r"current|younger|older|oldest|larger|smaller|bigger)\b", re.I)
_NAMED = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/-])")
ALL = "."
NOTE = ("Not run: this code changes {paths}, and the request says not to change {kept}. Write code that "
        "does what was asked without changing, moving or deleting those files.")
WARNING = "this code changes {paths}, and the request says not to change {kept}."


def kept(request: str, cwd: Path) -> dict[str, bool]:
    """{path: writes count too} for the paths the request keeps as they are ("." for all of them);
    False when it only forbids deleting or moving ("don't delete anything yet")."""
    found: dict[str, bool] = {}
    named = [p for p in _NAMED.findall(request) if (cwd / p).exists()]
    for m in [*_DONT.finditer(request), *_LEAVE.finditer(request)]:
        verb = (m.groupdict().get("verb") or "change").lower()
        writes = verb not in ("delete", "remove", "move", "rename")
        what = m.group("what").strip()
        if re.match(r"^(?:\w+\s+)?else\b", what, re.I):  # "don't change anything else": the rest only
            continue
        if _EVERYTHING.match(what):
            paths = [ALL]
        elif _THE_NAMED.match(what):
            paths = named
        elif _SOME_OF.match(what):
            paths = []  # "don't touch the newer ones in logs/": some of the folder, which a path cannot say
        else:
            what = _ANY_WORD.sub("", what)
            paths = [w.rstrip("/") for w in _PATH.findall(what) if (cwd / w).exists() and w not in (".", "..")]
        for p in paths:
            found[os.path.normpath(p)] = found.get(os.path.normpath(p), False) or writes
    return found


def _under(path: str, folder: str) -> bool:
    path = os.path.normpath(path)
    return folder == ALL or path == folder or path.startswith(folder + os.sep)


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.writes import changed_existing, removes_any

    keep = kept(turn.request, Path.cwd())
    if not keep:
        return None
    changed = [p for p in changed_existing(block.lang, block.code, Path.cwd())
               if any(writes and _under(p, k) for k, writes in keep.items())]
    try:
        removes = removes_any(block.lang, block.code)
    except SyntaxError:
        removes = False
    if removes and not changed:  # paths built in a loop: the kept path named in the code is enough
        changed = [k for k in keep if k == ALL or re.search(rf"(?<![\w.-]){re.escape(k)}(?![\w-])", block.code)]
    if not changed:
        return None
    paths = ", ".join(("the files here" if p == ALL else p) for p in changed[:5])
    kept_text = ", ".join(("anything" if k == ALL else k) for k in keep)
    return refuse(turn, NOTE.format(paths=paths, kept=kept_text), WARNING.format(paths=paths, kept=kept_text))


rule = Rule(
    name="kept files", guards=True, setting="confirm_destructive", check=check,
    summary="code that would change, move or delete a path the request says to keep as it is (\"don't change "
            "anything in the club folder\", \"leave notes.txt alone\", \"don't delete anything\") is not auto-run: "
            "shown and confirmed, or, where no one can confirm, not run and the request asked afresh once")
