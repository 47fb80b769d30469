"""Figures from a transcript: turns, code blocks, code errors, format failures, tokens, answers.

Works on the LMC messages of both targets (same message shapes), so the comparison is like-for-like.
"""
from __future__ import annotations

import re
from typing import Any, Callable

# Errors visible in console output when no exit code is given (the original reports none).
_ERROR = re.compile(
    r"Traceback \(most recent call last\)|^\s*File \".*\", line \d+|^\w*(Error|Exception): |"
    r"command not found|No such file or directory|Permission denied|\(exit code [1-9]\d*\)",
    re.MULTILINE)
_CUT_OFF = "cut off (max_tokens) inside a code block"

Counter = Callable[[str], int]


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def final_text(messages: list[dict[str, Any]]) -> str:
    """The assistant's prose after its last code block or code output: what the user reads last."""
    parts: list[str] = []
    for m in messages:
        if m.get("role") == "assistant" and m.get("type") == "message":
            parts.append(str(m.get("content") or ""))
        elif m.get("role") != "user":
            parts = []
    return "".join(parts).strip()


def console_outputs(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m.get("role") == "computer" and m.get("type") == "console"
            and m.get("format") in (None, "output")]


def is_error_output(m: dict[str, Any]) -> bool:
    if m.get("exit_code") not in (None, 0):
        return True
    return bool(_ERROR.search(str(m.get("content") or "")))


def transcript_metrics(tr: dict[str, Any], count: Counter | None = None) -> dict[str, Any]:
    count = count or estimate_tokens
    turns = tr.get("turns") or []
    msgs = [m for t in turns for m in t.get("messages") or []]
    code = [m for m in msgs if m.get("role") == "assistant" and m.get("type") == "code"]
    outputs = console_outputs(msgs)
    fence_in_text = sum(1 for m in msgs if m.get("role") == "assistant" and m.get("type") == "message"
                        and "```" in str(m.get("content") or ""))
    calls = tr.get("calls") or []
    empty = sum(1 for c in calls if not str(c.get("text") or "").strip())
    cut_off = sum(1 for m in outputs if _CUT_OFF in str(m.get("content") or ""))
    prompt_tokens = completion_tokens = 0
    reported = True
    for c in calls:
        usage = c.get("usage") or {}
        if usage.get("prompt_tokens") and usage.get("completion_tokens") is not None:
            prompt_tokens += int(usage["prompt_tokens"])
            completion_tokens += int(usage["completion_tokens"])
            continue
        reported = False
        prompt_tokens += sum(count(_content_text(m)) + 4 for m in c.get("prompt") or [])
        completion_tokens += count(str(c.get("text") or ""))
    return {
        "turns": sum(1 for t in turns if t.get("messages")),
        "model_calls": len(calls),
        "code_blocks": len(code),
        "code_errors": sum(1 for m in outputs if is_error_output(m)),
        "format_failures": fence_in_text + empty + cut_off,
        "format_detail": {"fence_in_text": fence_in_text, "empty_reply": empty, "cut_off": cut_off},
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "tokens_source": "reported" if reported and calls else "estimated",
        "model_s": round(sum(float(c.get("wall_s") or 0) for c in calls), 2),
        "setup_s": tr.get("setup_s"),
    }


def _content_text(m: dict[str, Any]) -> str:
    c = m.get("content")
    if isinstance(c, list):
        return " ".join(str(p.get("text", "")) for p in c if isinstance(p, dict))
    return str(c or "")


def gguf_counter(path: str) -> Counter | None:
    """Count with the model's own tokenizer (vocab only, no weights computed); None if unavailable."""
    try:
        from llama_cpp import Llama

        llm = Llama(model_path=path, vocab_only=True, verbose=False)
    except Exception:
        return None

    def count(text: str) -> int:
        return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)) if text else 0

    return count
