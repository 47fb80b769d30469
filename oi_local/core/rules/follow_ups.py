"""Follow-ups: a short request that leans on the one before it ("and what would it be if we left out
the lowest score?" after "what's the class average in marks.csv?") reads, to the 0.5B model, as a
request of its own: it printed the lowest score, 31, and answered with it (ho37); asked to put "the
names of everyone who lives there" into a file after "Leeds" was the answer, it wrote the cities (ho36).
Such a request, one that names no file and starts with "and", "what about", "what if" or "now", or
says "it", "that", "those" or "there", goes to the model with the request before it and its answer
quoted. Never stored: the history keeps the person's words."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

HINT = '(This follows my previous request, "{earlier}"{answered}.)'
MAX_ANSWER = 200
MAX_FOLLOW_UP = 160  # characters: a longer request says what it wants itself
MAX_EARLIER = 200
_LEANS = re.compile(r"^\s*(?:and|also|now|then|so|ok(?:ay)?,?\s+(?:and|now)|what\s+about|how\s+about|what\s+if|same\s+for)\b"
                    r"|\b(?:it|that|those|them|these|they|there)\b", re.I)


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    from pathlib import Path

    from oi_local.core.hints import mentioned_paths

    earlier = " ".join(earlier.split())
    if not earlier or len(request) > MAX_FOLLOW_UP or len(earlier) > MAX_EARLIER or not _LEANS.search(request):
        return None
    try:
        if mentioned_paths(request, Path.cwd()):
            return None
    except OSError:
        return None
    answer = " ".join(_answer(engine).split())
    answered = f', answered "{answer}"' if answer and len(answer) <= MAX_ANSWER else ""
    return Addition(hint=HINT.format(earlier=earlier, answered=answered))


def _answer(engine: Any) -> str:
    """The last answer in words before the newest request ("Leeds is the city that comes up most often")."""
    messages = list(getattr(engine, "messages", None) or [])
    last = max((i for i, m in enumerate(messages) if m["role"] == "user" and m["type"] == "message"), default=0)
    said = [m for m in messages[:last] if m["role"] == "assistant" and m["type"] == "message"]
    return str(said[-1]["content"]) if said else ""


rule = Rule(
    name="follow-ups", setting="file_hints", prompt=prompt,
    summary="a short request that names no file and leans on the one before it (\"and what would it be without the "
            "lowest score?\", \"what about March?\") goes to the model with the request before it quoted; never stored")
