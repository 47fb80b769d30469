"""The FastAPI app: WebSocket `/` (LMC), `/settings`, `/files`, `/heartbeat`, `/openai/...`."""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import TYPE_CHECKING, Any, AsyncIterator

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from oi_local.server import bodies
from oi_local.server import settings as settings_mod
from oi_local.server.guard import Guard
from oi_local.server.session import (
    BUSY,
    SESSION_ID,
    ClientError,
    Session,
    TooManySessions,
    server_error,
)

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.server.server import Server

SETTINGS_LIMIT = 1024 * 1024  # settings are a few short strings and numbers


def build_app(server: "Server") -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        reaper = asyncio.create_task(server.reap_forever())
        try:
            yield
        finally:
            reaper.cancel()
            await server.close_all()

    app = FastAPI(title="oi-local server", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(Guard, config=lambda: server.config)
    if server.config.allowed_origins:
        from fastapi.middleware.cors import CORSMiddleware

        # Outside the Guard, so a browser's preflight (which carries no key) gets its answer.
        app.add_middleware(CORSMiddleware, allow_origins=server.config.allowed_origins,
                           allow_methods=["GET", "POST", "PUT"], allow_headers=["authorization", "content-type", "x-api-key", "x-session-id"])

    @app.websocket("/")
    async def conversation(ws: WebSocket) -> None:
        sid = ws.query_params.get("session") or ws.headers.get("x-session-id")
        if sid is not None and not SESSION_ID.match(sid):
            await ws.close(code=1008, reason="bad session id")
            return
        await ws.accept()
        try:
            session = await server.attach(sid)
        except TooManySessions as e:
            await ws.send_json(server_error(str(e)))
            await ws.close(code=1013, reason="too many sessions")  # 1013: try again later
            return
        if session.connection is not None:  # the same session from a new socket: the old one is stale
            with contextlib.suppress(Exception):
                await session.connection.close(code=1012, reason="session taken over by a new connection")
        if session.pump_task is not None:
            session.pump_task.cancel()  # only one socket takes messages off the session's queue
        session.connection = ws
        if session.busy:  # before the pump starts, so it comes ahead of the rest of the reply
            await session.send(ws, BUSY)
        pump = session.pump_task = asyncio.create_task(session.pump(ws))
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                try:
                    if msg.get("bytes") is not None:
                        session.handle_bytes(msg["bytes"])
                        continue
                    try:
                        data = json.loads(msg.get("text") or "")
                    except ValueError:
                        raise ClientError("messages must be JSON") from None
                    session.handle(data)
                except ClientError as e:
                    session.emit_now(server_error(str(e)))
        except WebSocketDisconnect:
            pass
        except Exception as e:  # a bug of ours: say so and close properly, never just drop the socket
            with contextlib.suppress(Exception):
                await session.send(ws, server_error(f"internal server error: {type(e).__name__}: {e}"))
                await ws.close(code=1011, reason="internal server error")
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
            if session.connection is ws:
                session.connection = None
                await server.detach(session)

    @app.get("/heartbeat")
    async def heartbeat() -> dict[str, str]:
        return {"status": "alive"}

    @app.post("/settings")
    async def post_settings(request: Request) -> JSONResponse:
        try:
            payload = json.loads(await bodies.read_limited(request, SETTINGS_LIMIT))
        except bodies.TooLarge as e:
            return _error(413, f"settings too large: {e}")
        except ValueError:
            return _error(400, "the body must be JSON")
        try:
            target = _settings_target(server, request)
            clean = settings_mod.validate(payload, server.config.allow_unsafe_settings)
            settings_mod.apply(target, clean)
        except settings_mod.SettingsError as e:
            return _error(e.status, str(e))
        return JSONResponse({"status": "success", "changed": sorted(clean)})

    @app.get("/settings")
    async def all_settings(request: Request) -> JSONResponse:
        try:
            target = _settings_target(server, request)
        except settings_mod.SettingsError as e:
            return _error(e.status, str(e))
        return JSONResponse({n: settings_mod.read(target, n) for n in settings_mod.readable()})

    @app.get("/settings/{name}")
    async def get_setting(name: str, request: Request) -> JSONResponse:
        try:
            target = _settings_target(server, request)
            return JSONResponse({name: settings_mod.read(target, name)})
        except settings_mod.SettingsError as e:
            return _error(e.status, str(e))

    @app.put("/files/{name}")
    async def upload(name: str, request: Request) -> JSONResponse:
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".")
        if not safe:
            return _error(400, "bad file name")
        root = server.config.upload_dir
        root.mkdir(parents=True, exist_ok=True)
        try:  # streamed to disk: memory stays flat whatever the client sends
            size = await bodies.save_limited(request, root / safe, bodies.max_upload())
        except bodies.TooLarge as e:
            return _error(413, f"upload too large: {e}")
        return JSONResponse({"path": str(root / safe), "name": safe, "bytes": size})

    from oi_local.server.openai_api import add_openai_routes

    add_openai_routes(app, server)
    return app


def _settings_target(server: "Server", request: Request) -> Any:
    """`?session=ID` changes one live conversation; otherwise the defaults new conversations get."""
    sid = request.query_params.get("session")
    if sid is None:
        return server.template
    session: Session | None = server.sessions.get(sid)
    if session is None:
        raise settings_mod.SettingsError(404, f"no session {sid!r}")
    return session.interp


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": {"message": message}}, status_code=status)
