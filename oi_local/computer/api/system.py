"""computer.os: the selected text and desktop notifications."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from typing import Any

from .errors import ComputerAPIError, need_display, need_tool


class System:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    def get_selected_text(self) -> str:
        """The text selected on the screen. Under X it is the PRIMARY selection, read without
        touching the clipboard; elsewhere Ctrl+C is pressed and the clipboard put back."""
        if sys.platform.startswith("linux"):
            need_display()
            for argv in (["xclip", "-o", "-selection", "primary"], ["xsel", "-o", "-p"]):
                if shutil.which(argv[0]):
                    out = subprocess.run(argv, capture_output=True, text=True, timeout=5)
                    return out.stdout if out.returncode == 0 else ""  # nothing selected
            raise ComputerAPIError("no selection program: apt-get install xclip (or xsel)")
        before = self.computer.clipboard.view()
        self.computer.clipboard.copy()
        time.sleep(0.1)
        selected = self.computer.clipboard.view()
        self.computer.clipboard.copy(before)
        return selected

    def notify(self, text: str, title: str = "Open Interpreter") -> None:
        """A desktop notification (notify-send)."""
        tool = need_tool("notify-send", "libnotify-bin")
        out = subprocess.run([tool, str(title), str(text)], capture_output=True, text=True, timeout=10)
        if out.returncode != 0:
            why = (out.stderr or out.stdout).strip().splitlines()
            raise ComputerAPIError(f"notify-send failed: {why[0] if why else 'exit code ' + str(out.returncode)} "
                                   "(a notification daemon must run in the desktop session)")
