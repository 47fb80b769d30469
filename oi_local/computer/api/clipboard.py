"""computer.clipboard: read and set the clipboard (pyperclip, which uses xclip or xsel under X)."""
from __future__ import annotations

import time
from typing import Any

from .errors import ComputerAPIError, need_module


def _pyperclip() -> Any:
    return need_module("pyperclip")


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    pc = _pyperclip()
    try:
        return fn(pc)(*args, **kwargs)
    except pc.PyperclipException as e:
        if "could not find a copy/paste mechanism" in str(e):
            raise ComputerAPIError("no clipboard program: apt-get install xclip (or xsel; wl-clipboard on Wayland)") from None
        raise ComputerAPIError(f"clipboard: {str(e).splitlines()[0]}") from None


class Clipboard:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    def view(self) -> str:
        """The text on the clipboard."""
        return _call(lambda pc: pc.paste)

    def copy(self, text: str | None = None) -> None:
        """Put `text` on the clipboard; without text, copy the selection (Ctrl+C)."""
        if text is None:
            self.computer.keyboard.hotkey("ctrl", "c")
            time.sleep(0.1)
            return
        _call(lambda pc: pc.copy, str(text))
        # xclip serves the selection from a forked child that may take ownership a moment after
        # copy returns; a paste or view right after then got the previous text (CI saw it once).
        deadline = time.monotonic() + 2.0
        while _call(lambda pc: pc.paste) != str(text) and time.monotonic() < deadline:
            time.sleep(0.02)

    def paste(self) -> None:
        """Paste the clipboard into the focused window (Ctrl+V)."""
        self.computer.keyboard.hotkey("ctrl", "v")
