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
# The few-shot example in OS mode: one screen task instead of the prompt set's file tasks.
EXAMPLES = [
    {"role": "user", "content": "Press the OK button.\n\nThe screen now shows (text at the centre x, y of each piece, "
                                "read by OCR):\n'Save changes?' at (400, 300)\n'OK' at (370, 350)\n'Cancel' at (450, 350)"},
    {"role": "assistant", "content": "```python\ncomputer.mouse.click('OK')\n```"},
]


def check(engine: "Engine") -> str | None:
    """Why OS mode cannot start here (one line), or None."""
    from oi_local.computer.api.errors import ComputerAPIError, need_display, need_module

    try:
        need_display()
        for module, package in (("mss", "mss"), ("Xlib", "python-xlib"), ("PIL", "pillow")):
            need_module(module, package)
        if not engine.llm.sees_images():
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
    c.emit_images = bool(engine.llm.sees_images())
    c.after_run = lambda: observe(engine)
    engine.loop = True
    engine.max_code_steps = max(engine.max_code_steps, 20)
    # Worked examples and file previews are about files and data; on a screen task they lead a
    # small model astray (measured: Qwen 0.5B opened a notes.txt from a recipe instead of clicking).
    engine.recipes = 0
    engine.file_hints = False
    if engine.examples:  # a prompt set with few-shot examples (small models) gets a screen one
        engine.examples = [dict(m) for m in EXAMPLES]
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


def attach_look(engine: "Engine") -> None:
    """The screen goes with the user's newest request: as an image message after it, or, for a
    model that cannot see, as text in the same message (one user turn, not two)."""
    _failsafe(engine)
    msg = screen(engine, "user")
    last = engine.messages[-1] if engine.messages else None
    if msg["type"] == "message" and last is not None and last.get("role") == "user" \
            and last.get("type") == "message" and isinstance(last.get("content"), str):
        last["content"] = f"{last['content']}\n\n{msg['content']}".rstrip("\n")
    else:
        engine.messages.append(msg)


def observe(engine: "Engine") -> Iterator[dict[str, Any]]:
    """After each code run: stop if the mouse is in a corner, else one more look."""
    _failsafe(engine)
    time.sleep(SETTLE)
    msg = screen(engine, "computer")
    if msg["type"] == "console":
        msg = {**msg, "content": "\n" + msg["content"]}
    yield msg
