"""The one bridge from the synchronous engine to asyncio.

A turn (`interp.respond(approve)`, a blocking generator of LMC chunks) runs in a daemon thread.
`start` calls `each(chunk)` in that thread for every chunk, `failed(error)` if the turn raised,
and `done()` last, always. `stream` builds on it: an async iterator of the chunks, for
`achat()` and the OpenAI-compatible endpoint; the WebSocket session passes its own `each`.
Setting `stop` ends the turn after the current chunk (and closes the generator, which stops
running code).
"""
from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Iterator

Chunk = dict[str, Any]
Turn = Callable[[], Iterator[Chunk]]  # e.g. lambda: interp.respond(approve), a generator


def start(turn: Turn, stop: threading.Event, name: str, *,
          each: Callable[[Chunk], None], failed: Callable[[BaseException], None],
          done: Callable[[], None]) -> threading.Thread:
    def work() -> None:
        try:
            gen = turn()
            try:
                for c in gen:
                    each(c)
                    if stop.is_set():
                        break
            finally:
                close = getattr(gen, "close", None)  # a generator: closing it stops the running code
                if close is not None:
                    close()
        except BaseException as e:  # reported, never lost
            failed(e)
        finally:
            done()

    thread = threading.Thread(target=work, name=name, daemon=True)
    thread.start()
    return thread


class Failed:
    """The turn raised `error`."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


_DONE = object()


class Stream:
    """`async for item in Stream(...)`: the turn's chunks, then a `Failed` if it raised. The
    caller's `finally` calls `close()` (which sets `stop`) and waits for `thread` as it sees fit."""

    def __init__(self, turn: Turn, stop: threading.Event, name: str) -> None:
        loop = asyncio.get_running_loop()
        self._q: asyncio.Queue[Any] = asyncio.Queue()
        self.stop = stop

        def put(item: Any) -> None:
            try:
                loop.call_soon_threadsafe(self._q.put_nowait, item)
            except RuntimeError:  # the loop closed: nobody is listening any more
                pass

        self.thread = start(turn, stop, name, each=put, failed=lambda e: put(Failed(e)), done=lambda: put(_DONE))

    def __aiter__(self) -> "Stream":
        return self

    async def __anext__(self) -> Chunk | Failed:
        item = await self._q.get()
        if item is _DONE:
            raise StopAsyncIteration
        return item

    def close(self) -> None:
        self.stop.set()
