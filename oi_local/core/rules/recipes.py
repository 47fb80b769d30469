"""Recipes: the worked examples from templates/recipes.yaml most like the request (core/recipes.py),
least alike first, with the request's own names put in. None next to a request to wipe or encrypt
things."""
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
        chosen = as_messages([adapt(r, request) for r in reversed(pick(request, n))])
    except (OSError, ValueError):  # a missing or broken recipe file must not stop the chat
        return None
    return Addition(examples=tuple(chosen))


rule = Rule(
    name="recipes", setting="recipes", off=0, prompt=prompt,
    summary="the N worked examples from `templates/recipes.yaml` most like the request (word overlap) go before the "
            "conversation, with the request's own file, extension and folder names put in where they map one to "
            "one; none for destructive requests; dropped first when the context is short (small set: 2)")
