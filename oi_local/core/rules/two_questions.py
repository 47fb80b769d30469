"""Two questions: "two quick questions about team.csv - how many ppl are in the berlin office? and who's
the oldest on the team?" The 0.5B model printed the Berlin rows and answered the first question only
(ho49, read after that set's end); two_numbers.py asks again only when both questions ask for amounts.
A short request that asks two questions (two sentences that end in "?", or "..., and who ...?") gets
them listed under it, numbered, with the words to print an answer to each."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

MAX_CHARS = 600  # a longer request is a paste with a question (long_request.py)
HINT = "(I asked two things:\n{parts}\nPrint the answer to each, with its label.)"


def asked(request: str) -> list[str] | None:
    """The two questions a short request asks, as written, or None."""
    from oi_local.core.rules.long_request import question_parts

    if len(request) > MAX_CHARS or "```" in request or "\n" in request.strip():
        return None
    parts = [re.sub(r"^(?:and|also|so|then|but)\s+", "", p.strip(" ,;-–"), flags=re.I) for p in question_parts(request)]
    parts = [p for p in parts if len(p.split()) >= 3]  # "why?" or "ok?" asks nothing of the data
    return parts if len(parts) == 2 and parts[0].lower() != parts[1].lower() else None


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    parts = asked(request)
    if parts is None:
        return None
    return Addition(hint=HINT.format(parts="\n".join(f"{i}. {p}" for i, p in enumerate(parts, 1))))


rule = Rule(
    name="two questions", setting="plain_words", prompt=prompt,
    summary="a short request that asks two questions (two that end in \"?\", or \"..., and who ...?\") gets them listed "
            "under it, numbered, with the words to print an answer to each")
