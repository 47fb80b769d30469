"""The interactive chat loop in the terminal."""
from __future__ import annotations

import sys
from typing import Any


def interactive_chat(interp: Any) -> None:
    from oi_local.llm.backends.base import LLMError

    print("oi-local: type a request, Ctrl-C stops the current step, Ctrl-D exits.")
    while True:
        try:
            message = input("> ")
        except EOFError:
            print()
            return
        except KeyboardInterrupt:
            print()
            return
        if not message.strip():
            continue
        try:
            for _ in interp.chat(message, display=True, stream=True):
                pass
        except KeyboardInterrupt:
            interp.computer.stop()
            print("\n(stopped)", file=sys.stderr)
        except LLMError as e:
            print(f"\nError: {e}", file=sys.stderr)
