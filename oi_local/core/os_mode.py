"""OS mode: the loop looks at the screen, the model acts on it through the Computer API, repeat.

It is the ordinary code loop with three additions: the Computer API is in the prompt, the user's
request goes with a look at the screen, and every code run ends with a fresh look (a screenshot
for a model that can see, else the screen's text with positions, from OCR). A mouse pushed into a
screen corner stops it after the current step (and the API refuses actions meanwhile); Ctrl-C
stops it at once. Screens and actions are ordinary messages, so the conversation history keeps them."""
from __future__ import annotations

import base64
import time
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.core.engine import Engine

INSTRUCTIONS = (
    "OS mode: you operate this computer's screen through `computer` in python (mouse, keyboard, display). "
    "After each code block you are shown the screen again. Do one or two actions per block, then look at the result. "
    "Click on visible text with computer.mouse.click(\"text\"). When the whole task is done, say exactly 'The task is done.'"
)
SETTLE = 0.3  # seconds for the screen to redraw after an action


def check(engine: "Engine") -> str | None:
    """Why OS mode cannot start here (one line), or None."""
    from oi_local.computer.api.errors import ComputerAPIError, need_display, need_module

    try:
        need_display()
        for module, package in (("mss", "mss"), ("Xlib", "python-xlib"), ("PIL", "pillow")):
            need_module(module, package)
        if not engine.llm.supports_vision:
            from oi_local.computer.api.ocr import engine_name

            engine_name()
        engine.computer.display.size()
    except ComputerAPIError as e:
        return f"OS mode cannot start: {e}"
    return None


def enable(engine: "Engine") -> None:
    if getattr(engine, "_os_enabled", False):
        return
    c = engine.computer
    c.import_computer_api = True
    c.emit_images = bool(engine.llm.supports_vision)
    c.after_run = lambda: observe(engine)
    engine.loop = True
    engine.max_code_steps = max(engine.max_code_steps, 20)
    if INSTRUCTIONS not in (engine.custom_instructions or ""):
        engine.custom_instructions = "\n\n".join(p for p in (engine.custom_instructions, INSTRUCTIONS) if p)
    engine._os_enabled = True


def _failsafe(engine: "Engine") -> None:
    from oi_local.computer.api import _input
    from oi_local.computer.api.errors import FailSafe, FailSafeStop

    try:
        _input.check_failsafe(engine.computer)
    except FailSafe as e:
        raise FailSafeStop(str(e).replace("every action stops", "OS mode stopped")) from None


def screen(engine: "Engine", role: str) -> dict[str, Any]:
    """One look at the screen as an LMC message from `role`."""
    display = engine.computer.display
    if engine.computer.emit_images:
        from oi_local.computer.api.display import png_bytes

        data = base64.b64encode(png_bytes(display.screenshot())).decode("ascii")
        return {"role": role, "type": "image", "format": "base64.png", "content": data}
    text = f"The screen now shows (text at the centre x, y of each piece, read by OCR):\n{display.text()}\n"
    if role == "user":
        return {"role": "user", "type": "message", "content": text}
    return {"role": role, "type": "console", "format": "output", "content": text}


def look(engine: "Engine") -> list[dict[str, Any]]:
    """The screen, to go with the user's request."""
    _failsafe(engine)
    return [screen(engine, "user")]


def observe(engine: "Engine") -> Iterator[dict[str, Any]]:
    """After each code run: stop if the mouse is in a corner, else one more look."""
    _failsafe(engine)
    time.sleep(SETTLE)
    msg = screen(engine, "computer")
    if msg["type"] == "console":
        msg = {**msg, "content": "\n" + msg["content"]}
    yield msg
