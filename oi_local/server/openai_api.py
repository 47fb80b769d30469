"""`POST /openai/chat/completions`: the interpreter behind the OpenAI chat API.

Stateless, as the API is: every request carries the whole conversation, gets a fresh interpreter
(its own code sessions, ended with the request), and the reply is rendered as markdown text:
prose, fenced code, and the code's output. Code runs only when the server's auto_run is on.
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from oi_local.server.bridge import Failed, Stream

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.server.server import Server


def to_history(messages: Any) -> tuple[list[dict[str, Any]], str]:
    """OpenAI chat messages -> (LMC history, the client's system text)."""
    if not isinstance(messages, list) or not messages:
        raise ValueError("'messages' must be a non-empty list")
    history: list[dict[str, Any]] = []
    system: list[str] = []
    for m in messages:
        if not isinstance(m, dict) or m.get("role") not in ("system", "developer", "user", "assistant", "tool", "function"):
            raise ValueError("each message needs a role: system, user, assistant or tool")
        role, content = m["role"], m.get("content")
        texts: list[str] = []
        images: list[str] = []
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "text":
                    texts.append(str(part.get("text", "")))
                elif isinstance(part, dict) and part.get("type") == "image_url":
                    url = (part.get("image_url") or {}).get("url", "")
                    if url.startswith("data:image/") and ";base64," in url:
                        images.append(url)
        text = "\n".join(t for t in texts if t)
        if role in ("system", "developer"):
            system.append(text)
        elif role in ("tool", "function"):
            history.append({"role": "computer", "type": "console", "format": "output", "content": text})
        else:
            if text:
                history.append({"role": role, "type": "message", "content": text})
            for url in images:
                head, data = url.split(";base64,", 1)
                history.append({"role": role, "type": "image", "format": "base64." + head.split("/", 1)[1], "content": data})
    if not history or history[-1]["role"] != "user":
        raise ValueError("the last message must come from the user")
    return history, "\n\n".join(s for s in system if s)


class Renderer:
    """LMC chunks -> markdown text pieces, as a chat UI would show them."""

    def __init__(self) -> None:
        self.output_open = False
        self.last = "\n"

    def feed(self, c: dict[str, Any]) -> str:
        text = self._feed(c)
        if text:
            self.last = text[-1]
        return text

    def _nl(self) -> str:
        return "" if self.last == "\n" else "\n"

    def _feed(self, c: dict[str, Any]) -> str:
        typ, fmt, content = c.get("type"), c.get("format"), c.get("content")
        if typ == "code":
            if c.get("start"):
                return f"{self._nl()}```{fmt or ''}\n"
            if c.get("end"):
                return f"{self._nl()}```\n"
            return content if isinstance(content, str) else ""
        if typ == "console":
            if c.get("end"):
                if self.output_open:
                    self.output_open = False
                    return f"{self._nl()}```\n"
                return ""
            if fmt == "output" and isinstance(content, str) and content:
                if not self.output_open:
                    self.output_open = True
                    return "```output\n" + content
                return content
            return ""
        if typ == "message" and c.get("role") == "assistant" and isinstance(content, str):
            return content
        if typ == "review" and isinstance(content, str) and content != "<SAFE>":
            return f"{self._nl()}> Review: {content}\n"
        if typ == "image":
            return f"{self._nl()}(an image was produced)\n"
        return ""


def add_openai_routes(app: FastAPI, server: "Server") -> None:
    @app.post("/openai/chat/completions")
    async def chat_completions(request: Request) -> Any:
        from oi_local.server import bodies

        try:
            body = json.loads(await bodies.read_limited(request, bodies.max_upload()))
            if not isinstance(body, dict):
                raise ValueError("the body must be a JSON object")
            history, system = to_history(body.get("messages"))
            interp = server.new_interpreter()
            _apply_request_params(interp, body)
        except bodies.TooLarge as e:
            return JSONResponse({"error": {"message": f"request too large: {e}", "type": "invalid_request_error"}}, status_code=413)
        except ValueError as e:
            return JSONResponse({"error": {"message": str(e), "type": "invalid_request_error"}}, status_code=400)
        if system:
            interp.custom_instructions = "\n\n".join(p for p in (interp.custom_instructions, system) if p)
        interp.messages = history
        model = str(body.get("model") or "oi-local")
        cid = "chatcmpl-" + uuid.uuid4().hex[:24]
        created = int(time.time())
        pieces = _reply_text(server, interp)
        if body.get("stream"):
            return StreamingResponse(_sse(pieces, cid, created, model), media_type="text/event-stream")
        text: list[str] = []
        try:
            async for piece in pieces:
                text.append(piece)
        except _ReplyError as e:
            return JSONResponse({"error": {"message": str(e), "type": "server_error"}}, status_code=500)
        return {
            "id": cid, "object": "chat.completion", "created": created, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "".join(text)}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }


def _apply_request_params(interp: Any, body: dict[str, Any]) -> None:
    """Per-request model parameters, within the same bounds as /settings."""
    from oi_local.server import settings as s

    for key, name in (("temperature", "llm.temperature"), ("max_tokens", "llm.max_tokens"),
                      ("max_completion_tokens", "llm.max_tokens")):
        if body.get(key) is not None:
            try:
                s.apply(interp, {name: s.check_open(name, body[key])})
            except ValueError as e:
                raise ValueError(f"{key}: {str(e).split(': ', 1)[-1]}") from None


class _ReplyError(Exception):
    pass


async def _reply_text(server: "Server", interp: Any) -> AsyncIterator[str]:
    """Run the conversation's next turn in a thread; yield its text as it comes."""
    from oi_local.server.session import _describe
    from oi_local.server.spawn import release

    cancel = threading.Event()

    def approve(code_msg: dict[str, Any]) -> Any:
        return "run" if interp.auto_run and not cancel.is_set() else "skip"

    stream = Stream(lambda: interp.respond(approve), cancel, "oi-openai-request")
    renderer = Renderer()
    try:
        async for item in stream:
            if isinstance(item, Failed):  # reported to the client, never lost
                raise _ReplyError(_describe(item.error).splitlines()[-1])
            if item.get("type") == "confirmation" and not interp.auto_run:
                yield "\n(The code was not run: auto_run is off on this server.)\n"
                continue
            text = renderer.feed(item)
            if text:
                yield text
    finally:
        stream.close()  # the client left (or we are done): stop what runs, then clean up
        interp.computer.stop()
        # Not awaited: this may run while the request task is being cancelled.
        threading.Thread(target=_finish, args=(stream.thread, interp, release), name="oi-openai-cleanup", daemon=True).start()


def _finish(thread: threading.Thread, interp: Any, release: Any) -> None:
    thread.join(timeout=30)
    release(interp)


async def _sse(pieces: AsyncIterator[str], cid: str, created: int, model: str) -> AsyncIterator[str]:
    def event(delta: dict[str, Any], finish: str | None = None) -> str:
        return "data: " + json.dumps({"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                                      "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"

    yield event({"role": "assistant", "content": ""})
    try:
        async for piece in pieces:
            yield event({"content": piece})
    except _ReplyError as e:
        yield "data: " + json.dumps({"error": {"message": str(e), "type": "server_error"}}) + "\n\n"
        return
    yield event({}, "stop")
    yield "data: [DONE]\n\n"
