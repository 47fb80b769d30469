"""Two questions: "two quick questions about team.csv - how many ppl are in the berlin office? and who's
the oldest on the team?" The 0.5B model printed the Berlin rows and answered the first question only
(ho49, read after that set's end); two_numbers.py asks again only when both questions ask for amounts.
A short request that asks two questions (two sentences that end in "?", or "..., and who ...?") gets
them listed under it, numbered, with the words to print an answer to each; not when the second is short or
points back at the first ("and how many times?", "what's the total for that city?")."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

MAX_CHARS = 600  # a longer request is a paste with a question (long_request.py)
MIN_WORDS = 5  # a shorter second question is about the first one's answer ("and how much?")
_BACK = re.compile(r"\b(?:it|its|that|those|these|this|they|them|their|then|times|one|ones|he|she|his|her)\b", re.I)
HINT = "(I asked two things:\n{parts}\nPrint the answer to each, with its label.)"


def asked(request: str) -> list[str] | None:
    """The two questions a short request asks, as written, or None."""
    from oi_local.core.rules.long_request import question_parts

    if len(request) > MAX_CHARS or "```" in request or "\n" in request.strip():
        return None
    parts = [re.sub(r"^(?:and|also|so|then|but)\s+", "", p.strip(" ,;-–"), flags=re.I) for p in question_parts(request)]
    parts = [p for p in parts if len(p.split()) >= 3]  # "why?" or "ok?" asks nothing of the data
    if len(parts) != 2 or parts[0].lower() == parts[1].lower() or len(parts[1].split()) < MIN_WORDS \
            or _BACK.search(parts[1]):
        # "which author gets borrowed the most, and how many times?": one question about the one found (listed as
        # two, the 0.5B model lost the count per author it had written without the list, ho45 in a development run)
        return None
    return parts


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    parts = asked(request)
    if parts is None:
        return None
    return Addition(hint=HINT.format(parts="\n".join(f"{i}. {p}" for i, p in enumerate(parts, 1))))


rule = Rule(
    name="two questions", setting="plain_words", prompt=prompt,
    summary="a short request that asks two questions (two that end in \"?\", or \"..., and who ...?\") gets them listed "
            "under it, numbered, with the words to print an answer to each; not when the second is short or points back "
            "at the first (\"and how many times?\")")
