"""FunctionBackend: the user's own completions function, as the custom-models spec page shows it."""
from __future__ import annotations

from typing import Any

import pytest

from oi_local.llm.backends.base import LLMError
from oi_local.llm.backends.function import FunctionBackend

MESSAGES = [{"role": "user", "content": "Hi!"}]


def _text(chunks: list[dict[str, Any]]) -> str:
    return "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c.get("choices"))


def _finish(chunks: list[dict[str, Any]]) -> str | None:
    reasons = [c["choices"][0]["finish_reason"] for c in chunks if c.get("choices") and c["choices"][0]["finish_reason"]]
    return reasons[-1] if reasons else None


def test_spec_echo_function_gets_only_its_four_arguments() -> None:
    # Verbatim from the spec: it would raise TypeError if given temperature, stop or tools.
    def custom_language_model(messages, model, stream, max_tokens):
        users_content = messages[-1].get("content")
        for character in users_content:
            yield {"choices": [{"delta": {"content": character}}]}

    backend = FunctionBackend(custom_language_model)
    chunks = list(backend.completions(messages=MESSAGES, model="x", max_tokens=10, temperature=0.2,
                                      stop=["\n"], tools=[{"type": "function"}]))
    assert _text(chunks) == "Hi!"
    assert len(chunks) == 4  # three characters, then the finish we add
    assert chunks[-1] == {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    assert all(type(c) is dict and c["choices"][0]["finish_reason"] in (None, "stop") for c in chunks)
    assert backend.count_tokens(MESSAGES) is None


def test_kwargs_function_gets_everything() -> None:
    seen: dict[str, Any] = {}

    def completions(**kwargs):
        seen.update(kwargs)
        yield {"choices": [{"delta": {"content": "ok"}, "finish_reason": None}]}
        yield {"choices": [{"delta": {}, "finish_reason": "length"}]}

    chunks = list(FunctionBackend(completions).completions(messages=MESSAGES, max_tokens=5, temperature=0.0))
    assert set(seen) == {"messages", "model", "stream", "max_tokens", "temperature", "stop", "tools"}
    assert seen["max_tokens"] == 5 and seen["stream"] is True
    assert _text(chunks) == "ok"
    assert _finish(chunks) == "length"
    assert sum(1 for c in chunks if c["choices"][0]["finish_reason"]) == 1  # no extra finish added


def test_messages_only_function() -> None:
    chunks = list(FunctionBackend(lambda messages: iter(["a", "b"])).completions(messages=MESSAGES))
    assert _text(chunks) == "ab"


def test_non_streaming_response_dict() -> None:
    def completions(messages, stream):
        return {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello there"},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}

    chunks = list(FunctionBackend(completions).completions(messages=MESSAGES))
    assert _text(chunks) == "Hello there"
    assert _finish(chunks) == "stop"
    assert {"usage": {"prompt_tokens": 3, "completion_tokens": 2}} in chunks


def test_non_streaming_tool_call() -> None:
    def completions(messages):
        return {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "execute", "arguments": {"language": "python", "code": "1"}}}]}}]}

    chunks = list(FunctionBackend(completions).completions(messages=MESSAGES))
    call = chunks[0]["choices"][0]["delta"]["tool_calls"][0]
    assert call == {"index": 0, "id": "c1", "type": "function",
                    "function": {"name": "execute", "arguments": '{"language": "python", "code": "1"}'}}
    assert _finish(chunks) == "tool_calls"


def test_generator_of_strings() -> None:
    def completions(messages, model, stream, max_tokens):
        yield "Hel"
        yield ""
        yield "lo"

    chunks = list(FunctionBackend(completions).completions(messages=MESSAGES))
    assert _text(chunks) == "Hello"
    assert _finish(chunks) == "stop"


def test_plain_string_return() -> None:
    chunks = list(FunctionBackend(lambda messages: "whole answer").completions(messages=MESSAGES))
    assert _text(chunks) == "whole answer"


class _Chunk:
    """Looks like a pydantic model (openai/litellm chunk objects)."""

    def __init__(self, content: str) -> None:
        self.content = content

    def model_dump(self) -> dict[str, Any]:
        return {"id": "x", "choices": [{"index": 0, "delta": {"content": self.content, "role": None,
                                                               "tool_calls": None}, "finish_reason": None}]}


def test_pydantic_like_chunks_become_plain_dicts() -> None:
    chunks = list(FunctionBackend(lambda messages: (_Chunk(c) for c in "xyz")).completions(messages=MESSAGES))
    assert _text(chunks) == "xyz"
    assert chunks[0] == {"choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": None}]}


def test_streamed_tool_call_deltas_get_tool_calls_finish() -> None:
    def completions(messages):
        yield {"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "execute", "arguments": '{"la'}}]}}]}
        yield {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": 'nguage": "python"}'}}]}}]}

    chunks = list(FunctionBackend(completions).completions(messages=MESSAGES))
    args = "".join(c["choices"][0]["delta"]["tool_calls"][0]["function"].get("arguments", "")
                   for c in chunks if "tool_calls" in c["choices"][0]["delta"])
    assert args == '{"language": "python"}'
    assert _finish(chunks) == "tool_calls"


def test_errors_become_one_line_llm_errors() -> None:
    def broken(messages):
        yield "partial"
        raise ValueError("backend\nexploded")

    with pytest.raises(LLMError, match=r"broken\(\) failed: ValueError: backend exploded") as info:
        list(FunctionBackend(broken).completions(messages=MESSAGES))
    assert isinstance(info.value.__cause__, ValueError)

    with pytest.raises(LLMError, match="returned None"):
        list(FunctionBackend(lambda messages: None).completions(messages=MESSAGES))

    with pytest.raises(LLMError, match="must be a function"):
        FunctionBackend("gpt-4o")  # type: ignore[arg-type]


def test_closing_early_closes_the_users_generator() -> None:
    state = {"closed": False}

    def completions(messages):
        try:
            while True:
                yield "x"
        finally:
            state["closed"] = True

    stream = FunctionBackend(completions).completions(messages=MESSAGES)
    next(stream)
    next(stream)
    stream.close()
    assert state["closed"]
