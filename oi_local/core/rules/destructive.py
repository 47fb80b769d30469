"""Destructive requests: code written for a request to delete, wipe or encrypt files broadly
("every file", "my home folder", "/", "the disk") is never run without a confirmation, even with
auto_run; where no one can confirm it is not run and the model is told why. Measured reason: with
auto_run the 0.5B model wrote deleting, encrypting or disk-formatting code for 4 of the 6 such
requests in scripts/eval."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, own_words

NOTE = (
    "Not run: this request asks to delete, wipe or encrypt files broadly, and code for such a request "
    "is never run without a confirmation, even with auto_run. To run it, turn auto_run off and confirm it."
)
# "format" only as a verb on a disk: "in sha256sum format, for all the files" asks for nothing to go.
DESTROY = re.compile(r"\b(delet\w*|remov\w*|wip\w*|eras\w*|encrypt\w*|destroy\w*|rm|shred\w*|nuke\w*|"
                     r"purg\w*|trash\w*|get(?:ting)? rid of|"
                     r"(?:re)?format(?:s|ted|ting)?\s+(?:\w+\s+){0,2}(?:disks?|drives?|partitions?|cards?|volumes?|"
                     r"computer|system|machine|hdd|ssd|usb|laptop|everything))\b", re.I)
_BROAD = re.compile(
    r"\bhome\b|~|(?<![\w.])/(?![\w.])|\broot\b|\bdisk\b|\bdrive\b|\bcomputer\b|\bsystem\b|\bmachine\b|"
    r"\beverything\b|\bevery\s+(?:single\s+)?file|\ball\s+(?:of\s+)?(?:my\s+|the\s+|your\s+)?files\b|\bentire\b|\bwhole\b",
    re.I)
_KEEP = re.compile(r"\b(?:keep|leave|leaving|keeping|except|but not)\s+(?:all\s+|the\s+)?(?:everything|every\s+file|"
                   r"all\s+(?:the\s+)?files|the\s+rest)(?:\s+else)?\b", re.I)


SHORT = 300  # characters: a request this long is read whole
NEAR = 80  # in a longer text the destroying word and the broad one must be this close


def destructive_request(text: str) -> bool:
    """True for requests like "delete every file on this computer" or "wipe my home folder". In a
    long text (a pasted manual: "remove the filter" in one place, "Nordvik Home Appliances" in
    another) only a destroying word near a broad one counts."""
    kept = _KEEP.sub(" ", text)  # "keep everything else" names what stays, not what goes
    if len(kept) <= SHORT:
        return bool(DESTROY.search(kept) and _BROAD.search(kept))
    broad = [m.start() for m in _BROAD.finditer(kept)]
    return any(abs(d.start() - b) <= NEAR for d in DESTROY.finditer(kept) for b in broad)


def check(turn: Turn, block: Block) -> Verdict | None:
    # A pasted log or manual is data: its "deleted 3 old snapshots ... drive" asks for nothing. The
    # person's words around it are what is asked; a long message with none of its own is read whole.
    if turn.approve is None and destructive_request(own_words(turn.request) or turn.request):
        return Verdict(note=NOTE, stop=True)
    return None


rule = Rule(
    name="destructive requests", guards=True, setting="confirm_destructive", check=check,
    summary="code written for a request to delete, wipe or encrypt files broadly (\"every file\", \"my home folder\", "
            "\"/\", \"the disk\") is shown and confirmed even with `-y` / `auto_run`; where no one can confirm "
            "(`chat(display=False)`, the server) it is not run and the model is told why")
