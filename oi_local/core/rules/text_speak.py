"""Text speak: the short forms people type in chat ("how many lines r in notes.txt", "can u copy",
"pls") are written out for the model, which took "r" for the letter r and counted the lines that
hold one. Only a short request, only a lone lowercase form between two words (never inside quotes,
a path or code, never "the letter r" or "column u"), and never stored: the history keeps the user's
words."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

MAX_CHARS = 600  # a longer message may be pasted data, whose letters are not words
# Lone forms written out. "y" (why / the y axis) and "n" (and / n items) are too often meant as letters.
_FORMS = {"r": "are", "u": "you", "ur": "your", "pls": "please", "plz": "please", "thx": "thanks",
          "cuz": "because", "coz": "because", "abt": "about", "b4": "before", "wat": "what", "wats": "what's"}
# A word before the form that makes it a name or a letter: "the letter r", "column u", "in r", "how many r files".
_NAMES = frozenset("a an the letter letters column col columns variable var field key named called char character "
                   "language lang in with use using of by x many few or and vs versus between is it".split())
# The words a lone "u" or "r" follows when it stands for "you" or "are" ("can u", "how many lines r"):
# "set u to 5" or "vector r" keep their letters.
_BEFORE_U = frozenset("can could would will do did does have has are r thank thanks if when so and how pls please "
                      "plz did shall should".split())
_BEFORE_R = frozenset("how what where who which why when there they we you u these those".split())
_QUOTED = re.compile(r"(['\"`]).*?\1|\S*[/\\.=_]\S*")  # quoted text, paths, names with dots or "="


_FORM = re.compile(r"(?<![\w'/.-])(" + "|".join(sorted(map(re.escape, _FORMS), key=len, reverse=True)) + r")(?![\w'/.-])")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ ,]+$")
_AFTER = re.compile(r"[ ,]+[A-Za-z]|\s*[?!.,]|\s*$")  # a word, the end of a clause or of the text


def plain(request: str) -> str:
    """`request` with the lone short forms written out (the same text when there are none)."""
    if len(request) > MAX_CHARS or "```" in request:
        return request
    keep = [m.span() for m in _QUOTED.finditer(request)]

    def sub(m: re.Match[str]) -> str:
        before = _WORD_BEFORE.search(request[:m.start()])
        if any(a <= m.start() < b for a, b in keep) or not _AFTER.match(request, m.end()) \
                or before is None and request[:m.start()].strip() \
                or len(m.group(1)) == 1 and before and not _stands_for_a_word(m.group(1), before.group(1).lower()):
            return m.group(0)
        return _FORMS[m.group(1)]

    return _FORM.sub(sub, request)


def _stands_for_a_word(form: str, before: str) -> bool:
    """A lone "u" or "r" after this word is "you" or "are" (after a plural, "r" is: "how many files r")."""
    if before in _NAMES:
        return False
    if form == "u":
        return before in _BEFORE_U
    return before in _BEFORE_R or len(before) > 3 and before.endswith("s") and not before.endswith("ss")


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    text = plain(request)
    return Addition(request=text) if text != request else None


rule = Rule(
    name="text speak", setting="plain_words", prompt=prompt,
    summary="the chat short forms of a short request (\"how many lines r in notes.txt\", \"can u\", \"pls\") are "
            "written out for the model (\"are\", \"you\", \"please\"), never inside quotes, paths or code and never a "
            "letter the request names (\"the letter r\", \"column u\"); the history keeps the user's words")
