"""Sources kept: a request that makes a new file from files it names (join these parts into
full_story.txt, turn members.json into members.csv) leaves those files as they are. Asked to join
story/part1.txt ... part11.txt into story/full_story.txt, the 0.5B model's third try opened
story/part1.txt for writing and replaced the first part of the story with four characters. Code
that writes over a file the request names, while the file the request asks for is not there yet
and the request asks for no change to the named ones, is not auto-run: shown and confirmed, or,
where no one confirms, not run and the request asked afresh once (like writes for a question)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, instruction

NOTE = ("Not run: this code writes over {paths}, which the request gives as what to read; it asks for {outputs}. "
        "Write code that reads {paths} and writes {outputs}.")
WARNING = "this code writes over {paths}, which the request gives as what to read (it asks for {outputs})."
# A request that asks to change a named file itself: its own words decide, not this rule.
_IN_PLACE = re.compile(
    r"\b(?:fix\w*|repair\w*|edit\w*|updat\w*|modif\w*|chang\w*|replac\w*|rewrit\w*|overwrit\w*|sort\w*|clean\w*|"
    r"correct\w*|append\w*|add\w*|insert\w*|remov\w*|delet\w*|mark\w*|tick\w*|renam\w*|strip\w*|dedup\w*|"
    r"in\s+place)\b", re.I)
_PATH = re.compile(r"(?<![\w/.~-])((?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/-])")


def asked_new(request: str, folder: Path) -> list[str]:
    """The files the request names that are not there yet (what it asks to make); "part11.txt" said
    after "story/part1.txt" is story/part11.txt, which is there."""
    named = list(dict.fromkeys(_PATH.findall(request)))
    folders = {(folder / p).parent for p in named if (folder / p).exists()}
    return [p for p in named if not (folder / p).exists() and not any((f / Path(p).name).exists() for f in folders)]


def overwritten_sources(request: str, lang: str, code: str, folder: Path) -> tuple[list[str], list[str]]:
    """(named files the code writes over, the new files the request asks for); ([], []) when the
    request asks for no new file or for a change to the named ones."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.writes import changed_existing

    words = instruction(request)
    new = asked_new(words, folder)
    if not new or _IN_PLACE.search(words):
        return [], []
    named = {p.resolve() for p in mentioned_paths(words, folder) if p.is_file()}
    if not named:
        return [], []
    try:
        changed = changed_existing(lang, code, folder)
    except (SyntaxError, ValueError):
        return [], []
    hit = [p for p in changed if (folder / p).resolve() in named]
    return hit, new


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.question_writes import refuse

    if block.lang not in ("python", *SHELLS):
        return None
    folder = Path.cwd()
    hit, new = overwritten_sources(turn.request, block.lang, block.code, folder)
    if not hit:
        return None
    paths = ", ".join(os.path.normpath(p) for p in hit[:5])
    outputs = ", ".join(new[:3])
    return refuse(turn, NOTE.format(paths=paths, outputs=outputs), WARNING.format(paths=paths, outputs=outputs))


rule = Rule(
    name="sources kept", guards=True, setting="confirm_destructive", check=check,
    summary="code that writes over a file the request names as what to read, while the file the request asks for "
            "(\"join them into story/full_story.txt\", \"turn members.json into members.csv\") is not there yet and "
            "the request asks for no change to the named ones, is not auto-run: shown and confirmed, or, where no "
            "one can confirm, not run and the request asked afresh once")
