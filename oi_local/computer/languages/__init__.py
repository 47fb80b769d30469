"""Built-in languages of the computer. Each is a class following the custom-language protocol
(`name`, `aliases`, `run(code)` yielding LMC chunks, `stop()`, `terminate()`). A language whose
runtime may be missing has `available()` and `install_hint`; it is on by default only when
available, and a block written in it otherwise gets its install hint instead of silence."""
from __future__ import annotations

from typing import Any

from .base import SubprocessLanguage
from .html import HTML
from .javascript import JavaScript
from .powershell import PowerShell
from .python import Python
from .r import R
from .shell import Shell

# Language classes (duck-typed: name, aliases, run; not all are subprocess languages).
ALL_LANGUAGES: list[Any] = [Python, Shell, JavaScript, R, HTML, PowerShell]
DEFAULT_LANGUAGES: list[type] = [c for c in ALL_LANGUAGES if getattr(c, "available", lambda: True)()]
# Languages the seed documents name that oi-local does not run, and why.
UNSUPPORTED: dict[str, str] = {
    "applescript": "AppleScript runs only on macOS, and oi-local does not run it yet.",
    "ruby": "oi-local does not run Ruby.",
    "java": "oi-local does not run Java.",
    "react": "oi-local does not run React components.",
}


def known_names() -> dict[str, str]:
    """Every name or alias of a language we know of, whether it runs here or not -> its name."""
    names = {k: k for k in UNSUPPORTED}
    for cls in ALL_LANGUAGES:
        for alias in [cls.name, *cls.aliases]:
            names[alias.lower()] = cls.name
    return names


def missing_note(name: str, available: list[str]) -> str:
    """One line for a block in a language this computer cannot run."""
    key = name.strip().lower()
    for cls in ALL_LANGUAGES:
        if key == cls.name or key in (a.lower() for a in cls.aliases):
            hint = getattr(cls, "install_hint", "")
            return f"Language {name!r} is not available here. {hint} Available: {', '.join(available)}."
    why = UNSUPPORTED.get(key, "")
    return f"Language {name!r} is not available here. {why + ' ' if why else ''}Available: {', '.join(available)}."


__all__ = ["ALL_LANGUAGES", "DEFAULT_LANGUAGES", "HTML", "JavaScript", "PowerShell", "Python", "R", "Shell",
           "SubprocessLanguage", "known_names", "missing_note"]
