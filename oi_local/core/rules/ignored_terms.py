"""Ignored terms: asked for "the average rating of the Italian places in restaurants.csv", the 0.5B
model averages every row; asked for the screenshots among the PNG files of a folder, it counts
every PNG; asked for the kilometres driven for work in 2024, it sums another column's trips. A word
of the question that is in the data it names (a value in the file, a name in the folder) but
nowhere in the code that answered is a condition the code skipped: the model is told which, once,
in the conversation, and asked for corrected code. Only for questions: a task's code is not run twice."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import CAREFUL_WORDS, Turn, asks_something, code_prefix

NOTE = ("(The code above does not use {terms} from my question, so its answer may be wrong. Reply with one "
        "corrected ```python block that uses {them} and prints the answer.)")
MAX_REQUEST = 1000  # longer requests carry pasted text: its words are not conditions
MAX_BYTES = 200_000  # of a named file read for its words
MAX_NAMES = 500  # entries of a named folder looked at
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}|(?<!\d)(?:19|20)\d\d(?!\d)")  # words, and years


def _stem(word: str) -> str:
    from oi_local.core.recipes import _stem as stem

    return stem(word.lower().strip("'-"))


def _data_words(request: str, cwd: Path) -> set[str]:
    """The words of the files and folders the request names: their contents, their entries' names."""
    from oi_local.core.hints import mentioned_paths

    texts: list[str] = []
    for p in mentioned_paths(request, cwd):
        if p.is_file() and p.stat().st_size <= MAX_BYTES:
            texts.append(p.read_text(encoding="utf-8", errors="replace"))
        elif p.is_dir():
            names: list[str] = []
            for _, dirs, files in os.walk(p):
                names += dirs + files
                if len(names) > MAX_NAMES:
                    break
            texts.append("\n".join(names[:MAX_NAMES]))
    return {_stem(w) for w in re.findall(r"[A-Za-z]+|\d+", "\n".join(texts))}


def ignored(request: str, code: str, cwd: Path) -> list[str]:
    """The request's words found in its data but not in the code (as the request spells them)."""
    from oi_local.core.recipes import _STOP

    if len(request) > MAX_REQUEST:
        return []
    named = {_stem(w) for p in re.findall(r"[\w./-]+\.\w+", request) for w in re.findall(r"[A-Za-z]+", p)}
    data = _data_words(request, cwd)
    said = code.lower()
    found: dict[str, str] = {}  # stem: the word as the request first spells it
    for word in _WORD.findall(request):
        stem = _stem(word)
        if word.lower() in _STOP or stem in named or stem not in data or stem in said or stem in found:
            continue
        found[stem] = word
    return list(found.values())


def follow_up(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if (last is None or last.failed or last.interrupted or turn.counts["ignored terms"] or not turn.steps_left
            or not asks_something(turn.request) or CAREFUL_WORDS.search(turn.request)):
        return None
    terms = ignored(turn.request, last.code, Path(os.getcwd()))
    if not terms:
        return None
    turn.counts["ignored terms"] += 1
    quoted = " or ".join(f'"{t}"' for t in terms[:3])
    return Ask(NOTE.format(terms=quoted, them="them" if len(terms) > 1 else "it"), code_prefix(turn.engine))


rule = Rule(
    name="ignored terms", setting="check_terms", follow_up=follow_up,
    summary="a question whose code ran without using a word of it that is in the data it names (a value in the "
            "file, a name in the folder: \"Italian\", \"2024\") is asked once, in the conversation, for corrected "
            "code that uses it; never for tasks, whose code is not run twice")
