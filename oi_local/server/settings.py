"""Which settings a client may read or change over HTTP (the `http` column of oi_local/settings.py).

The original let `/settings` change anything, including auto_run, which turns a chat client into
remote code execution without confirmation. Here harmless settings are open; the ones that decide
what runs, what the model is told to do, where data goes, or which keys are used need
`allow_unsafe_settings` at server start. API keys are never readable.
"""
from __future__ import annotations

from typing import Any

from oi_local import settings as schema


class SettingsError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _access(name: str) -> str | None:
    setting = schema.BY_KEY.get(name)
    return setting.http if setting is not None else None


def readable() -> list[str]:
    return sorted(s.key for s in schema.SETTINGS if s.http in (schema.OPEN, schema.PRIV))


def flatten(payload: Any) -> dict[str, Any]:
    """{"llm": {"model": "x"}, "auto_run": true} -> {"llm.model": "x", "auto_run": true}."""
    if not isinstance(payload, dict):
        raise SettingsError(400, "settings must be a JSON object")
    return schema.flatten(payload)


def check_open(name: str, value: Any) -> Any:
    """A value for a setting any client may change (per-request parameters); ValueError otherwise."""
    if _access(name) != schema.OPEN:
        raise ValueError(f"{name} cannot be changed per request")
    return schema.check(name, value)


def validate(payload: Any, allow_unsafe: bool) -> dict[str, Any]:
    """Check every setting before any is applied, so a refused request changes nothing."""
    flat = flatten(payload)
    unknown = [k for k in flat if _access(k) is None]
    if unknown:
        raise SettingsError(400, f"unknown or unsupported setting(s): {', '.join(sorted(unknown))}")
    locked = [k for k in flat if _access(k) != schema.OPEN and not allow_unsafe]
    if locked:
        raise SettingsError(403, f"setting(s) {', '.join(sorted(locked))} can only be changed when the server "
                                 "is started with INTERPRETER_ALLOW_UNSAFE_SETTINGS=true")
    clean: dict[str, Any] = {}
    for k, v in flat.items():
        try:
            clean[k] = schema.check(k, v)
        except schema.SettingError as e:
            raise SettingsError(400, str(e)) from None
    return clean


def apply(interp: Any, clean: dict[str, Any]) -> None:
    if "computer.languages" in clean:  # resolve first: a bad name must refuse the whole request
        clean = dict(clean)
        clean["computer.languages"] = _languages(interp, clean["computer.languages"])
    for name, value in clean.items():
        schema.assign(interp, name, value)


def _languages(interp: Any, names: Any) -> list[Any]:
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise SettingsError(400, "computer.languages: expected a list of language names")
    have = {str(getattr(c, "name", "")).lower(): c for c in interp.computer.languages}
    missing = [n for n in names if n.lower() not in have]
    if missing:
        raise SettingsError(400, f"computer.languages: unknown language(s) {', '.join(missing)}; "
                                 f"available: {', '.join(have)}")
    return [have[n.lower()] for n in names]


def read(interp: Any, name: str) -> Any:
    access = _access(name)
    if access == schema.SECRET:
        raise SettingsError(403, f"{name} is never readable over HTTP")
    if access is None:
        raise SettingsError(404, f"unknown or unsupported setting: {name}")
    value = schema.read(interp, name)
    if name == "computer.languages":
        return [str(getattr(c, "name", c)) for c in value]
    return value
