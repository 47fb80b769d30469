"""A back end around a user's own completions function (spec: language-models/custom-models).

    def custom_language_model(messages, model, stream, max_tokens):
        for ch in messages[-1]["content"]:
            yield {"choices": [{"delta": {"content": ch}}]}

Users write these by hand, so we are lenient: the function gets only the keyword arguments its
signature names (all of them with **kwargs), and may return a generator of dict chunks, pydantic
chunks or strings, a single non-streaming response, or a string.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Iterator

from .base import LLMError
from .openai_compat import one_line, to_chunks


def _accepted(fn: Callable[..., Any]) -> set[str] | None:
    """Names `fn` accepts by keyword; None means anything (**kwargs or an opaque callable)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    names: set[str] = set()
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            return None
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            names.add(p.name)
    return names


class FunctionBackend:
    def __init__(self, fn: Callable[..., Any]) -> None:
        if not callable(fn):
            raise LLMError(f"llm.completions must be a function, got {type(fn).__name__}")
        self.fn = fn
        self._accepts = _accepted(fn)

    @property
    def name(self) -> str:
        return getattr(self.fn, "__name__", type(self.fn).__name__)

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
        offered = {"messages": messages, "model": model, "stream": stream, "max_tokens": max_tokens,
                   "temperature": temperature, "stop": stop, "tools": tools}
        if seed is not None:
            offered["seed"] = seed
        kwargs = offered if self._accepts is None else {k: v for k, v in offered.items() if k in self._accepts}
        result: Any = None
        finished = False
        saw_tool_calls = False
        try:
            result = self.fn(**kwargs)
            if result is None:
                raise LLMError(f"The custom completions function {self.name}() returned None; it should yield OpenAI-style chunks.")
            items = [result] if _is_single(result) else result
            for item in items:
                for chunk in to_chunks(item):
                    for choice in chunk.get("choices", ()):
                        finished = finished or bool(choice.get("finish_reason"))
                        saw_tool_calls = saw_tool_calls or bool(choice["delta"].get("tool_calls"))
                    yield chunk
        except LLMError:
            raise
        except Exception as e:
            raise LLMError(f"The custom completions function {self.name}() failed: {type(e).__name__}: {one_line(e, 300)}") from e
        finally:
            close = getattr(result, "close", None)
            if callable(close) and not _is_single(result):
                close()
        if not finished:  # hand-written generators rarely send a finish chunk; the loop wants one
            yield {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls" if saw_tool_calls else "stop"}]}

    def count_tokens(self, messages: list[dict[str, Any]]) -> int | None:
        return None

    def close(self) -> None:
        pass


def _is_single(result: Any) -> bool:
    """A whole response or one chunk rather than a stream of them."""
    return isinstance(result, (str, bytes, dict)) or hasattr(result, "model_dump")
