"""The 2023 Python API (`import interpreter; interpreter.model = ...`), mapped to today's settings.

Scripts written for Open Interpreter 0.1 set model options on the interpreter itself and saved
chats with `chat(..., return_messages=True)` / `load(messages)`. Each old name is a property that
reads and writes the new setting, so both spellings stay in step; `OLD_NAMES` is the one list.
"""
from __future__ import annotations

from typing import Any

# old attribute -> (owner, new attribute): owner "llm" is interpreter.llm, "" the interpreter.
OLD_NAMES: dict[str, tuple[str, str]] = {
    "model": ("llm", "model"),
    "api_key": ("llm", "api_key"),
    "api_base": ("llm", "api_base"),
    "api_version": ("llm", "api_version"),
    "temperature": ("llm", "temperature"),
    "context_window": ("llm", "context_window"),
    "max_tokens": ("llm", "max_tokens"),
    "debug_mode": ("", "verbose"),
}


def _alias(owner: str, attr: str) -> property:
    def get(self: Any) -> Any:
        return getattr(getattr(self, owner) if owner else self, attr)

    def set_(self: Any, value: Any) -> None:
        setattr(getattr(self, owner) if owner else self, attr, value)

    where = f"interpreter.{owner + '.' if owner else ''}{attr}"
    return property(get, set_, doc=f"2023 name of {where}.")


class Compat2023:
    """Mixed into OpenInterpreter: the old names as properties, `local`, `load()`."""

    llm: Any
    messages: list[dict[str, Any]]

    @property
    def local(self) -> bool:
        """2023: `interpreter.local = True` ran a local model. True: the embedded default
        model unless a local one is already set; False: nothing to switch off (we stay local)."""
        return bool(self.llm.is_local())

    @local.setter
    def local(self, value: Any) -> None:
        if value and not self.llm.is_local():
            self.llm.model = None
            self.llm.api_base = None

    def load(self, messages: list[dict[str, Any]]) -> None:
        """2023: resume a conversation saved from `chat(..., return_messages=True)`."""
        self.messages = list(messages)


for _old, (_owner, _new) in OLD_NAMES.items():
    setattr(Compat2023, _old, _alias(_owner, _new))
