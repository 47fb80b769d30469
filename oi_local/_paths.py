"""Where oi-local keeps its data, and where the bundled templates and catalog live."""
from __future__ import annotations

import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """A bundled data folder (`templates`, `model_catalog`): inside the wheel, or the source checkout."""
    packaged = _PKG / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PKG.parent / name


def app_dir() -> Path:
    """The per-user folder for profiles, conversations and models (OI_LOCAL_HOME overrides)."""
    env = os.environ.get("OI_LOCAL_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("oi-local", appauthor=False))


def models_dir() -> Path:
    env = os.environ.get("OI_LOCAL_MODELS_DIR")
    return Path(env).expanduser() if env else app_dir() / "models"


def conversations_dir() -> Path:
    return app_dir() / "conversations"


def profiles_dir() -> Path:
    return app_dir() / "profiles"
