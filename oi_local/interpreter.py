"""`OpenInterpreter`: the public class of the spec. The engine plus display and confirmation.

This is the one place that joins core and terminal, so that core never imports the terminal.
"""
from __future__ import annotations

from typing import Any, Iterator

from oi_local.core.engine import Engine
from oi_local.core.lmc import Message


class OpenInterpreter(Engine):
    def __init__(self, **settings: Any) -> None:
        self.conversation_history: bool = True
        self.conversation_filename: str | None = None
        self.conversation_history_path: str | None = None
        self.max_budget: float | None = None
        self.safe_mode: str = "off"
        self.anonymized_telemetry: bool = False  # accepted for compatibility; nothing is ever sent
        self.in_terminal_interface: bool = False
        super().__init__(**settings)

    def chat(self, message: Any = None, display: bool = True, stream: bool = False, blocking: bool = True) -> Any:
        """Send a message (str, LMC dict or list of LMC messages) and run the loop.

        Returns the new messages, or with stream=True a generator of LMC chunks.
        With no message and display on, starts an interactive chat in the terminal.
        """
        if message is None and display and not stream:
            from oi_local.terminal.chat import interactive_chat

            interactive_chat(self)
            return self.messages
        if stream:
            return self._streaming_chat(message, display)
        # New messages include the user's own message, as in the original; a list replaces history.
        if isinstance(message, list):
            self._start(message)
            start = len(self.messages)
        else:
            start = len(self.messages)
            self._start(message)
        for _ in self._streaming_chat(None, display):
            pass
        return self.messages[start:]

    def _streaming_chat(self, message: Any, display: bool) -> Iterator[Message]:
        self._start(message)
        if not display:
            yield from self.respond(None)
            return
        from oi_local.terminal.display import Display

        with Display(self) as view:
            approve = None if self.auto_run else view.approve
            for c in self.respond(approve):
                view.feed(c)
                yield c
