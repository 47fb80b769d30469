"""Server settings: from arguments first, then INTERPRETER_* environment variables, then safe defaults.

Defaults are the safe ones: bind 127.0.0.1, a random key when none is given, no browser origins
except the server's own, privileged settings locked.
"""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ[name])
    except (KeyError, ValueError):
        return default


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        return default


@dataclass
class ServerConfig:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    api_key: str = ""
    key_generated: bool = False  # True when we made the key up (so it is printed at start)
    allowed_origins: list[str] = field(default_factory=list)
    require_ack: bool = False
    ack_timeout: float = 5.0  # seconds before an unacknowledged message is sent again
    ack_attempts: int = 5  # sends of one message before the connection is given up
    ack_window: int = 1  # unacknowledged messages in flight (1: wait for each ack, as documented)
    allow_unsafe_settings: bool = False  # auto_run, system_message, languages, model, keys via /settings
    upload_dir: Path = field(default_factory=Path)
    session_ttl: float = 600.0  # seconds a detached named session is kept for a reconnect
    # Conversations open at once (each holds code sessions and their processes): one key must not
    # be able to start processes without bound. Over it, the oldest detached one is closed first.
    max_sessions: int = 64

    @classmethod
    def from_env(
        cls,
        host: str | None = None,
        port: int | None = None,
        api_key: str | None = None,
        allow_unsafe_settings: bool | None = None,
        upload_dir: str | os.PathLike[str] | None = None,
    ) -> "ServerConfig":
        from oi_local._paths import app_dir

        key = api_key or os.environ.get("INTERPRETER_API_KEY", "").strip()
        generated = not key
        if generated:
            key = secrets.token_urlsafe(24)
        origins = [o.strip().rstrip("/") for o in os.environ.get("INTERPRETER_ALLOWED_ORIGINS", "").split(",") if o.strip()]
        uploads = upload_dir or os.environ.get("INTERPRETER_UPLOAD_DIR") or (app_dir() / "server_uploads")
        return cls(
            host=host or os.environ.get("INTERPRETER_HOST") or DEFAULT_HOST,
            port=int(port or _env_int("INTERPRETER_PORT", DEFAULT_PORT)),
            api_key=key,
            key_generated=generated,
            allowed_origins=origins,
            require_ack=env_flag("INTERPRETER_REQUIRE_ACKNOWLEDGE"),
            ack_timeout=_env_float("INTERPRETER_ACK_TIMEOUT", 5.0),
            ack_attempts=max(1, _env_int("INTERPRETER_ACK_ATTEMPTS", 5)),
            ack_window=max(1, _env_int("INTERPRETER_ACK_WINDOW", 1)),
            allow_unsafe_settings=env_flag("INTERPRETER_ALLOW_UNSAFE_SETTINGS") if allow_unsafe_settings is None else allow_unsafe_settings,
            upload_dir=Path(uploads).expanduser().resolve(),
            session_ttl=_env_float("INTERPRETER_SESSION_TTL", 600.0),
            max_sessions=max(1, _env_int("INTERPRETER_MAX_SESSIONS", 64)),
        )

    def origin_allowed(self, origin: str | None) -> bool:
        """Browsers send Origin; other clients do not. A page may talk to us only from our own
        address or from an origin the operator listed in INTERPRETER_ALLOWED_ORIGINS."""
        if origin is None:
            return True
        origin = origin.strip().rstrip("/")
        if origin in self.allowed_origins or "*" in self.allowed_origins:
            return True
        own = {f"http://{h}:{self.port}" for h in ("127.0.0.1", "localhost", "[::1]", self.host)}
        return origin in own
