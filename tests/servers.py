"""Real llama_cpp.server processes for tests, started once per session and shared.

Tests talk to them over real sockets; nothing here is mocked. A server is stopped (process group
terminated and reaped) by `stop_shared_servers()`, which the session fixtures call at the end.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from oi_local.local.llama_server import RunningServer, start_llama_server

_shared: dict[tuple, RunningServer] = {}


def shared_server(model_path: Path, n_ctx: int = 2048, extra_args: Sequence[str] = ()) -> RunningServer:
    """One llama_cpp.server per (model, n_ctx, args) for the whole session; restarted if it died."""
    key = (str(model_path), n_ctx, tuple(extra_args))
    server = _shared.get(key)
    if server is None or not server.running():
        # Generous: a loaded CI box can take a while to map the model and bind.
        server = start_llama_server(model_path, n_ctx=n_ctx, timeout=120, extra_args=extra_args)
        _shared[key] = server
    return server


def stop_shared_servers() -> None:
    while _shared:
        _, server = _shared.popitem()
        server.stop()
