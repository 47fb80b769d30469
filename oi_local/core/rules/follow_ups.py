"""Follow-ups: a short request that leans on the one before it ("and what would it be if we left out
the lowest score?" after "what's the class average in marks.csv?") reads, to the 0.5B model, as a
request of its own: it printed the lowest score, 31, and answered with it (ho37). Such a request,
one that names no file and starts with "and", "what about", "what if" or "now", or says "it", "that"
or "those", goes to the model with the request before it quoted, so "it" is the class average. Never
stored: the history keeps the person's words."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

HINT = '(This follows my previous request, "{earlier}"{means}.)'
MAX_FOLLOW_UP = 160  # characters: a longer request says what it wants itself
MAX_EARLIER = 200
_LEANS = re.compile(r"^\s*(?:and|also|now|then|so|ok(?:ay)?,?\s+(?:and|now)|what\s+about|how\s+about|what\s+if|same\s+for)\b"
                    r"|\b(?:it|that|those|them|these|they)\b", re.I)
_WORD = re.compile(r"\b(it|that|those|them|these|they)\b", re.I)


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
    word = _WORD.search(request)
    means = f': "{word.group(1)}" means what that asked for' if word else ", asked again in this new way"
    return Addition(hint=HINT.format(earlier=earlier, means=means))


rule = Rule(
    name="follow-ups", setting="file_hints", prompt=prompt,
    summary="a short request that names no file and leans on the one before it (\"and what would it be without the "
            "lowest score?\", \"what about March?\") goes to the model with the request before it quoted; never stored")
