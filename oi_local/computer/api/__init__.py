"""The Computer API: `computer.display`, `mouse`, `keyboard`, `clipboard`, `os`, `files`, `skills`,
`vision`, `browser`, `mail`, `calendar`, `contacts`, `sms`.

Each part is a small module, imported on first use (so `import interpreter` stays fast), with its
optional dependencies from the `os` extra. The same parts work in the parent process
(`interpreter.computer.display.view()`) and in the model's Python session, where `computer` is a
`SessionComputer` built from the settings the parent passed in its environment (session.py):
everything here is local, so the session imports the API itself rather than calling back."""
from __future__ import annotations

import importlib
import json
from typing import Any

from .errors import ComputerAPIError, FailSafe, NotAvailable

PARTS = {
    "display": ("display", "Display"), "mouse": ("mouse", "Mouse"), "keyboard": ("keyboard", "Keyboard"),
    "clipboard": ("clipboard", "Clipboard"), "os": ("system", "System"), "files": ("files", "Files"),
    "skills": ("skills", "Skills"), "vision": ("vision", "Vision"), "browser": ("browser", "Browser"),
    "mail": ("mail", "Mail"), "calendar": ("unavailable", "Calendar"), "contacts": ("unavailable", "Contacts"),
    "sms": ("unavailable", "Sms"),
}
ENV = "OI_COMPUTER_API"  # the settings the model's session gets (JSON)

__all__ = ["ComputerAPI", "ComputerAPIError", "FailSafe", "NotAvailable", "PARTS", "ENV"]


class ComputerAPI:
    """Gives a class the API parts as lazily built attributes, and the settings they read."""

    import_computer_api: bool = False
    failsafe: bool = True  # a mouse pushed into a screen corner stops every action
    skills_path: str | None = None
    in_session: bool = False

    def __getattr__(self, name: str) -> Any:
        spec = PARTS.get(name)
        if spec is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        module = importlib.import_module(f"{__name__}.{spec[0]}")
        part = getattr(module, spec[1])(self)
        self.__dict__[name] = part
        return part

    def api_system_message(self, description: str) -> str:
        """The prompt set's description of the API, and the saved skills (listed briefly)."""
        try:
            skills = self.skills.summary()
        except OSError:
            skills = ""
        return "\n\n".join(p for p in (description, skills) if p)

    def session_settings(self) -> dict[str, str]:
        """The environment that gives the model's Python session the same computer settings."""
        vision = self.__dict__.get("vision")
        settings = {
            "emit_images": bool(getattr(self, "emit_images", True)), "offline": bool(getattr(self, "offline", False)),
            "failsafe": bool(self.failsafe), "skills_path": str(self.skills_path) if self.skills_path else None,
            "vision_backend": vision.backend if vision is not None and isinstance(vision.backend, str) else None,
            "vision_locator": vision.locator if vision is not None and isinstance(vision.locator, str) else None,
        }
        return {ENV: json.dumps(settings)}
