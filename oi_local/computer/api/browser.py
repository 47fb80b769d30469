"""computer.browser: open pages in the user's web browser (Python's webbrowser / xdg-open)."""
from __future__ import annotations

import sys
import urllib.parse
import webbrowser
from typing import Any

from .errors import ComputerAPIError, need_display


class Browser:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    def open(self, url: str) -> str:
        """Open `url` (or a local file path) in the default browser."""
        if sys.platform.startswith("linux"):
            need_display()  # without one, webbrowser may pick a text browser that takes the terminal over
        if "://" not in url and not url.startswith(("/", "~")):
            url = "https://" + url
        try:
            opened = webbrowser.get().open(url)
        except webbrowser.Error:
            opened = False
        if not opened:
            raise ComputerAPIError("no web browser found: install one (e.g. apt-get install firefox-esr) or set BROWSER")
        return url

    def search(self, query: str) -> str:
        """Open a web search for `query` in the browser (needs the internet)."""
        if getattr(self.computer, "offline", False):
            raise ComputerAPIError("browser.search needs the internet, and this computer is offline (computer.offline); "
                                   "use computer.files.search for local files")
        return self.open("https://duckduckgo.com/?q=" + urllib.parse.quote_plus(str(query)))
