"""A scripted model: a real `llm.completions` function that streams canned replies in small pieces.

It is what a user would plug in (spec: language-models/custom-models), so the whole engine runs for
real: parser, loop, code execution, templates and context budget. It records every prompt it got.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence


class ScriptedModel:
    def __init__(self, replies: Sequence[str | Callable[[list[dict[str, Any]]], str]], piece: int = 3,
                 finish_reason: str = "stop") -> None:
        self.replies = list(replies)
        self.piece = piece
        self.finish_reason = finish_reason
        self.prompts: list[list[dict[str, Any]]] = []
        self.options: list[dict[str, Any]] = []  # the other arguments of each call (temperature, seed, ...)

    def __call__(self, messages: list[dict[str, Any]], model: Any = None, stream: bool = True,
                 max_tokens: int | None = None, **options: Any) -> Iterator[dict[str, Any]]:
        self.prompts.append([dict(m) for m in messages])
        self.options.append(options)
        n = len(self.prompts) - 1
        reply = self.replies[n] if n < len(self.replies) else self.replies[-1]
        text = reply(messages) if callable(reply) else reply
        for i in range(0, len(text), self.piece):
            yield {"choices": [{"delta": {"content": text[i:i + self.piece]}, "finish_reason": None}]}
        yield {"choices": [{"delta": {}, "finish_reason": self.finish_reason}]}

    @property
    def calls(self) -> int:
        return len(self.prompts)


def scripted_interpreter(replies: Sequence[Any], **settings: Any) -> tuple[Any, ScriptedModel]:
    from interpreter import OpenInterpreter

    model = ScriptedModel(replies)
    interp = OpenInterpreter(auto_run=True, **settings)
    interp.llm.completions = model
    interp.llm.context_window = 4000
    interp.llm.max_tokens = 500
    return interp, model
