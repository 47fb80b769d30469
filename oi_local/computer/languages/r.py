"""R: a persistent `Rscript` child; each top-level expression prints its value when visible."""
from __future__ import annotations

import shutil
from pathlib import Path

from .base import SubprocessLanguage

_DRIVER = str(Path(__file__).with_name("_r_driver.R"))


class R(SubprocessLanguage):
    name = "r"
    aliases = ["R", "rscript"]
    install_hint = "R is not installed: install it (Debian/Ubuntu: apt install r-base-core; macOS: brew install r)."

    @staticmethod
    def available() -> bool:
        return shutil.which("Rscript") is not None

    def _argv(self, cmd_fd: int, ctl_fd: int) -> list[str]:
        return [shutil.which("Rscript") or "Rscript", "--vanilla", _DRIVER, str(cmd_fd), str(ctl_fd)]
