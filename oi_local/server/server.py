"""`Server`: the FastAPI app plus the conversations it holds, and ways to run it with uvicorn."""
from __future__ import annotations

import asyncio
import sys
import threading
import time
import uuid
from typing import Any

from oi_local.server.config import ServerConfig
from oi_local.server.session import Session, TooManySessions

STOPPING_WAIT = 5.0  # seconds a returning client waits for the reply its leaving stopped


class Server:
    """`template` is the interpreter whose settings every new conversation copies."""

    def __init__(self, template: Any, config: ServerConfig | None = None) -> None:
        from oi_local.server.app import build_app

        self.template = template
        self.config = config or ServerConfig.from_env()
        self.sessions: dict[str, Session] = {}
        self.app = build_app(self)
        self._uvicorn: Any = None

    # ----- conversations -----
    def new_interpreter(self) -> Any:
        from oi_local.server.spawn import spawn

        return spawn(self.template)

    async def attach(self, sid: str | None) -> Session:
        session = self.sessions.get(sid) if sid else None
        if session is None or session.closed:
            await self._make_room()
            interp = await asyncio.to_thread(self.new_interpreter)
            named = sid is not None
            sid = sid or uuid.uuid4().hex
            session = Session(sid, interp, self.config, named, asyncio.get_running_loop())
            self.sessions[sid] = session
        elif not self.config.require_ack and session.busy and session.stop_flag.is_set():
            # The client left mid-reply, which stopped the reply: let it wind down (stopping takes
            # well under a second), then drop what the old socket never got, so the returning
            # client does not read a stale 'complete' as the end of its next message.
            if session.turn is not None:
                await asyncio.to_thread(session.turn.join, STOPPING_WAIT)
        if not self.config.require_ack and not session.busy:
            await asyncio.sleep(0)  # run the turn thread's last hand-offs to this loop
            while not session.outq.empty():
                session.outq.get_nowait()
        # A reply still running (another client is on it, or it would not stop) is not waited
        # for: the new client takes the session over, is told 'busy', and streams the rest.
        session.detached_at = None
        return session

    async def _make_room(self) -> None:
        """At the cap, close the detached conversation that has waited longest (its processes go
        with it); with none detached, refuse the new one."""
        open_now = [s for s in self.sessions.values() if not s.closed]
        if len(open_now) < self.config.max_sessions:
            return
        detached = sorted((s for s in open_now if s.connection is None and s.detached_at is not None),
                          key=lambda s: s.detached_at or 0.0)
        if not detached:
            raise TooManySessions(f"too many conversations: {len(open_now)} are open and in use "
                                  f"(INTERPRETER_MAX_SESSIONS={self.config.max_sessions}); close one first")
        await self.close_session(detached[0])

    async def detach(self, session: Session) -> None:
        """The client went away: stop its running code. An anonymous conversation ends here;
        a named one waits `session_ttl` seconds for the client to come back."""
        session.stop()
        if not session.named:
            await self.close_session(session)
        else:
            session.detached_at = time.monotonic()

    async def close_session(self, session: Session) -> None:
        if self.sessions.get(session.id) is session:
            del self.sessions[session.id]
        await asyncio.to_thread(session.close)

    async def reap_forever(self) -> None:
        while True:
            await asyncio.sleep(min(30.0, max(self.config.session_ttl / 2, 0.5)))
            now = time.monotonic()
            for s in list(self.sessions.values()):
                if s.connection is None and s.detached_at is not None and now - s.detached_at > self.config.session_ttl:
                    await self.close_session(s)

    async def close_all(self) -> None:
        sessions, self.sessions = list(self.sessions.values()), {}
        await asyncio.gather(*(asyncio.to_thread(s.close) for s in sessions), return_exceptions=True)

    # ----- running -----
    def _configure(self, host: str | None, port: int | None) -> None:
        if host:
            self.config.host = host
        if port is not None:
            self.config.port = int(port)

    def banner(self) -> str:
        lines = [f"oi-local server on http://{self.config.host}:{self.config.port}  (WebSocket ws://{self.config.host}:{self.config.port}/)"]
        if self.config.key_generated:
            lines.append(f"API key (generated; set INTERPRETER_API_KEY to choose one): {self.config.api_key}")
        else:
            lines.append("API key: from INTERPRETER_API_KEY")
        lines.append("Clients send it as 'Authorization: Bearer <key>' (WebSocket from a browser: ?api_key=<key>).")
        if self.config.host not in ("127.0.0.1", "localhost", "::1"):
            lines.append(f"Warning: listening on {self.config.host}, not only on this machine. Anyone who has the key can run code here.")
        if self.config.require_ack:
            lines.append("Acknowledgements required (INTERPRETER_REQUIRE_ACKNOWLEDGE).")
        return "\n".join(lines)

    def run(self, host: str | None = None, port: int | None = None, log_level: str = "warning") -> None:
        """Serve until Ctrl-C (blocking)."""
        import uvicorn

        self._configure(host, port)
        print(self.banner(), flush=True)
        uvicorn.run(self.app, host=self.config.host, port=self.config.port, log_level=log_level)

    def start(self, host: str | None = None, port: int | None = 0, log_level: str = "warning") -> "Server":
        """Serve from a background thread (notebooks, tests); port 0 picks a free port.
        Returns when the server accepts connections; `stop()` ends it."""
        import uvicorn

        self._configure(host, port)
        config = uvicorn.Config(self.app, host=self.config.host, port=self.config.port, log_level=log_level)
        server = uvicorn.Server(config)
        setattr(server, "install_signal_handlers", lambda: None)  # not the main thread (older uvicorn)
        thread = threading.Thread(target=server.run, name="oi-server", daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start on {self.config.host}:{self.config.port}")
            time.sleep(0.01)
        sockets = [s for srv in server.servers for s in srv.sockets]
        if sockets:
            self.config.port = sockets[0].getsockname()[1]
        self._uvicorn = (server, thread)
        return self

    def stop(self) -> None:
        if self._uvicorn is None:
            return
        server, thread = self._uvicorn
        server.should_exit = True
        thread.join(timeout=30)
        self._uvicorn = None

    @property
    def url(self) -> str:
        return f"http://{self.config.host}:{self.config.port}"


def eprint(*args: Any) -> None:
    print(*args, file=sys.stderr, flush=True)
