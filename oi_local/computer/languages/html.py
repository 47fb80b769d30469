"""HTML: nothing to execute; the page is saved to a file the user can open, and returned as an
`html` message so a program (or the server's client) can render it, as Open Interpreter does."""
from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from typing import Any


class HTML:
    name = "html"
    aliases = ["htm"]

    def __init__(self) -> None:
        self._dir: str | None = None
        self.last_exit_code: int | None = None

    @staticmethod
    def available() -> bool:
        return True

    def run(self, code: str) -> Iterator[dict[str, Any]]:
        if self._dir is None or not os.path.isdir(self._dir):
            self._dir = tempfile.mkdtemp(prefix="oi-html-")
        path = os.path.join(self._dir, f"page-{time.strftime('%H%M%S')}-{os.getpid()}.html")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(code)
        self.last_exit_code = 0
        yield {"type": "code", "format": "html", "content": code}
        yield {"type": "console", "format": "output", "content": f"HTML saved to {path} (open it in a browser to see it).\n"}

    def stop(self) -> None:
        pass

    def terminate(self) -> None:
        pass
