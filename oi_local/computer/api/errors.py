"""Errors of the Computer API: one line that says why and what to install or set."""
from __future__ import annotations

import os
import shutil
import sys
from typing import Any

EXTRA = "pip install 'oi-local[os]'"


class ComputerAPIError(RuntimeError):
    """A Computer API call that cannot work here; str(e) is one line for the user."""


class NotAvailable(ComputerAPIError):
    """The platform has no local equivalent of this part."""


class FailSafe(ComputerAPIError):
    """The mouse is in a screen corner: every action stops (like pyautogui's failsafe)."""


class FailSafeStop(KeyboardInterrupt):
    """OS mode found the mouse in a screen corner after a step: stop like Ctrl-C does."""


def not_available(what: str, why: str) -> NotAvailable:
    return NotAvailable(f"{what} is not available on this platform: {why}")


def need_module(name: str, package: str | None = None) -> Any:
    """Import an optional dependency, or say which extra installs it."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise ComputerAPIError(f"the Computer API needs {package or name} ({e.name or name} is missing): {EXTRA}") from None


def need_display() -> None:
    """The screen, mouse and keyboard need a graphical session."""
    if sys.platform in ("darwin", "win32"):
        return
    if os.environ.get("DISPLAY"):
        return
    if os.environ.get("WAYLAND_DISPLAY"):
        raise ComputerAPIError("no X display: Wayland is not supported; run under XWayland with DISPLAY set (e.g. DISPLAY=:0)")
    raise ComputerAPIError("no display: DISPLAY is not set (run inside a desktop session, or start Xvfb and set DISPLAY=:99)")


def need_tool(name: str, apt: str) -> str:
    path = shutil.which(name)
    if not path:
        raise ComputerAPIError(f"{name} is not installed: apt-get install {apt}")
    return path


def display_error(e: BaseException) -> ComputerAPIError:
    """What an X connection failure means, in one line."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    disp = os.environ.get("DISPLAY", "")
    number = disp.partition(":")[2].partition(".")[0] if disp.startswith(":") else ""
    # A local server that is there but refused us: the connection needs its cookie.
    refused = number.isdigit() and os.path.exists(f"/tmp/.X11-unix/X{number}")
    if refused or "authoriz" in text.lower() or "permission" in text.lower():
        return ComputerAPIError(f"no permission to use display {disp}: set XAUTHORITY to the X server's cookie file "
                                f"(or run `xhost +SI:localuser:$USER` in the desktop session)")
    return ComputerAPIError(f"cannot open display {disp or '(unset)'}: {text}")
