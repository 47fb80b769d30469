"""Recipes: the worked examples from templates/recipes.yaml most like the request (core/recipes.py),
least alike first, with the request's own names put in. None next to a request to wipe or encrypt
things. In a conversation they stay those of the first request that had any: they sit before the
history, and new ones for every request made llama.cpp re-read the whole conversation each turn."""
from __future__ import annotations

from typing import Any

from oi_local.core.rules.base import Addition, Rule


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    try:
        n = int(engine.recipes or 0)
    except (TypeError, ValueError):
        n = 0
    if n <= 0:
        return None
    from oi_local.core.recipes import adapt, as_messages, pick
    from oi_local.core.rules.destructive import destructive_request

    if destructive_request(request):
        return None
    try:
        for asked in [*_earlier_requests(engine, request), request]:
            # A deletion example for a request that deletes nothing: asked to copy a file into a new
            # backup folder, the 0.5B model (shown "Delete the .bak files in the backups folder") began
            # with `backup_folder.rmdir()`.
            allow = None if _deletes(asked) else (lambda r: not _deletes(str(r["request"])))
            picked = [] if destructive_request(asked) else pick(asked, n, allow=allow)
            if picked:
                return Addition(examples=tuple(as_messages([adapt(r, asked) for r in reversed(picked)])))
    except (OSError, ValueError):  # a missing or broken recipe file must not stop the chat
        return None
    return None


def _deletes(text: str) -> bool:
    """The text asks to delete or remove something ("get rid of the empty files" too: without the
    deletion example, the 0.5B model deleted every file in the folder by name)."""
    from oi_local.core.rules.destructive import DESTROY
    from oi_local.core.rules.turn import careful

    return careful(text) or bool(DESTROY.search(text))


def _earlier_requests(engine: Any, request: str) -> list[str]:
    """The conversation's requests before the newest one, oldest first."""
    texts = [str(m["content"]) for m in engine.messages
             if m.get("role") == "user" and m.get("type") == "message" and isinstance(m.get("content"), str)]
    return texts[:-1] if texts and texts[-1] == request else texts


rule = Rule(
    name="recipes", setting="recipes", off=0, prompt=prompt,
    summary="the N worked examples from `templates/recipes.yaml` most like the request (word overlap) go before the "
            "conversation, with the request's own file, extension and folder names put in where they map one to "
            "one; an example of the other mode (one that makes a file, for a question, or the other way) counts half, "
            "none about a folder's files for a named file, and no deletion example for a request that deletes nothing; "
            "in a conversation, those of its first request that had any; none for destructive requests; "
            "dropped first when the context is short (small set: 2)")
