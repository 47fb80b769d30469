"""Files' text: a request about what files say ("which emails in the inbox talk about an invoice?",
"how many TODO comments are left in the python files?") is answered from their text. The 0.5B model's
code often lists the files and looks at their names only (`re.search("invoice", f.name)`,
`rglob("TODO.md")`) and answers from that: [] and 0. In the development runs all 3 requests whose
code did so failed; asked which file in a folder has the most lines, it took the longest name (whole suite,
session 44). Code that lists files and reads none of them is not run; the request is asked
afresh once (sampled, the try hidden), told to open each file and look in its text."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, code_retry, instruction

NOTE = ("(Write one ```python block that does what I asked. It is about what the files say: open each file, "
        "read its text and look in that. The first try only looked at the file names.)")
SHOWN = "Not run: the request is about what the files say, and the code only looks at their names; asked afresh."
# what is in a file: "mention", "talk about", "contain", "say", "TODO comments", "lines with ..."
# ("which folders contain photos" is about names: "contain" counts only after a kind of text file)
_TEXT_ASKED = re.compile(r"\b(?:mention\w*|talk\w*\s+about|says?|saying|refer\w*\s+to|comments?|"
                         r"lines?\s+(?:with|containing|that\s+(?:have|say|mention))|"
                         # how long files are in lines or words ("which file has the most lines?"): counted in their text
                         r"(?:most|fewest|more|fewer|how\s+many|number\s+of|count\s+(?:the\s+)?)\s+(?:lines|words)|"
                         r"(?:files?|emails?|notes|documents?|scripts?|letters?|messages|logs?)\s+(?:that\s+|which\s+)?contain\w*)\b",
                         re.I)
_FILES = re.compile(r"\b(?:files?|emails?|notes|documents?|scripts?|letters?|messages|folder|project|logs?)\b|"
                    r"\.(?:py|txt|md|log|csv)\b", re.I)
_LISTS = re.compile(r"\b(?:glob|rglob|iterdir|listdir|walk|scandir)\b|^\s*(?:ls|find)\b", re.M)
_READS = re.compile(r"open\(|read_text|read_bytes|readlines|\.read\(|subprocess|\b(?:grep|cat|awk|sed|xargs|head|tail|wc)\b")
_NAMES_GREPPED = re.compile(r"(\b(?:ls|find)\b[^\n|]*)\|\s*grep\b[^\n|]*")
SHORT = 600  # characters: a longer request pastes text; its words are not about files here


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["file text"] >= 1 or (block.lang != "python" and block.lang not in SHELLS):
        return None
    asked = instruction(turn.request)
    if len(asked) > SHORT or not (_TEXT_ASKED.search(asked) and _FILES.search(asked)):
        return None
    names_only = _NAMES_GREPPED.sub(r"\1", block.code)  # `ls notes | grep dentist` searches names
    if not _LISTS.search(block.code) or _READS.search(names_only):
        return None
    turn.counts["file text"] += 1
    return Verdict(note=SHOWN, ask=Ask(NOTE, code_retry(turn.engine, 19), hide=True))


rule = Rule(
    name="file text", setting="check_answers", check=check,
    summary="code for a request about what files say (\"which emails talk about an invoice?\", \"how many TODO "
            "comments are in the python files?\") that lists the files and reads none of them (it matched their "
            "names) is not run; the request is asked afresh once, sampled, told to look in each file's text")
