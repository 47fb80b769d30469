"""Quoted words: a question that quotes a word or phrase ('how many times does the word "river" appear
in story.txt?', "which lines mention 'urgent'?") asks about that text, so code that never has it
cannot answer. Asked to count "river", the 0.5B model counted every word of the story (173 for 11)
and said so. Code that reads a file for such a question and has no quoted word anywhere, in any
case, is not run; the request is asked afresh once (sampled, the try hidden), naming the words."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, code_retry

NOTE = "(Write one ```python block that does what I asked. It is about {words}: the code must look for {them}.)"
SHOWN = "Not run: the code never looks for {words}, which the request quotes; asked afresh."
# "river", 'urgent', “late fee”, ‘ERROR’: 2 to 30 characters of words, not a file name or a path
_QUOTED = re.compile(r"""(?:(?<![\w'])'([^'\n]{2,30})'(?![\w'])|"([^"\n]{2,30})"|“([^”\n]{2,30})”|‘([^’\n]{2,30})’)""")
_WORDY = re.compile(r"[A-Za-z][\w '&-]*")
_FILE = re.compile(r"\.\w{1,5}$|/")
_READS = re.compile(r"\bopen\(|read_text\(|read_csv\(|\bcat\b|\bgrep\b|\bwc\b|\bfind\b|\.rglob\(|\.glob\(|os\.walk")


def quoted(request: str) -> list[str]:
    words = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(request)]
    return list(dict.fromkeys(w.strip() for w in words if _WORDY.fullmatch(w.strip()) and not _FILE.search(w.strip())))


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.writes import question

    if block.lang != "python" and block.lang not in SHELLS or turn.counts["quoted words"] >= 1:
        return None
    words = quoted(turn.request)
    if not words or not question(turn.request) or not _READS.search(block.code):
        return None
    low = block.code.lower()
    if any(w.lower() in low for w in words):
        return None
    turn.counts["quoted words"] += 1
    names = ", ".join(f'"{w}"' for w in words[:3])
    return Verdict(note=SHOWN.format(words=names),
                   ask=Ask(NOTE.format(words=names, them="it" if len(words) == 1 else "them"),
                           code_retry(turn.engine, 23), hide=True))


rule = Rule(
    name="quoted words", setting="check_answers", check=check,
    summary="code that reads a file for a question quoting a word or phrase ('how many times does \"river\" appear "
            "in story.txt?') and never has that text is not run; the request is asked afresh once, sampled, naming it")
