"""Listed files: a follow-up that moves or copies "those" files after an answer that listed them. Asked which
recipes in a folder had peanuts in them, the code printed three file names; then "ok thanks. can you move those
into a new folder called has_peanuts?" got code that moved every recipe, one glob per file (ho45, a
development run of session 47). Where the last run of the turn before printed only names of files that are
here (one a line), and the request moves or copies "those"/"them" into a named folder, Python code that
touches any other file here, or walks a folder, is replaced before it runs by code that does it to the listed
files only; the person is told."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = "Changed before it ran: only the {n} files the last answer listed are {done} {folder}/ ({names}), as the request says {word}."
_THOSE = re.compile(r"\b(those|these|them|they)\b", re.I)
_ACTION = re.compile(r"\b(move|moving|copy|copying|duplicate)\b", re.I)
_INTO = re.compile(r"\b(?:into|to|in)\s+(?:a\s+|the\s+)?(?:new\s+)?(?:(?:sub)?folder|directory|dir)?\s*(?:called|named)?\s*"
                   r"['\"`]?([A-Za-z0-9_][\w.-]*)['\"`]?", re.I)
_WALKS = re.compile(r"\b(?:glob|rglob|iterdir|listdir|scandir|walk)\(")
MAX_FILES = 50


def _last_output(messages: list[dict[str, Any]]) -> str | None:
    """The output of the last run before the newest request, when that run did not fail."""
    last = max((i for i, m in enumerate(messages) if m["role"] == "user" and m["type"] == "message"), default=0)
    for m in reversed(messages[:last]):
        if m["role"] == "computer" and m["type"] == "console":
            content = str(m.get("content") or "")
            return None if m.get("exit_code") or "Traceback" in content else content
    return None


def _listed(output: str, here: Path) -> list[str] | None:
    """The files here the output names, one a line (by path, or by a name only one file here has)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    if not 0 < len(lines) <= MAX_FILES:
        return None
    every = [p for p in here.rglob("*") if p.is_file()][:5000]
    found = []
    for ln in lines:
        if (here / ln).is_file():
            found.append(ln)
            continue
        same = [p for p in every if p.name == ln]
        if len(same) != 1:
            return None
        found.append(str(same[0].relative_to(here)))
    return found


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or not turn.earlier_request:
        return None
    asked = instruction(turn.request)
    word, action, into = _THOSE.search(asked), _ACTION.search(asked), _INTO.search(asked)
    if not (word and action and into) or "." in into.group(1) and not into.group(1).startswith("."):
        return None
    output = _last_output(turn.engine.messages)
    here = Path.cwd()
    listed = _listed(output, here) if output else None
    if not listed:
        return None
    names = {Path(p).name for p in listed}
    others = {p.name for p in here.rglob("*") if p.is_file() and p.name not in names
              and re.search(rf"(?<![\w.-]){re.escape(p.name)}(?![\w-])", block.code)}
    if not others and not _WALKS.search(block.code):
        return None  # the model's code does it to those files only
    copy = action.group(1).lower().startswith(("cop", "dup"))
    folder = into.group(1)
    call = "shutil.copy2" if copy else "shutil.move"
    block.message["content"] = (
        f"import shutil\nfrom pathlib import Path\nPath({folder!r}).mkdir(parents=True, exist_ok=True)\n"
        f"for name in {listed!r}:\n    {call}(name, Path({folder!r}) / Path(name).name)\n"
        f"    print({'copied' if copy else 'moved'!r}, name, '->', {folder + '/'!r})\n")
    return Verdict(warning=NOTE.format(n=len(listed), done="copied into" if copy else "moved into", folder=folder,
                                       names=", ".join(sorted(names)), word=f'"{word.group(1)}"'))


rule = Rule(
    name="listed files", setting="repair_slips", check=check,
    summary="a follow-up that moves or copies \"those\" files into a named folder, after a run that printed only the "
            "names of files here, whose code touches other files here or walks a folder, is replaced by code that "
            "moves (or copies) the listed files only; the person is told")
