"""Context budget: keep the system message and the newest messages within the model's window."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from oi_local.llm.backends.base import estimate_tokens

Counter = Callable[[list[dict[str, Any]]], "int | None"]


def head_tail(text: str, limit: int, note: str = "\n... [{n} characters omitted] ...\n") -> str:
    """Keep the start and the end of a long text: errors and results are often at either end."""
    if len(text) <= limit:
        return text
    half = max(limit // 2, 1)
    omitted = len(text) - 2 * half
    return text[:half] + note.format(n=omitted) + text[-half:]


@dataclass
class Trimmed:
    dropped_messages: int = 0
    shortened_messages: int = 0
    prompt_tokens: int = 0
    exact: bool = False
    notes: list[str] = field(default_factory=list)


class TokenCounter:
    """Counts tokens per message with the back end's tokenizer when it has one, else estimates.
    Per-message counts are cached: a conversation is re-counted every turn."""

    def __init__(self, count: Counter | None) -> None:
        self._count = count
        self._cache: dict[Any, int] = {}
        self.exact = count is not None

    def one(self, message: dict[str, Any]) -> int:
        hit = self._cache.get(key := _key(message))
        if hit is not None:
            return hit
        n = None
        if self._count is not None:
            try:
                n = self._count([message])
            except Exception:
                n = None
        if n is None:
            self.exact = False
            n = estimate_tokens(_text_of(message)) + 8
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[key] = n
        return n

    def total(self, messages: list[dict[str, Any]]) -> int:
        if self._count is not None and self.exact:
            try:
                n = self._count(messages)
                if n is not None:
                    return n
            except Exception:
                pass
        return sum(self.one(m) for m in messages) + 8


def _key(message: dict[str, Any]) -> Any:
    # Plain strings hash in C (and cache their hash): far cheaper than JSON for the usual message.
    if set(message) <= {"role", "content"} and isinstance(message.get("content"), str):
        return (message.get("role"), message["content"])
    return json.dumps(message, sort_keys=True, default=str)


def _text_of(message: dict[str, Any]) -> str:
    c = message.get("content")
    if isinstance(c, list):
        parts = [p.get("text", "") if p.get("type") == "text" else "x" * 3000 for p in c]  # images: ~1000 tokens
        c = " ".join(parts)
    extra = json.dumps(message.get("tool_calls")) if message.get("tool_calls") else ""
    return (c or "") + extra


def fit(
    system: list[dict[str, Any]],
    conversation: list[dict[str, Any]],
    budget: int,
    counter: TokenCounter,
) -> tuple[list[dict[str, Any]], Trimmed]:
    """Return system + the newest conversation messages that fit in `budget` tokens.

    The newest message is always kept; if it alone is too big its text is shortened head+tail.
    The first kept conversation message is a user message (chat templates expect that).
    """
    info = Trimmed()
    fixed = sum(counter.one(m) for m in system) + 8
    room = budget - fixed
    if room <= 0:
        raise ValueError(
            f"the system message alone needs about {fixed} tokens but the budget is {budget}: "
            "raise context_window or shorten the system message"
        )
    kept: list[dict[str, Any]] = []
    used = 0
    for m in reversed(conversation):
        n = counter.one(m)
        if used + n > room:
            break
        kept.append(m)
        used += n
    kept.reverse()
    if not kept and conversation:
        last = dict(conversation[-1])
        kept = [_shrink(last, room, counter)]
        info.shortened_messages = 1
        info.notes.append("the newest message was too long for the context window and was shortened (head and tail kept)")
    while kept and kept[0]["role"] not in ("user",) and len(kept) > 1:
        kept.pop(0)
    info.dropped_messages = len(conversation) - len(kept)
    if info.dropped_messages:
        info.notes.append(f"{info.dropped_messages} older message(s) left out to fit the context window")
    result = system + kept
    # Verify with an exact count of the whole prompt when the back end can give one.
    total = counter.total(result)
    while total > budget and len(kept) > 1:
        kept.pop(0)
        while kept and kept[0]["role"] != "user" and len(kept) > 1:
            kept.pop(0)
        info.dropped_messages = len(conversation) - len(kept)
        result = system + kept
        total = counter.total(result)
    if total > budget and kept:
        kept[-1] = _shrink(kept[-1], max(room - (total - budget), 16), counter)
        result = system + kept
        total = counter.total(result)
    info.prompt_tokens = total
    info.exact = counter.exact
    return result, info


def _shrink(message: dict[str, Any], tokens: int, counter: TokenCounter) -> dict[str, Any]:
    m = dict(message)
    content = m.get("content")
    text = content if isinstance(content, str) else _text_of(m)
    limit = max(tokens * 3, 64)  # conservative: about 3 characters per token
    for _ in range(8):
        m["content"] = head_tail(text, limit)
        if counter.one(m) <= tokens:
            return m
        limit = int(limit * 0.7)
    return m
