"""Images for a model that cannot see them: described once (a vision model plugged into
`computer.vision`, else OCR) and sent as text, so an image is never silently dropped."""
from __future__ import annotations

import hashlib
from typing import Any

from oi_local.core.lmc import Message

QUESTION = "Describe this image."


class ImageDescriber:
    def __init__(self, computer: Any, limit: int = 64) -> None:
        self.computer = computer
        self.limit = limit
        self._cache: dict[str, str] = {}  # prompts are rebuilt every step: describe each image once

    def __call__(self, m: Message) -> str:
        key = hashlib.sha1(f"{m.get('format', '')}\0{m.get('content', '')}".encode("utf-8", "replace")).hexdigest()
        text = self._cache.get(key)
        if text is None:
            try:
                text = str(self.computer.vision.query(m, QUESTION)).strip()
            except Exception as e:  # noqa: BLE001 - no Pillow, no OCR, unreadable file: say so, once
                first = (str(e).strip().splitlines() or [type(e).__name__])[0]
                text = f"(it could not be read here: {first})"
            if len(self._cache) >= self.limit:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = text
        return text
