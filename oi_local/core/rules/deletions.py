"""Overreaching deletions: code for a deleting request that deletes files the request did not name
("remove the .tmp files" -> `rm build/a.tmp build/app.bin`), or every file of a folder when the
request asked for some, and code that deletes files at all for a request that asks nothing to go
(asked which photos were not backed up yet, the 0.5B model removed every .HEIC file of the backup
folder), is not auto-run (core/deletions.py reads the code, never runs it). The model is not told
the names of the files it must keep: shown them, the 0.5B model wrote code deleting exactly those."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.destructive import DESTROY
from oi_local.core.rules.question_writes import refuse
from oi_local.core.rules.turn import CAREFUL_WORDS, Block, Turn, instruction

UNASKED_NOTE = "Not run: this code deletes more files than were asked for. Write code that deletes only {asked}."
UNASKED_WARNING = "this code would also delete {paths}, which the request did not name."
WIPE_NOTE = ("Not run: this code deletes every file in {folders}, but the request asks to delete only some. "
             "Write code that checks each file and deletes only the ones asked for.")
WIPE_WARNING = "this code deletes every file in {folders}, but the request asks to delete only some."
BY_NAME_NOTE = ("Not run: this code deletes files picked by name, but the request asks for files of a kind and to "
                "keep the others. Write code that checks each file and deletes only the ones asked for.")
BY_NAME_WARNING = "this code deletes {paths} by name, but the request asks for files of a kind and to keep the others."
NOTHING_ASKED_NOTE = ("Not run: this code deletes files, but the request does not ask to delete anything. Write code "
                      "that leaves the files as they are.")
NOTHING_ASKED_WARNING = "this code deletes files, but the request does not ask to delete anything."
# Words of requests that may rightly end in deleting files, besides the destroying ones.
_MAY_REMOVE = re.compile(r"\b(tid(?:y|ies|ied|ying)|junk|duplicat\w*|dedup\w*|prun\w*|empt(?:y|ies|ied|ying)|mov(?:e|es|ed|ing)|"
                         r"replac\w*|archiv\w*|rotat\w*|cleanup|declutter\w*|sync\w*|mirror\w*|rid|temp(?:s|orary)?|cache\w*)\b", re.I)
# A request that does mean every file in a folder (and does not also say what to keep).
_WIPE_MEANT = re.compile(
    r"\beverything\b|\ball\s+(?:of\s+)?(?:the\s+|my\s+)?(?:files|contents)\b|\bevery\s+file\b|\bentire\b|\bwhole\b|"
    r"\bcontents\b|\bempty\s+(?:out\s+)?(?:the\s+|my\s+)?[\w.-]+\s+(?:folder|directory)\b", re.I)
_KEEPS = re.compile(r"\b(keep\w*|leav\w*|except|only|but not|others?)\b", re.I)


def overreach(request: str, lang: str, code: str) -> tuple[str, str] | None:
    """(note for the model, warning for a person), or None."""
    from oi_local.core.deletions import (
        asked,
        deleted_paths,
        unasked_deletions,
        wiped_folders,
    )

    unasked = unasked_deletions(request, lang, code)[:5]
    if unasked:
        return UNASKED_NOTE.format(asked=asked(request)), UNASKED_WARNING.format(paths=", ".join(unasked))
    if not asked(request) and _KEEPS.search(request):
        # "the empty files ..., leave the others alone": files of a kind, found by checking each; a
        # list of names is the model guessing (the 0.5B model, told not to wipe a folder, listed
        # every file in it by name)
        named = deleted_paths(lang, code)[:5]
        if named:
            return BY_NAME_NOTE, BY_NAME_WARNING.format(paths=", ".join(named))
    wiped = wiped_folders(lang, code)[:3]
    if wiped and (_KEEPS.search(request) or not _WIPE_MEANT.search(request)):
        folders = ", ".join(f + "/" if not f.endswith("/") else f for f in wiped)
        return WIPE_NOTE.format(folders=folders), WIPE_WARNING.format(folders=folders)
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.writes import question, removes_any, unnegated

    request = turn.request
    if question(request):  # a question's writes: question_writes.py
        return None
    said = instruction(request)  # not a pasted manual's "remove the filter"
    own = unnegated(said)
    # "tidy out the old junk but don't delete anything yet": nothing may go (the 0.5B model unlinked a file)
    said_not = bool(DESTROY.search(said)) and not DESTROY.search(own)
    if said_not or not (DESTROY.search(own) or CAREFUL_WORDS.search(own) or _MAY_REMOVE.search(own)):
        # nothing asked to go, yet the code deletes (a loop over a listing has no literal paths)
        removes = removes_any(block.lang, block.code, moves=False)
        return refuse(turn, NOTHING_ASKED_NOTE, NOTHING_ASKED_WARNING) if removes else None
    found = overreach(request, block.lang, block.code)
    return refuse(turn, *found) if found else None


rule = Rule(
    name="overreaching deletions", guards=True, setting="confirm_destructive", check=check,
    summary="code for a deleting request that deletes files the request did not name (\"remove the .tmp files\" → "
            "`rm build/a.tmp build/app.bin`), or every file of a folder when the request asked for some, or any file "
            "for a request that asks nothing to go, is not auto-run; the request is asked afresh once (the try hidden), "
            "told to delete only what was asked, "
            "and a person confirming sees a warning with the paths first")
