"""computer.vision: questions about an image. A vision model answers when one is plugged in;
otherwise the text read from the image by OCR is returned, saying so.

The hook: `computer.vision.backend` is a callable `(png: bytes, question: str) -> str`, or a
string "package.module:function" naming one (a string also reaches the model's Python session,
which is another process). `computer.vision.locator` works the same way for `icon=` targets:
`(png, description) -> (x, y)` in the image's pixels."""
from __future__ import annotations

import base64
import importlib
import io
from pathlib import Path
from typing import Any, Callable

from . import ocr
from .errors import ComputerAPIError, need_module

NO_MODEL = "no vision model is set up (computer.vision.backend)"


def _resolve(hook: Any) -> Callable[..., Any] | None:
    if hook is None or callable(hook):
        return hook
    module, _, attr = str(hook).partition(":")
    try:
        return getattr(importlib.import_module(module), attr or "query")
    except (ImportError, AttributeError) as e:
        raise ComputerAPIError(f"vision backend {hook!r} cannot be loaded: {e}") from None


def to_image(image: Any) -> Any:
    """A PIL image from a path, bytes, a PIL image or an LMC image message."""
    pil = need_module("PIL.Image", "pillow")
    if hasattr(image, "save") and hasattr(image, "size"):
        return image
    if isinstance(image, dict):
        fmt, content = image.get("format", ""), image.get("content", "")
        image = Path(content) if fmt == "path" else base64.b64decode(content)
    if isinstance(image, (bytes, bytearray)):
        return pil.open(io.BytesIO(bytes(image)))
    if isinstance(image, (str, Path)):
        p = Path(image).expanduser()
        if not p.is_file():
            raise FileNotFoundError(f"no such image: {p}")
        return pil.open(p)
    raise ComputerAPIError(f"not an image: {type(image).__name__} (give a path, bytes, a PIL image or an image message)")


class Vision:
    def __init__(self, computer: Any) -> None:
        self.computer = computer
        self.backend: Any = None
        self.locator: Any = None

    def query(self, image: Any = None, question: str = "Describe this image.", screen: int = 0) -> str:
        """Answer `question` about `image` (default: a screenshot)."""
        pic = self.computer.display.screenshot(screen) if image is None else to_image(image)
        fn = _resolve(self.backend)
        if fn is not None:
            from .display import png_bytes

            return str(fn(png_bytes(pic.convert("RGB")), question))
        lines = ocr.read(pic)
        text = "\n".join(line.text for line, _ in sorted(lines, key=lambda lp: (lp[0].y // 10, lp[0].x)))
        return f"({NO_MODEL}, so this is the text in the image, read by OCR:)\n{text or '(no text found)'}"

    def ocr(self, image: Any = None, screen: int = 0) -> list[dict[str, Any]]:
        """Every line of text in the image (default: the screen) with its box."""
        pic = self.computer.display.screenshot(screen) if image is None else to_image(image)
        return [line.as_dict() for line, _ in ocr.read(pic)]

    def locate(self, icon: str, screen: int = 0) -> tuple[int, int]:
        """Where an icon described in words is on the screen (needs a vision locator)."""
        fn = _resolve(self.locator)
        if fn is None:
            raise ComputerAPIError(f"finding an icon needs a vision model: {NO_MODEL.replace('backend', 'locator')}; "
                                   "click on its text (mouse.click('Label')) or on coordinates instead")
        from .display import png_bytes

        pic = self.computer.display.screenshot(screen)
        x, y = fn(png_bytes(pic), icon)
        m = self.computer.display.screens()[screen]
        return int(x) + m["left"], int(y) + m["top"]
