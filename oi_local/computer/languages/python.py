"""Python: a plain persistent `python -u` child (14 ms to start, vs ~0.5 s for a Jupyter kernel)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

from .base import LMC, SubprocessLanguage
from .ipython_lines import translate

_DRIVER = (Path(__file__).with_name("_python_driver.py")).read_text(encoding="utf-8")


class Python(SubprocessLanguage):
    """Cells run in one persistent namespace (`__main__`). A final expression prints its repr,
    top-level `await` works, matplotlib figures come back as base64 PNG images, and `input()`
    raises EOFError with a clear message instead of hanging."""

    name = "python"
    aliases = ["py", "python3", "ipython"]
    sigint_ignored_at_start = True  # the driver installs its handler first thing

    def run(self, code: str, deadline: float | None = None) -> Iterator[LMC]:
        # `!pip install x`, `%cd dir`: notebook lines run as IPython runs them (ipython_lines.py).
        return super().run(translate(code), deadline)

    def _argv(self, cmd_fd: int, ctl_fd: int) -> list[str]:
        # -c (not a file path) so the driver's folder never lands on the code's sys.path.
        return [sys.executable, "-u", "-c", _DRIVER, str(cmd_fd), str(ctl_fd)]

    def _env(self) -> dict[str, str]:
        env = super()._env()
        env["PYTHONUNBUFFERED"] = "1"  # also for Python programs the code starts: true ordering
        env["PYTHONIOENCODING"] = "utf-8"
        env["MPLBACKEND"] = "Agg"  # no GUI; plt.show() is replaced by an image message
        return env
