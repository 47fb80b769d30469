"""`interpreter --server`: serve the CLI's interpreter (its settings are every conversation's defaults)."""
from __future__ import annotations

import sys
from typing import Any


def serve(interp: Any, host: str | None = None, port: int | None = None, allow_unsafe_settings: bool = False) -> int:
    """Block until Ctrl-C; return the exit code. `allow_unsafe_settings` lets clients change
    auto_run, system_message, languages, model and keys through /settings."""
    try:
        from oi_local.server.server import Server
    except ImportError as e:
        print(f"Server mode needs the server extra: pip install 'oi-local[server]' ({e.name} is missing)", file=sys.stderr)
        return 1
    server = interp.server if hasattr(interp, "spawn") and hasattr(interp, "server") else Server(interp)
    if allow_unsafe_settings:
        server.config.allow_unsafe_settings = True
    try:
        server.run(host=host, port=port)
    except KeyboardInterrupt:
        return 0
    except SystemExit as e:  # uvicorn exits when it cannot bind
        code = e.code if isinstance(e.code, int) else 1
        if code:
            print(f"The server could not start on {server.config.host}:{server.config.port} (is the port in use?)", file=sys.stderr)
        return code
    except OSError as e:
        print(f"The server could not start: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0
