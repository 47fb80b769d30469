"""The key and Origin checks, as ASGI middleware so they cover every route, including routes a
user adds to `server.app` and the WebSocket handshake."""
from __future__ import annotations

import hmac
import json
from typing import Any, Callable
from urllib.parse import parse_qs

from oi_local.server.config import ServerConfig


def request_key(scope: dict[str, Any], headers: dict[str, str]) -> str | None:
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    if headers.get("x-api-key"):
        return headers["x-api-key"].strip()
    if scope["type"] == "websocket":  # browsers cannot set headers on a WebSocket
        values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("api_key")
        if values:
            return values[0]
    return None


class Guard:
    def __init__(self, app: Any, config: Callable[[], ServerConfig]) -> None:
        self.app = app
        self.config = config

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        cfg = self.config()
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if not cfg.origin_allowed(headers.get("origin")):
            await _refuse(scope, receive, send, 403, "Origin not allowed. Set INTERPRETER_ALLOWED_ORIGINS to allow a web page.")
            return
        key = request_key(scope, headers)
        if not key or not hmac.compare_digest(key.encode(), cfg.api_key.encode()):
            await _refuse(scope, receive, send, 401, "Missing or wrong API key (Authorization: Bearer <key>).")
            return
        await self.app(scope, receive, send)


async def _refuse(scope: dict[str, Any], receive: Any, send: Any, status: int, message: str) -> None:
    body = json.dumps({"error": {"message": message, "type": "auth_error" if status == 401 else "forbidden"}}).encode()
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        # Closing before accepting makes the server answer the handshake with HTTP 403.
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
        return
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
