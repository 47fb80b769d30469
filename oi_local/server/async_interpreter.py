"""`AsyncInterpreter`: an OpenInterpreter with an async API and a server (spec: server/usage).

    from interpreter import AsyncInterpreter
    async_interpreter = AsyncInterpreter()
    async_interpreter.server.run(port=8000)

Its own settings are the template every server conversation copies; its own `messages` belong to
`achat()`. The engine is synchronous, so each turn runs in a thread.
"""
from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable

from oi_local.interpreter import OpenInterpreter
from oi_local.server.bridge import Failed, Stream

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.server.server import Server


class AsyncInterpreter(OpenInterpreter):
    def __init__(self, **settings: Any) -> None:
        self._server: Server | None = None
        self._cancel = threading.Event()
        super().__init__(**settings)

    @property
    def server(self) -> "Server":
        """The FastAPI server (built on first use; `.app` for your own routes, `.run(port=...)`)."""
        if self._server is None:
            from oi_local.server.server import Server

            self._server = Server(self)
        return self._server

    def spawn(self) -> OpenInterpreter:
        """A separate OpenInterpreter with these settings (its own messages and code sessions)."""
        from oi_local.server.spawn import spawn

        return spawn(self)

    async def achat(self, message: Any = None, approve: Callable[[dict[str, Any]], Any] | None = None) -> AsyncIterator[dict[str, Any]]:
        """Stream LMC chunks for `message`. Code runs when auto_run is on or `approve(code_message)`
        returns "run"; otherwise it is declined. Leaving the loop early stops the turn."""
        self._start(message)
        cancel = self._cancel = threading.Event()

        def decide(code_msg: dict[str, Any]) -> Any:
            if cancel.is_set():
                return "skip"
            if self.auto_run:
                return "run"
            return approve(code_msg) if approve is not None else "skip"

        stream = Stream(lambda: self.respond(decide), cancel, "oi-async-chat")
        try:
            async for item in stream:
                if isinstance(item, Failed):
                    raise item.error
                yield item
        finally:
            stream.close()
            if stream.thread.is_alive():
                self.stop()
                await asyncio.to_thread(stream.thread.join, 30)

    def stop(self) -> None:
        """Stop the running turn of `achat()` (generation and code)."""
        self._cancel.set()
        self.computer.stop()
