"""`OpenInterpreter`: the public class of the spec. The engine plus display and confirmation.

This is the one place that joins core and terminal, so that core never imports the terminal.
"""
from __future__ import annotations

from typing import Any, Iterator

from oi_local.compat2023 import Compat2023
from oi_local.core.engine import Engine
from oi_local.core.lmc import Message
from oi_local.core.rules.destructive import destructive_request
from oi_local.core.rules.turn import last_request


class OpenInterpreter(Compat2023, Engine):
    def __init__(self, **settings: Any) -> None:
        self.conversation_history: bool = True
        self.conversation_filename: str | None = None
        self.conversation_history_path: str | None = None
        self.max_budget: float | None = None
        self.safe_mode: str = "off"
        self.anonymized_telemetry: bool = False  # accepted for compatibility; nothing is ever sent
        self.in_terminal_interface: bool = False
        self.disable_telemetry: bool = True  # spec alias; there is no telemetry at all
        self.forbidden_commands: list[str] | None = None  # regexes refused in every mode; None: the built-in list
        self.speak_messages: bool = False
        self.multi_line: bool = False
        self.spent: float = 0.0  # USD spent on hosted models this session (max_budget)
        self.profile_path: str | None = None
        self.vision: bool = False  # images named in typed requests go with them (terminal/attach.py)
        self.os: bool = False  # OS mode (core/os_mode.py): look at the screen, act, look again
        self._conversation_log: Any = None
        super().__init__(**settings)

    def chat(self, message: Any = None, display: bool = True, stream: bool = False, blocking: bool = True,
             return_messages: bool = False) -> Any:
        """Send a message (str, LMC dict or list of LMC messages) and run the loop.

        Returns the new messages, or with stream=True a generator of LMC chunks.
        With no message and display on, starts an interactive chat in the terminal.
        `return_messages=True` (2023 API) returns the whole conversation, for `load()`.
        """
        if return_messages and not stream:
            self.chat(message, display=display, blocking=blocking)
            return list(self.messages)
        if isinstance(message, str) and message.lstrip().startswith("%"):
            from oi_local.terminal.magic import handle, is_command

            if is_command(message):
                handle(self, message)  # magic commands never reach the model
                return [] if not stream else iter(())
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

    def _start(self, message: Any) -> None:
        super()._start(message)
        if self.os and message is not None:
            from oi_local.core import os_mode

            os_mode.enable(self)
            os_mode.attach_look(self)

    def _streaming_chat(self, message: Any, display: bool) -> Iterator[Message]:
        self._start(message)
        self._record()
        try:
            if not display:
                for c in self.respond(None):
                    if c.get("end") or c.get("type") == "confirmation":
                        self._record()
                    yield c
                return
            from oi_local.terminal.display import Display

            with Display(self) as view:
                # Safe mode turns auto_run off: code is always shown and confirmed; so does a request
                # to destroy files broadly (the user is here to confirm it).
                risky = self.confirm_destructive and destructive_request(last_request(self.messages))
                approve = None if self.auto_run and self.safe_mode == "off" and not risky else view.approve
                for c in self.respond(approve):
                    view.feed(c)
                    if c.get("end") or c.get("type") == "confirmation":
                        self._record()
                    yield c
        finally:
            self._record()  # also on Ctrl-C or an error: what was said so far is kept

    def _record(self) -> None:
        if self.conversation_history and self.messages:
            from oi_local.terminal.history import record

            record(self)

    def stream_reply(self, extra_user: str | None = None, **options: Any) -> Iterator[Message]:
        """The engine's reply, with max_budget checked before the request is sent."""
        if self.max_budget is None:
            yield from super().stream_reply(extra_user, **options)
            return
        from oi_local.core import budget

        prompt_tokens = self._token_counter().total(self.build_prompt(extra_user, options.get("hide")))
        budget.check(self, prompt_tokens)
        written: list[str] = []
        try:
            for c in super().stream_reply(extra_user, **options):
                if isinstance(c.get("content"), str):
                    written.append(c["content"])
                yield c
        finally:
            from oi_local.core.context import TokenCounter

            budget.record(self, prompt_tokens, TokenCounter(None).total([{"role": "assistant", "content": "".join(written)}]))

    def reset(self) -> None:
        super().reset()
        log, self._conversation_log = self._conversation_log, None
        if log is not None:
            log.close()
