"""computer.mouse: move, click, scroll; a target can be coordinates, text on the screen (found by
OCR) or an icon (needs a vision locator: computer.vision)."""
from __future__ import annotations

import time
from typing import Any

from . import _input
from .errors import ComputerAPIError

BUTTONS = {"left": 1, "middle": 2, "right": 3}


class Mouse:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    @staticmethod
    def _button(name: str) -> int:
        if name not in BUTTONS:
            raise ComputerAPIError(f"unknown mouse button {name!r}: left, right or middle")
        return BUTTONS[name]

    def _target(self, x: Any, y: Any, text: str | None, icon: str | None, screen: int) -> tuple[int, int] | None:
        if isinstance(x, str) and text is None:  # click("Onscreen Text"), as in the docs
            text, x = x, None
        if text is not None:
            found = self.computer.display.find(text, screen=screen)
            if not found:
                seen = [s.split(" at (")[0] for s in self.computer.display.text(screen).splitlines()]
                raise ComputerAPIError(f"{text!r} is not on the screen. Text seen: {'; '.join(seen[:12]) or 'none'}")
            return found[0]["center"]
        if icon is not None:
            return self.computer.vision.locate(icon, screen=screen)
        if x is None and y is None:
            return None
        if x is None or y is None:
            raise ComputerAPIError("give both x and y (or text=... or icon=...)")
        return int(x), int(y)

    def position(self) -> tuple[int, int]:
        """Where the pointer is."""
        return _input.pointer()

    def move(self, x: Any = None, y: Any = None, text: str | None = None, icon: str | None = None, screen: int = 0) -> tuple[int, int]:
        """Move the pointer to (x, y), onto `text` on the screen, or onto `icon`; returns where it is."""
        _input.check_failsafe(self.computer)
        target = self._target(x, y, text, icon, screen)
        if target is not None:
            _input.move_to(*target)
            time.sleep(0.02)  # the window under the pointer sees it arrive before a click
        return self.position()

    def click(self, x: Any = None, y: Any = None, text: str | None = None, icon: str | None = None,
              button: str = "left", clicks: int = 1, screen: int = 0) -> tuple[int, int]:
        """Click where the pointer is, or at (x, y) / on `text` / on `icon`."""
        number = self._button(button)
        where = self.move(x, y, text=text, icon=icon, screen=screen)
        for _ in range(int(clicks)):
            _input.button(number, True)
            _input.button(number, False)
        print(f"clicked {button} at {where}" + (f" x{clicks}" if clicks != 1 else ""))
        return where

    def double_click(self, x: Any = None, y: Any = None, text: str | None = None, icon: str | None = None, screen: int = 0) -> tuple[int, int]:
        return self.click(x, y, text=text, icon=icon, clicks=2, screen=screen)

    def right_click(self, x: Any = None, y: Any = None, text: str | None = None, icon: str | None = None, screen: int = 0) -> tuple[int, int]:
        return self.click(x, y, text=text, icon=icon, button="right", screen=screen)

    def scroll(self, clicks: int, horizontal: int = 0) -> None:
        """Scroll by wheel steps: negative is down (or left), positive is up (or right)."""
        _input.check_failsafe(self.computer)
        for amount, up, down in ((int(clicks), 4, 5), (int(horizontal), 7, 6)):
            for _ in range(abs(amount)):
                _input.button(up if amount > 0 else down, True)
                _input.button(up if amount > 0 else down, False)

    def down(self, button: str = "left") -> None:
        _input.check_failsafe(self.computer)
        _input.button(self._button(button), True)

    def up(self, button: str = "left") -> None:
        _input.button(self._button(button), False)
