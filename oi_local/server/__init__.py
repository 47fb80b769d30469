"""Server mode: FastAPI app, WebSocket LMC protocol, OpenAI-compatible endpoint, AsyncInterpreter.

Nothing here is imported on the CLI's start-up path; fastapi loads only when a server is built.
"""
from __future__ import annotations

from typing import Any

__all__ = ["AsyncInterpreter", "Server", "ServerConfig"]


def __getattr__(name: str) -> Any:
    if name == "AsyncInterpreter":
        from oi_local.server.async_interpreter import AsyncInterpreter

        return AsyncInterpreter
    if name == "Server":
        from oi_local.server.server import Server

        return Server
    if name == "ServerConfig":
        from oi_local.server.config import ServerConfig

        return ServerConfig
    raise AttributeError(f"module 'oi_local.server' has no attribute {name!r}")
