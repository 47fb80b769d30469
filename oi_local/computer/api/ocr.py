"""Text on an image, with where it is. RapidOCR (its models ship inside the wheel: works offline)
when installed, else the tesseract program through pytesseract."""
from __future__ import annotations

import os
import re
import shutil
import threading
from dataclasses import dataclass
from typing import Any

from .errors import EXTRA, ComputerAPIError

_engine: Any = None
_lock = threading.Lock()


@dataclass
class Box:
    """A piece of text and its box in image pixels (x, y: top left)."""

    text: str
    x: int
    y: int
    width: int
    height: int
    confidence: float = 1.0

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.width // 2, self.y + self.height // 2

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "x": self.x, "y": self.y, "width": self.width, "height": self.height,
                "center": self.center, "confidence": round(self.confidence, 3)}


def _rapid():
    global _engine
    with _lock:
        if _engine is None:
            from rapidocr_onnxruntime import RapidOCR

            _engine = RapidOCR()
        return _engine


def _bounds(points: Any) -> tuple[int, int, int, int]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return int(min(xs)), int(min(ys)), int(max(xs) - min(xs)), int(max(ys) - min(ys))


def engine_name() -> str:
    forced = os.environ.get("OI_OCR_ENGINE")  # rapidocr | tesseract
    if forced == "tesseract" or forced == "rapidocr":
        return forced
    try:
        import rapidocr_onnxruntime  # noqa: F401

        return "rapidocr"
    except ImportError:
        pass
    if shutil.which("tesseract"):
        try:
            import pytesseract  # noqa: F401

            return "tesseract"
        except ImportError:
            pass
    raise ComputerAPIError(f"no OCR engine: {EXTRA} (RapidOCR), or apt-get install tesseract-ocr and pip install pytesseract")


def read(image: Any) -> list[tuple[Box, list[Box]]]:
    """Lines of text in a PIL image: (line box, its character or word boxes)."""
    name = engine_name()
    if name == "rapidocr":
        import numpy as np

        result, _ = _rapid()(np.asarray(image.convert("RGB")), return_word_box=True)
        lines = []
        for item in result or []:
            x, y, w, h = _bounds(item[0])
            line = Box(item[1], x, y, w, h, float(item[2]))
            parts = []
            if len(item) > 4 and len(item[3]) == len(item[4]):
                for pts, ch in zip(item[3], item[4]):
                    parts.append(Box(ch, *_bounds(pts)))
            lines.append((line, parts))
        return lines
    import pytesseract

    d = pytesseract.image_to_data(image, output_type=pytesseract.Output.DICT)
    rows: dict[tuple[int, int, int], list[Box]] = {}
    for i, word in enumerate(d["text"]):
        if word.strip():
            key = (d["block_num"][i], d["par_num"][i], d["line_num"][i])
            rows.setdefault(key, []).append(Box(word, d["left"][i], d["top"][i], d["width"][i], d["height"][i],
                                                max(float(d["conf"][i]), 0) / 100))
    lines = []
    for words in rows.values():
        x0 = min(b.x for b in words)
        y0 = min(b.y for b in words)
        x1 = max(b.x + b.width for b in words)
        y1 = max(b.y + b.height for b in words)
        line = Box(" ".join(b.text for b in words), x0, y0, x1 - x0, y1 - y0, min(b.confidence for b in words))
        lines.append((line, words))
    return lines


def _norm(s: str) -> str:
    return re.sub(r"\s+", "", s).lower()


def find(lines: list[tuple[Box, list[Box]]], text: str) -> list[Box]:
    """Boxes of `text` (case and spaces ignored), narrowed to the matching part of each line."""
    want = _norm(text)
    if not want:
        return []
    found = []
    for line, parts in lines:
        hay = _norm(line.text)
        start = hay.find(want)
        if start < 0:
            continue
        # Map the match onto the parts (characters for RapidOCR, words for tesseract).
        spans, pos = [], 0
        for p in parts:
            n = len(_norm(p.text))
            spans.append((pos, pos + n, p))
            pos += n
        hit = [p for a, b, p in spans if a < start + len(want) and b > start] if pos == len(hay) else []
        if hit:
            x0 = min(p.x for p in hit)
            y0 = min(p.y for p in hit)
            x1 = max(p.x + p.width for p in hit)
            y1 = max(p.y + p.height for p in hit)
            found.append(Box(line.text[:0] + text, x0, y0, x1 - x0, y1 - y0, line.confidence))
        else:
            found.append(Box(text, line.x, line.y, line.width, line.height, line.confidence))
    return found
