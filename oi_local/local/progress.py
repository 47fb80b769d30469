"""Download progress on stderr: one line redrawn on a terminal, a line per tenth in a log or pipe."""
from __future__ import annotations

import sys
from typing import Any


class StderrProgress:
    def __init__(self, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._tenth = -1
        self._wrote = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not total:
            return
        label = stage.split()[0] if stage else ""
        line = f"  {label:<11} {done / 1e6:7.1f} / {total / 1e6:.1f} MB ({100 * done / total:5.1f}%)"
        if self.tty:
            self.stream.write("\r" + line)
            self._wrote = True
        else:
            tenth = int(10 * done / total)
            if tenth == self._tenth:
                return
            self._tenth = tenth
            self.stream.write(line.strip() + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self._wrote:
            self.stream.write("\n")
            self.stream.flush()
            self._wrote = False
