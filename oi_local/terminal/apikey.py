"""A hosted model without an API key: ask for it once at the terminal (hidden), and offer to keep
it in the profile; where no one can answer, one line saying which variable or flag to set."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from oi_local.llm.backends.litellm_backend import missing_key_names

__all__ = ["ensure_key", "missing_key_names"]


def ensure_key(interp: Any, interactive: bool, profile: Path | None = None) -> bool:
    """True when the chat can go on (a key is set, found, or typed now)."""
    missing = missing_key_names(interp.llm)
    if not missing:
        return True
    name = missing[0]
    if not interactive:
        print(f"Error: {interp.llm.model} needs an API key: set {name} or pass --api_key KEY.", file=sys.stderr)
        return False
    from prompt_toolkit import prompt

    try:
        key = prompt(f"{interp.llm.model} needs an API key ({name}). Paste it here (hidden, Enter to cancel): ",
                     is_password=True).strip()
    except (EOFError, KeyboardInterrupt):
        key = ""
    if not key:
        print(f"No key, no chat: set {name} or pass --api_key KEY.", file=sys.stderr)
        return False
    interp.llm.api_key = key
    if profile is not None and _confirm(f"Save the key in {profile} (stored as plain text)? [y/N] "):
        _save(profile, key)
        print(f"Saved in {profile}.", file=sys.stderr)
    return True


def _confirm(question: str) -> bool:
    from prompt_toolkit import prompt

    try:
        return prompt(question).strip().lower() in ("y", "yes")
    except (EOFError, KeyboardInterrupt):
        return False


def _save(path: Path, key: str) -> None:
    import yaml

    from oi_local.terminal.profiles import _atomic_write

    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    data = data if isinstance(data, dict) else {}
    llm = data.get("llm")
    llm = llm if isinstance(llm, dict) else {}
    data["llm"] = {**llm, "api_key": key}
    data.pop("api_key", None)  # an old flat key would win over the new one on the next load
    _atomic_write(path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
