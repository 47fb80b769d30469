"""Error types every part shares (below core, llm, computer, local, terminal and server).

Each carries a one-line message for the user; the terminal and the server print it as it is.
"""
from __future__ import annotations


class LLMError(RuntimeError):
    """A model back end failed in a way the user can fix (bad path, server down, corrupt file)."""


class SettingError(ValueError):
    """A value a setting cannot take; the message is one line naming the setting."""
