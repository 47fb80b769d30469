"""Request bodies read with a size limit, so a client cannot make the server hold more than the
limit in memory (or on disk) before it is refused with 413."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

DEFAULT_MAX_UPLOAD = 50 * 1024 * 1024
# After the limit is passed, read (and drop) up to this much more so that a client that does not
# wait for `Expect: 100-continue` sees the 413 rather than a broken pipe; beyond it, hang up.
_DRAIN = 8 * 1024 * 1024


class TooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"the body is larger than the limit of {limit} bytes "
                         "(INTERPRETER_MAX_UPLOAD_BYTES sets it)")
        self.limit = limit


def max_upload() -> int:
    try:
        return int(os.environ.get("INTERPRETER_MAX_UPLOAD_BYTES", DEFAULT_MAX_UPLOAD))
    except ValueError:
        return DEFAULT_MAX_UPLOAD


def _declared(request: Any) -> int | None:
    try:
        return int(request.headers.get("content-length", ""))
    except ValueError:
        return None


async def _drain(request: Any) -> None:
    dropped = 0
    try:
        async for chunk in request.stream():
            dropped += len(chunk)
            if dropped > _DRAIN:
                break
    except Exception:  # noqa: BLE001 - the client went away: nothing left to drain
        pass


async def read_limited(request: Any, limit: int) -> bytes:
    """The whole body, or TooLarge once it passes `limit` bytes (before reading it all)."""
    declared = _declared(request)
    if declared is not None and declared > limit:
        if declared - limit <= _DRAIN:
            await _drain(request)
        raise TooLarge(limit)
    data = bytearray()
    async for chunk in request.stream():
        data.extend(chunk)
        if len(data) > limit:
            await _drain(request)
            raise TooLarge(limit)
    return bytes(data)


async def save_limited(request: Any, target: Path, limit: int) -> int:
    """Stream the body to `target` (via a temporary name in the same folder). Returns its size;
    TooLarge leaves nothing behind."""
    declared = _declared(request)
    if declared is not None and declared > limit:
        if declared - limit <= _DRAIN:
            await _drain(request)
        raise TooLarge(limit)
    partial = target.with_name(f".{target.name}.{os.getpid()}-{id(request)}.part")
    size = 0
    try:
        with open(partial, "wb") as f:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise TooLarge(limit)
                f.write(chunk)
        os.replace(partial, target)
    except TooLarge:
        partial.unlink(missing_ok=True)
        await _drain(request)
        raise
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return size
