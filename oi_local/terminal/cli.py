"""The `interpreter` command. Parsing is plain argparse so `--help` and `--version` stay fast."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import oi_local


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="interpreter",
        description="Open Interpreter, local and offline: chat with a language model that writes and runs code on your machine.",
    )
    p.add_argument("message", nargs="*", help="run this one message non-interactively and exit (also read from stdin when it is not a terminal)")
    g = p.add_argument_group("model")
    g.add_argument("-m", "--model", help="model: a .gguf path or catalog id (embedded llama.cpp), an OpenAI-compatible name with --api_base, or a hosted name via litellm")
    g.add_argument("-ab", "--api_base", help="base URL of an OpenAI-compatible server (Ollama, LM Studio, Jan, llamafile, llama.cpp)")
    g.add_argument("-ak", "--api_key", help="API key for the model server or hosted provider")
    g.add_argument("-av", "--api_version", help="API version (Azure and similar)")
    g.add_argument("-c", "--context_window", type=int, help="context window in tokens")
    g.add_argument("-x", "--max_tokens", type=int, help="most tokens the model may write per reply")
    g.add_argument("-t", "--temperature", type=float, help="sampling temperature (default 0)")
    g.add_argument("-xo", "--max_output", type=int, help="most characters of code output kept (head and tail)")
    b = p.add_argument_group("behaviour")
    b.add_argument("-y", "--auto_run", action="store_true", default=None, help="run code without asking")
    b.add_argument("-v", "--verbose", action="store_true", default=None, help="show timings, token counts and what was trimmed")
    b.add_argument("--download", action="store_true", help="download the default local model and exit")
    b.add_argument("--version", action="store_true", help="print the version and exit")
    return p


def apply_args(interp: Any, args: argparse.Namespace) -> None:
    """Only flags that were given change settings: defaults never overwrite a profile."""
    for name in ("model", "api_base", "api_key", "api_version", "context_window", "max_tokens", "temperature"):
        value = getattr(args, name, None)
        if value is not None:
            setattr(interp.llm, name, value)
    if args.max_output is not None:
        interp.max_output = args.max_output
    if args.auto_run:
        interp.auto_run = True
    if args.verbose:
        interp.verbose = True


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.version:
        print(f"oi-local {oi_local.__version__}")
        return 0
    if args.download:
        from oi_local.terminal.firstrun import download_default

        return download_default()

    from oi_local.interpreter import OpenInterpreter
    from oi_local.llm.backends.base import LLMError

    interp = OpenInterpreter()
    interp.in_terminal_interface = True
    apply_args(interp, args)

    message = " ".join(args.message).strip()
    if not message and not sys.stdin.isatty():
        message = sys.stdin.read().strip()
    try:
        from oi_local.terminal.firstrun import ensure_model

        if not ensure_model(interp, interactive=not message and sys.stdin.isatty()):
            return 1
        if message:
            try:
                interp.chat(message)
            except LLMError as e:
                print(f"Error: {e}", file=sys.stderr)
                return 1
            except KeyboardInterrupt:
                print("\nInterrupted.", file=sys.stderr)
                return 130
            return 0
        from oi_local.terminal.chat import interactive_chat

        interactive_chat(interp)
        return 0
    finally:
        interp.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
