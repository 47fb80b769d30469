"""A scripted OS-mode model: it reads the newest look at the screen it was sent (the OCR text for a
model without vision, or the screenshot itself, which it reads with OCR like a vision model would)
and answers with the next action. The task: press the "Apply" button, then type "Hello" into the
entry below it, then say it is done."""
from __future__ import annotations

import base64
import io
import re
from typing import Any

SEEN = re.compile(r"'(.*?)' at \((\d+), (\d+)\)")


def _screen(messages: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Text -> centre, from the newest message that holds a look at the screen."""
    for m in reversed(messages):
        content = m.get("content")
        if isinstance(content, list):  # a vision message: read the picture
            for part in content:
                if part.get("type") == "image_url":
                    from PIL import Image

                    from oi_local.computer.api import ocr

                    data = part["image_url"]["url"].split(",", 1)[1]
                    lines = ocr.read(Image.open(io.BytesIO(base64.b64decode(data))))
                    return {line.text: line.center for line, _ in lines}
        elif isinstance(content, str) and SEEN.search(content):
            return {t: (int(x), int(y)) for t, x, y in SEEN.findall(content)}
    return {}


def decide(messages: list[dict[str, Any]]) -> str:
    seen = _screen(messages)
    texts = {t.lower(): xy for t, xy in seen.items()}
    if "applied" not in texts:
        if "apply" not in texts:
            return "I cannot see the Apply button. The task is impossible."
        return "I will press Apply.\n```python\ncomputer.mouse.click('Apply')\n```\n"
    if not any("hello" in t for t in texts):
        x, y = texts["apply"] if "apply" in texts else texts["applied"]
        dy = 45 if "apply" in texts else 88  # the entry is below the button (the label is above it)
        return f"Now the entry.\n```python\ncomputer.mouse.click({x}, {y + dy})\ncomputer.keyboard.write('Hello')\n```\n"
    return "The button is pressed and Hello is typed. The task is done."
