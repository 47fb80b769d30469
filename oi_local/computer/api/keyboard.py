"""computer.keyboard: type text and press keys or key combinations."""
from __future__ import annotations

import time
from typing import Any

from . import _input


def _flat(keys: tuple[Any, ...]) -> list[str]:
    return [str(k) for item in keys for k in (item if isinstance(item, (list, tuple)) else [item])]


class Keyboard:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    def write(self, text: str, interval: float = 0.0) -> None:
        """Type `text` into the focused window."""
        _input.check_failsafe(self.computer)
        for ch in str(text):
            _input.tap(_input.keysym_of(ch))
            if interval:
                time.sleep(interval)

    def press(self, *keys: Any, presses: int = 1, interval: float = 0.0) -> None:
        """Press and release each key in turn: press("enter"), press("tab", "tab"), press(["a", "b"])."""
        _input.check_failsafe(self.computer)
        syms = [_input.keysym_of(k) for k in _flat(keys)]
        for _ in range(int(presses)):
            for s in syms:
                _input.tap(s)
                if interval:
                    time.sleep(interval)

    def hotkey(self, *keys: Any) -> None:
        """Hold the keys down together, then let go: hotkey("ctrl", "c"); hotkey(" ", "command")."""
        _input.check_failsafe(self.computer)
        names = _flat(keys)
        # Modifiers first, whatever order they were given in (the docs write hotkey(" ", "command")).
        names.sort(key=lambda k: _input.KEYS.get(k.lower()) not in _input.MODIFIERS)
        syms = [_input.keysym_of(k) for k in names]
        pressed = []
        try:
            for s in syms:
                _input.key_event(s, True)
                pressed.append(s)
        finally:
            for s in reversed(pressed):
                _input.key_event(s, False)

    def down(self, key: str) -> None:
        _input.check_failsafe(self.computer)
        _input.key_event(_input.keysym_of(key), True)

    def up(self, key: str) -> None:
        _input.key_event(_input.keysym_of(key), False)
