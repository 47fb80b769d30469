"""The contract every model back end keeps.

A back end is an OpenAI-style *completions function* plus a token counter. Chunks are plain dicts
shaped like OpenAI's `chat.completion.chunk`, the same shape a user's own `llm.completions`
function yields (see the custom-models page of the spec), so one normaliser reads them all:

    {"choices": [{"delta": {"content": "hel"}, "finish_reason": None}]}
    {"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c1", "function":
                   {"name": "execute", "arguments": "{\"lang"}}]}, "finish_reason": None}]}
    {"choices": [{"delta": {}, "finish_reason": "stop" | "length" | "tool_calls"}]}

A back end may add a last chunk {"usage": {"prompt_tokens": n, "completion_tokens": m}}.
Errors that a user can act on are raised as `LLMError` with a one-line message.
"""
from __future__ import annotations

from typing import Any, Iterator, Protocol

from oi_local.errors import LLMError

__all__ = ["Backend", "LLMError", "estimate_tokens"]


class Backend(Protocol):
    def completions(
        self,
        *,
        messages: list[dict[str, Any]],
        model: str | None = None,
        stream: bool = True,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: list[str] | None = None,
        tools: list[dict[str, Any]] | None = None,
        seed: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Stream OpenAI-style chunks for `messages` (OpenAI chat format). Closing the iterator
        early must cancel generation promptly."""
        ...

    def count_tokens(self, messages: list[dict[str, Any]]) -> int | None:
        """Exact prompt tokens for these messages with the model's own tokenizer and chat
        template, or None when the back end cannot tell (the caller then estimates)."""
        ...

    def close(self) -> None:
        """Free the model / processes. Idempotent."""
        ...


def estimate_tokens(text: str) -> int:
    """A deliberately high estimate for when no tokenizer is available: 1 token per 3 UTF-8 bytes."""
    return len(text.encode("utf-8", "replace")) // 3 + 1
