"""Built-in languages of the computer. Each is a class following the custom-language protocol
(`name`, `aliases`, `run(code)` yielding LMC chunks, `stop()`, `terminate()`)."""
from __future__ import annotations

from .base import SubprocessLanguage
from .javascript import JavaScript
from .python import Python
from .shell import Shell

DEFAULT_LANGUAGES: list[type] = [Python, Shell, JavaScript]

__all__ = ["DEFAULT_LANGUAGES", "JavaScript", "Python", "Shell", "SubprocessLanguage"]
