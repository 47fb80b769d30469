"""Run a conversation turn (a blocking generator) in a thread and feed its chunks to asyncio."""
from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Iterator

DONE = object()  # the last item of every pump


class Failed:
    """The turn raised; the consumer decides how to report it (never lost)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def pump(turn: Callable[[], Iterator[Any]], cancel: threading.Event, name: str) -> tuple[threading.Thread, asyncio.Queue[Any]]:
    """Start `turn()` in a daemon thread. Its chunks arrive on the queue, then `Failed` if it
    raised, then `DONE`. Setting `cancel` stops it after the current chunk. Call from the loop."""
    loop = asyncio.get_running_loop()
    q: asyncio.Queue[Any] = asyncio.Queue()

    def put(item: Any) -> None:
        try:
            loop.call_soon_threadsafe(q.put_nowait, item)
        except RuntimeError:  # the loop closed: nobody is listening any more
            pass

    def work() -> None:
        try:
            gen = turn()
            try:
                for c in gen:
                    put(c)
                    if cancel.is_set():
                        break
            finally:
                gen.close()
        except BaseException as e:
            put(Failed(e))
        finally:
            put(DONE)

    thread = threading.Thread(target=work, name=name, daemon=True)
    thread.start()
    return thread, q
