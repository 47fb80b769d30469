"""max_budget: a spending cap in USD for a session, checked *before* each model request.

Local models (embedded, or a server on this machine) cost 0. Hosted models are priced with
litellm's bundled price table (loaded lazily and offline). An unknown model counts as 0 with a note.
"""
from __future__ import annotations

from typing import Any

from oi_local.errors import LLMError


class BudgetExceeded(LLMError):
    """The next request would take the session over max_budget."""


def is_free(llm: Any) -> bool:
    return llm.is_free()


def price(llm: Any, prompt_tokens: int, completion_tokens: int) -> float | None:
    """USD for a request of this size; 0.0 for local models; None if the model has no known price."""
    if is_free(llm):
        return 0.0
    from oi_local.llm.backends.litellm_backend import import_litellm

    try:
        litellm = import_litellm()
        p, c = litellm.cost_per_token(model=llm.model or "", prompt_tokens=int(prompt_tokens),
                                      completion_tokens=int(completion_tokens))
    except Exception:
        return None
    return float(p) + float(c)


def check(interp: Any, prompt_tokens: int) -> float:
    """Raise BudgetExceeded if the worst case of the next request (the prompt plus max_tokens
    written) would go over the budget. Returns that worst-case cost."""
    cap = getattr(interp, "max_budget", None)
    if cap is None or is_free(interp.llm):
        return 0.0
    worst = price(interp.llm, prompt_tokens, interp.llm.effective_max_tokens()) or 0.0
    spent = float(getattr(interp, "spent", 0.0) or 0.0)
    if spent + worst > float(cap):
        raise BudgetExceeded(
            f"Budget reached: this session has spent ${spent:.6f} of max_budget ${float(cap):.6f}, and the next "
            f"request to {interp.llm.model} could cost up to ${worst:.6f}. Nothing was sent. "
            "Raise --max_budget (or interpreter.max_budget) to continue."
        )
    return worst


def record(interp: Any, prompt_tokens: int, completion_tokens: int) -> float:
    """Add the cost of a finished request (usage from the server when it reports it)."""
    usage = interp.llm.last_usage or {}
    p = int(usage.get("prompt_tokens") or prompt_tokens)
    c = int(usage.get("completion_tokens") or completion_tokens)
    cost = price(interp.llm, p, c) or 0.0
    interp.spent = float(getattr(interp, "spent", 0.0) or 0.0) + cost
    return cost
