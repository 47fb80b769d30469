"""LMC messages: the flat message format of the spec, and helpers around it.

A message is {"role": "user"|"assistant"|"computer", "type": ..., "format"?: ..., "content": ...}.
Streaming chunks are the same dicts with "start"/"end" flags or partial "content".
"""
from __future__ import annotations

from typing import Any, Iterable

Message = dict[str, Any]

ROLES = ("user", "assistant", "computer")


def normalize(messages: Iterable[Any]) -> list[Message]:
    """Accept current LMC messages and the pre-0.2 shapes (`{"role", "message"}`,
    `{"role", "language", "code", "output"}`), returning flat LMC messages."""
    out: list[Message] = []
    for m in messages:
        if not isinstance(m, dict):
            raise TypeError(f"a message must be a dict, got {type(m).__name__}")
        if "type" in m and "content" in m:
            out.append(dict(m))
            continue
        role = m.get("role", "user")
        if "message" in m:
            out.append({"role": role, "type": "message", "content": str(m["message"])})
        if "code" in m:
            lang = m.get("language") or m.get("format") or "python"
            out.append({"role": "assistant", "type": "code", "format": lang, "content": str(m["code"])})
            if m.get("output"):
                out.append({"role": "computer", "type": "console", "format": "output", "content": str(m["output"])})
        elif "content" in m and "type" not in m:
            out.append({"role": role, "type": "message", "content": str(m["content"])})
    return out


def chunk(role: str, type_: str, fmt: str | None = None, **kw: Any) -> Message:
    c: Message = {"role": role, "type": type_}
    if fmt is not None:
        c["format"] = fmt
    c.update(kw)
    return c


def merge_chunks(chunks: Iterable[Message]) -> list[Message]:
    """Fold a stream of chunks into messages (what a client does with start/content/end)."""
    out: list[Message] = []
    current: Message | None = None
    for c in chunks:
        if c.get("start"):
            current = {k: v for k, v in c.items() if k not in ("start", "end")}
            current.setdefault("content", "")
            out.append(current)
            continue
        if c.get("end"):
            current = None
            continue
        if c.get("format") == "active_line" or c.get("type") == "confirmation":
            continue
        if current is not None and current["type"] == c.get("type") and "content" in c and isinstance(c["content"], str):
            current["content"] += c["content"]
        elif "content" in c:
            out.append({k: v for k, v in c.items() if k not in ("start", "end")})
    return out
