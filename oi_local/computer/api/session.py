"""`computer` in the model's Python session. The session's driver imports this module the first
time a cell uses the name `computer` (see languages/_python_driver.py); images go to the parent
over the driver's image channel, exactly like matplotlib figures."""
from __future__ import annotations

import json
import os
import sys
import tempfile

from . import ENV, ComputerAPI


class SessionComputer(ComputerAPI):
    in_session = True

    def __init__(self, settings: dict) -> None:
        self.emit_images = bool(settings.get("emit_images", True))
        self.offline = bool(settings.get("offline", False))
        self.failsafe = bool(settings.get("failsafe", True))
        self.skills_path = settings.get("skills_path")
        self.import_computer_api = True
        if settings.get("vision_backend"):
            self.vision.backend = settings["vision_backend"]
        if settings.get("vision_locator"):
            self.vision.locator = settings["vision_locator"]

    def __repr__(self) -> str:
        return "<computer: display, mouse, keyboard, clipboard, os, files, skills, vision, browser, mail, calendar, contacts, sms>"


def emit_image(png: bytes) -> None:
    driver = sys.modules.get("_oi_driver")
    if driver is not None:
        driver.emit_image(png)
        return
    fd, path = tempfile.mkstemp(prefix="screen-", suffix=".png")  # not under our driver: a file instead
    with os.fdopen(fd, "wb") as f:
        f.write(png)
    print(f"[image saved to {path}]")


try:
    _settings = json.loads(os.environ.get(ENV) or "{}")
except ValueError:
    _settings = {}
computer = SessionComputer(_settings)
