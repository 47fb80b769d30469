"""Long requests: a message too long for the model to use whole (a pasted log, a document) is saved
to a file in the working folder, and the model sees its start and its end (where the question
usually is) with the file's name in between, so it can read the rest with code. Before, the context
budget cut the middle out of the prompt, and a 0.5B model given 20,000 characters that way answered
"You won't." with unrelated code."""
from __future__ import annotations

import hashlib
import os
from typing import Any

from oi_local.core.rules.base import Addition, Rule

HEAD, TAIL = 1200, 800  # characters of the request the model sees around the note
MIN_TOKENS = 1500  # a request over this (or over a quarter of the context budget) is saved
NOTE = ("\n\n[... The whole message ({n} characters) is saved in the file {name} in the working folder. "
        "Read that file with code to use all of it. ...]\n\n")


def limit(engine: Any) -> int:
    """The longest request, in characters, that goes to the model whole."""
    try:
        budget = int(engine.llm.effective_context_window()) - int(engine.llm.effective_max_tokens())
    except Exception:  # noqa: BLE001 - no model settings yet: the fixed limit
        budget = 4 * MIN_TOKENS
    return 3 * min(MIN_TOKENS, max(budget // 4, 256))  # about 3 characters per token


def save(text: str, folder: str) -> str | None:
    """Write the request to message-<hash>.txt in `folder` (once); its name, or None if it cannot."""
    name = f"message-{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}.txt"
    path = os.path.join(folder, name)
    try:
        if not os.path.exists(path):
            with open(path, "w", encoding="utf-8", errors="replace") as f:
                f.write(text)
    except OSError:
        return None
    return name


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    if len(request) <= max(limit(engine), HEAD + TAIL + 200):
        return None
    name = save(request, os.getcwd())
    if name is None:
        return None
    return Addition(request=request[:HEAD] + NOTE.format(n=len(request), name=name) + request[-TAIL:])


rule = Rule(
    name="long requests", setting="save_long_requests", prompt=prompt,
    summary="a request too long for the context (over about 1,500 tokens, or a quarter of the budget) is saved to "
            "message-<hash>.txt in the working folder; the model sees its start and end with that file's name "
            "between them, instead of a prompt with its middle cut out")
