"""computer.display: screenshots (mss), screen sizes, and text found on the screen (OCR)."""
from __future__ import annotations

import base64
import io
import os
import threading
from pathlib import Path
from typing import Any

from . import ocr
from .errors import ComputerAPIError, display_error, need_display, need_module

_local = threading.local()  # an mss handle is tied to the thread that opened it


def _grabber() -> Any:
    need_display()
    handle = getattr(_local, "mss", None)
    if handle is not None and getattr(_local, "display", None) != os.environ.get("DISPLAY"):
        handle.close()  # DISPLAY changed: grab from the new screen
        handle = _local.mss = None
    if handle is None:
        mss = need_module("mss")
        try:
            handle = _local.mss = (getattr(mss, "MSS", None) or mss.mss)()
            _local.display = os.environ.get("DISPLAY")
        except Exception as e:  # ScreenShotError and X errors
            raise display_error(e) from None
    return handle


def png_bytes(image: Any) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


class Display:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    # --- screens ---
    def screens(self) -> list[dict[str, int]]:
        """Every screen: left, top, width, height (in the coordinates the mouse uses)."""
        try:
            monitors = _grabber().monitors
        except ComputerAPIError:
            raise
        except Exception as e:
            raise display_error(e) from None
        return [{k: int(m[k]) for k in ("left", "top", "width", "height")} for m in monitors[1:]] or \
               [{k: int(monitors[0][k]) for k in ("left", "top", "width", "height")}]

    def _monitor(self, screen: int | str | None) -> dict[str, int]:
        if screen == "all":
            m = _grabber().monitors[0]
            return {k: int(m[k]) for k in ("left", "top", "width", "height")}
        screens = self.screens()
        i = 0 if screen is None else int(screen)
        if not 0 <= i < len(screens):
            raise ComputerAPIError(f"no screen {i}: there are {len(screens)} (0 to {len(screens) - 1})")
        return screens[i]

    def size(self, screen: int | str | None = 0) -> tuple[int, int]:
        m = self._monitor(screen)
        return m["width"], m["height"]

    def center(self, screen: int | str | None = 0) -> tuple[int, int]:
        m = self._monitor(screen)
        return m["left"] + m["width"] // 2, m["top"] + m["height"] // 2

    # --- pictures ---
    def screenshot(self, screen: int | str | None = 0, path: str | None = None, region: tuple[int, int, int, int] | None = None) -> Any:
        """The screen as a PIL image; with `path`, saved there as PNG and the path returned.
        `region`: (left, top, width, height) in screen coordinates; screen="all": every screen."""
        image_mod = need_module("PIL.Image", "pillow")
        m = dict(self._monitor(screen))
        if region is not None:
            m = dict(zip(("left", "top", "width", "height"), (int(v) for v in region)))
        try:
            shot = _grabber().grab(m)
        except Exception as e:
            raise display_error(e) from None
        image = image_mod.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")
        if path is not None:
            p = Path(path).expanduser()
            p.parent.mkdir(parents=True, exist_ok=True)
            image.save(p, format="PNG")
            return str(p)
        return image

    def view(self, screen: int | str | None = 0, path: str | None = None) -> Any:
        """Look at the screen. For a model that can see (computer.emit_images): an image message
        (in the model's session the image is shown to it); otherwise the text on the screen.
        With `path`, the screenshot is also saved there and the message refers to the file."""
        if not self.computer.emit_images:
            text = self.text(screen)
            if getattr(self.computer, "in_session", False):
                print(text)
                return None
            return text
        image = self.screenshot(screen)
        data = png_bytes(image)
        if getattr(self.computer, "in_session", False):
            from .session import emit_image

            emit_image(data)
            if path:
                image.save(Path(path).expanduser(), format="PNG")
                print(path)
            return None
        if path:
            p = Path(path).expanduser()
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
            return {"role": "computer", "type": "image", "format": "path", "content": str(p)}
        return {"role": "computer", "type": "image", "format": "base64.png",
                "content": base64.b64encode(data).decode("ascii")}

    # --- text ---
    def _lines(self, screen: int | str | None) -> tuple[list[Any], dict[str, int]]:
        m = self._monitor(screen)
        image = self.screenshot(screen)
        return ocr.read(image), m

    def find(self, text: str, screen: int | str | None = 0) -> list[dict[str, Any]]:
        """Where `text` is on the screen (OCR): boxes in screen coordinates, best match first."""
        lines, m = self._lines(screen)
        boxes = []
        for b in ocr.find(lines, text):
            b.x += m["left"]
            b.y += m["top"]
            boxes.append(b.as_dict())
        boxes.sort(key=lambda b: -b["confidence"])
        return boxes

    def text(self, screen: int | str | None = 0) -> str:
        """All the text on the screen, one line each with where its centre is."""
        lines, m = self._lines(screen)
        if not lines:
            return "(no text found on the screen)"
        lines.sort(key=lambda lp: (lp[0].y // 10, lp[0].x))
        return "\n".join(f"{line.text!r} at ({line.center[0] + m['left']}, {line.center[1] + m['top']})"
                         for line, _ in lines)
