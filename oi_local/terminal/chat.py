"""The interactive chat loop in the terminal.

Ctrl-C once stops the running code or the model's reply and returns to the prompt; Ctrl-C twice
within DOUBLE_PRESS seconds exits. Either way the conversation is already on disk (history.py).
"""
from __future__ import annotations

import contextlib
import signal
import sys
import time
from typing import Any, Callable, Iterator

DOUBLE_PRESS = 2.0  # seconds


class LineReader:
    """The input line: prompt_toolkit (history, editing, multi-line) on a terminal, input() otherwise.

    Any entry that starts with ``` continues until a line that ends with ```; with multi_line
    on, Enter adds a line and Esc then Enter (or Alt-Enter) sends.
    """

    def __init__(self, interp: Any) -> None:
        self.interp = interp
        self._session: Any = None
        if sys.stdin.isatty() and sys.stdout.isatty():
            try:
                from prompt_toolkit import PromptSession
                from prompt_toolkit.history import FileHistory

                from oi_local._paths import app_dir

                app_dir().mkdir(parents=True, exist_ok=True)
                self._session = PromptSession(history=FileHistory(str(app_dir() / "input_history")))
            except Exception:
                self._session = None

    def _line(self, prompt: str, multiline: bool = False) -> str:
        if self._session is not None:
            return self._session.prompt(prompt, multiline=multiline,
                                        prompt_continuation=lambda width, n, soft: "." * (width - 1) + " ")
        return input(prompt)

    def read(self) -> str:
        from oi_local.terminal.textio import clean

        return clean(self._read())

    def _read(self) -> str:
        multi = bool(getattr(self.interp, "multi_line", False))
        text = self._line("> ", multiline=multi)
        if text.lstrip().startswith("```"):
            lines = [text]

            def closed() -> bool:
                if len(lines) == 1:  # ```one line``` is complete on its own
                    s = text.strip()
                    return len(s) > 6 and s.endswith("```")
                return lines[-1].rstrip().endswith("```")

            while not closed():
                lines.append(self._line("... "))
            body = "\n".join(lines).strip()
            body = body[3:] if body.startswith("```") else body
            body = body[:-3] if body.endswith("```") else body
            return body.strip("\n")
        return text


@contextlib.contextmanager
def _counting_presses(presses: list[float]) -> Iterator[None]:
    """Note when each Ctrl-C lands: a second press while the first is still being handled (the
    model stopping, the code's process group ending) must still count as a double press."""
    def on_sigint(signum: int, frame: Any) -> None:
        presses.append(time.monotonic())
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread: keep Python's own handler
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interactive_chat(interp: Any, reader: Any = None, say: Callable[[str], None] | None = None) -> None:
    from oi_local.errors import LLMError
    from oi_local.terminal.magic import handle, is_magic

    say = say or (lambda s: print(s, flush=True))
    reader = reader or LineReader(interp)
    say("oi-local: type a request (%help for commands). Ctrl-C stops the current step; twice quickly, or Ctrl-D, exits.")
    last_interrupt = 0.0
    while True:
        try:
            try:
                text = reader.read()
            except EOFError:
                say("")
                return
            except KeyboardInterrupt:
                now = time.monotonic()
                if now - last_interrupt < DOUBLE_PRESS:
                    say("Bye.")
                    return
                last_interrupt = now
                say("(Ctrl-C again to exit)")
                continue
            if not text.strip():
                continue
            last_interrupt = 0.0  # a double press means two presses with nothing in between
            if is_magic(text):
                handle(interp, text, say)
                continue
            presses: list[float] = []
            from oi_local.terminal.attach import chat_stream

            turn = chat_stream(interp, text)
            try:
                with _counting_presses(presses):
                    for _ in turn:
                        pass
            except KeyboardInterrupt:
                # The press may land between two chunks, outside the turn: close it now, so the
                # display stops its live view before anything else is printed.
                close = getattr(turn, "close", None)
                if close is not None:
                    close()
                if len(presses) >= 2 and presses[-1] - presses[-2] < DOUBLE_PRESS:
                    interp.computer.stop()
                    say("\nBye.")
                    return
                last_interrupt = presses[-1] if presses else time.monotonic()
                interp.computer.stop()
                print("\n(stopped; Ctrl-C again to exit)", file=sys.stderr, flush=True)
                from oi_local.terminal.history import close_unfinished_turn

                if close_unfinished_turn(interp.messages) and hasattr(interp, "_record"):
                    interp._record()  # after the message: an fsync can take a while on a busy disk
            except LLMError as e:
                print(f"\nError: {e}", file=sys.stderr, flush=True)
        except KeyboardInterrupt:  # a second Ctrl-C while we were still stopping the first
            say("\nBye.")
            return
