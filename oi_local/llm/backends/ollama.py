"""Ollama through its OpenAI-compatible /v1 API, with our context budget as num_ctx.

/v1 cannot carry Ollama's `options`, so a request for model M goes to a variant of M created
once with `PARAMETER num_ctx <budget>` (see providers.ollama_with_context). Without this Ollama
silently cuts every prompt to its default context (2048 or 4096 tokens), whatever
`context_window` says.
"""
from __future__ import annotations

import sys
from typing import Any, Iterator

from oi_local.errors import LLMError
from oi_local.llm.backends.openai_compat import (
    OpenAICompatibleBackend,
    strip_provider_prefix,
)


class OllamaBackend(OpenAICompatibleBackend):
    def __init__(self, api_base: str, num_ctx: int, **kwargs: Any) -> None:
        super().__init__(api_base, **kwargs)
        self.num_ctx = int(num_ctx)
        self._variants: dict[str, str] = {}

    def variant(self, name: str) -> str:
        if name.startswith("oi-") and ":ctx" in name:
            return name  # already one of ours (the wizard made it)
        if name not in self._variants:
            from oi_local.local.providers import ollama_with_context

            try:
                self._variants[name] = ollama_with_context(name, self.num_ctx, self.root)
            except LLMError as e:
                # Still chat (Ollama may be older, or the model unknown: its own error will say so).
                print(f"Warning: {e} Ollama will use its default context length.", file=sys.stderr)
                self._variants[name] = name
        return self._variants[name]

    def completions(self, *, model: str | None = None, **kwargs: Any) -> Iterator[dict[str, Any]]:
        name = strip_provider_prefix(model) or self.model
        return super().completions(model=self.variant(name), **kwargs)
