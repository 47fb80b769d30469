"""`python -m oi_local.server`: the server without the terminal UI (what the Dockerfile runs).

Settings come from INTERPRETER_* variables (see config.py) and these few flags; everything else
can be changed per conversation through the allowlisted `/settings`.
"""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m oi_local.server", description="Serve oi-local over WebSocket and HTTP.")
    p.add_argument("--host", help="address to bind (default INTERPRETER_HOST or 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default INTERPRETER_PORT or 8000)")
    p.add_argument("--model", help="model: a .gguf path, a catalog id, or a hosted model name")
    p.add_argument("--api_base", help="an OpenAI-compatible server to use for the model")
    p.add_argument("--auto_run", action="store_true", help="run code without waiting for the client's 'go'")
    args = p.parse_args(argv)
    from oi_local.interpreter import OpenInterpreter
    from oi_local.server.cli import serve

    interp = OpenInterpreter(auto_run=args.auto_run)
    interp.conversation_history = False
    if args.model:
        interp.llm.model = args.model
    if args.api_base:
        interp.llm.api_base = args.api_base
    return serve(interp, args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
