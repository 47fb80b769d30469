"""Items a request asks to take off a list ("Ben and Grace can't make it. Take them off the list please.") that a
text file here still holds as a line of its own. Asked so, the 0.5B model read guests.txt, removed "Grace" from a
list it typed in, printed the file as it was and answered "Ana" (ho56, session 57): nothing held the request to the
file, as the items to add are (core/rules/outputs.py)."""
from __future__ import annotations

import os
import re

# "take them off", "remove Ben", "delete Grace and Ana from", "cross Ben off", "get rid of"
REMOVE = re.compile(r"\b(?:remove|delete|drop|scratch|(?:take|cross|strike|knock)\s+(?:\S+\s+){0,4}?off|get\s+rid\s+of)\b",
                    re.I)
_NAME = re.compile(r"(?<![\w'])[A-Z][a-z]+(?:[-'][A-Za-z]+)?(?![\w'])")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n)\s*([A-Z][a-z]+)")
_NOT_NAMES = {"I", "Please", "Thanks", "Thank", "Can", "Could", "Would", "Will", "Take", "Remove", "Delete", "Drop",
              "Cross", "Get", "And", "Also", "Then", "The", "They", "He", "She", "We", "It", "Hi", "Hello", "Ok", "Okay"}
SUFFIXES = {".txt", ".csv", ".md", ".list", ".tsv"}
MAX_BYTES = 200_000  # a larger file is no list to look in
MAX_FILES = 50  # files of the working folder looked at


_ASKS_WHETHER = re.compile(r"\b(?:should|shall)\s+(?:i|we)\b|\bwhether\b|\bif\s+(?:i|we)\s+(?:should|can|could)\b", re.I)


def named_items(request: str) -> list[str]:
    """The capitalised names of a request that asks to take things off (sentence starts and asking words left out)."""
    if not REMOVE.search(request) or _ASKS_WHETHER.search(request):
        return []
    starts = {m.group(1) for m in _SENTENCE_START.finditer(request)}
    return list(dict.fromkeys(w for w in _NAME.findall(request) if w not in _NOT_NAMES and w not in starts
                              or w in starts and w not in _NOT_NAMES and _named_again(request, w)))


def _named_again(request: str, word: str) -> bool:
    """A word at a sentence's start that is a name: it is written capitalised elsewhere too, or with "and" after it."""
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", request)) > 1 or \
        re.search(rf"(?<!\w){re.escape(word)}\s+(?:and|&|,)\s+[A-Z]", request) is not None


def _lines(path: str) -> set[str]:
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return set()
        with open(path, encoding="utf-8", errors="replace") as f:
            return {ln.strip().lower() for ln in f.read().splitlines() if ln.strip()}
    except OSError:
        return set()


def kept(root: str, request: str) -> list[str]:
    """"guests.txt still has Ben and Grace" when one list file here holds any of the named items as a line of its own
    after the turn, or [] (none does, more than one does, or the request takes nothing off)."""
    items = named_items(request)
    if not items:
        return []
    holding = []
    names = sorted(n for n in os.listdir(root) if os.path.splitext(n)[1].lower() in SUFFIXES)[:MAX_FILES]
    for name in names:
        lines = _lines(os.path.join(root, name))
        left = [i for i in items if i.lower() in lines]
        if left:
            holding.append((name, left))
    if len(holding) != 1:
        return []  # another list holding the same names (a copy, last year's) may be the one asked about
    name, left = holding[0]
    return [f"{name} still has {' and '.join(left)} (I asked for {'them' if len(left) > 1 else 'it'} to be taken off)"]
