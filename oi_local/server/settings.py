"""Which settings a client may read or change over HTTP.

The original let `/settings` change anything, including auto_run, which turns a chat client into
remote code execution without confirmation. Here harmless settings are open; the ones that decide
what runs, what the model is told to do, where data goes, or which keys are used need
`allow_unsafe_settings` at server start. API keys are never readable.
"""
from __future__ import annotations

from typing import Any, Callable

# dotted name -> converter that validates a client's value
HARMLESS: dict[str, Callable[[Any], Any]] = {}
PRIVILEGED: dict[str, Callable[[Any], Any]] = {}
SECRET = {"llm.api_key"}


class SettingsError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    raise ValueError("expected true or false")


def _int(lo: int, hi: int) -> Callable[[Any], int | None]:
    def conv(v: Any) -> int | None:
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"expected an integer from {lo} to {hi}")
        return v
    return conv


def _float(lo: float, hi: float) -> Callable[[Any], float]:
    def conv(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            raise ValueError(f"expected a number from {lo} to {hi}")
        return float(v)
    return conv


def _text(limit: int) -> Callable[[Any], str]:
    def conv(v: Any) -> str:
        if not isinstance(v, str) or len(v) > limit:
            raise ValueError(f"expected a string of at most {limit} characters")
        return v
    return conv


def _opt_text(limit: int) -> Callable[[Any], str | None]:
    conv = _text(limit)
    return lambda v: None if v is None else conv(v)


def _stops(v: Any) -> list[str] | None:
    if v is None:
        return None
    if not isinstance(v, list) or len(v) > 8 or not all(isinstance(s, str) and 0 < len(s) <= 64 for s in v):
        raise ValueError("expected a list of at most 8 short strings")
    return v


def _choice(*options: str) -> Callable[[Any], str]:
    def conv(v: Any) -> str:
        if v not in options:
            raise ValueError(f"expected one of {', '.join(options)}")
        return v
    return conv


HARMLESS.update({
    "custom_instructions": _text(20_000),
    "llm.temperature": _float(0.0, 2.0),
    "llm.max_tokens": _int(1, 32_768),
    "llm.context_window": _int(256, 1_048_576),
    "llm.stop": _stops,
    "max_output": _int(100, 1_000_000),
    "max_code_steps": _int(1, 50),
    "file_hints": _bool,
    "code_first": _bool,
    "fresh_retries": _int(0, 5),
    "recipes": _int(0, 5),
    "prefill_code": _bool,
    "error_notes": _bool,
    "loop": _bool,
    "verbose": _bool,
})

PRIVILEGED.update({
    "auto_run": _bool,
    "system_message": _text(100_000),
    "user_message_template": _opt_text(20_000),
    "code_output_template": _opt_text(20_000),
    "computer.languages": lambda v: v,  # names; checked against the languages we have in apply()
    "computer.run_timeout": lambda v: None if v is None else _float(0.1, 86_400)(v),
    "llm.model": _opt_text(1000),
    "llm.api_base": _opt_text(1000),
    "llm.api_key": _opt_text(1000),
    "llm.api_version": _opt_text(100),
    "llm.supports_functions": lambda v: None if v is None else _bool(v),
    "llm.supports_vision": _bool,
    "safe_mode": _choice("off", "ask", "auto"),
    "confirm_destructive": _bool,
    "offline": _bool,
})


def flatten(payload: Any, prefix: str = "") -> dict[str, Any]:
    """{"llm": {"model": "x"}, "auto_run": true} -> {"llm.model": "x", "auto_run": true}."""
    if not isinstance(payload, dict):
        raise SettingsError(400, "settings must be a JSON object")
    out: dict[str, Any] = {}
    for key, value in payload.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and name in ("llm", "computer"):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def validate(payload: Any, allow_unsafe: bool) -> dict[str, Any]:
    """Check every setting before any is applied, so a refused request changes nothing."""
    flat = flatten(payload)
    unknown = [k for k in flat if k not in HARMLESS and k not in PRIVILEGED]
    if unknown:
        raise SettingsError(400, f"unknown or unsupported setting(s): {', '.join(sorted(unknown))}")
    locked = [k for k in flat if k in PRIVILEGED and not allow_unsafe]
    if locked:
        raise SettingsError(403, f"setting(s) {', '.join(sorted(locked))} can only be changed when the server "
                                 "is started with INTERPRETER_ALLOW_UNSAFE_SETTINGS=true")
    clean: dict[str, Any] = {}
    for k, v in flat.items():
        try:
            clean[k] = (HARMLESS.get(k) or PRIVILEGED[k])(v)
        except ValueError as e:
            raise SettingsError(400, f"{k}: {e}") from None
    return clean


def _target(interp: Any, name: str) -> tuple[Any, str]:
    obj = interp
    *path, last = name.split(".")
    for part in path:
        obj = getattr(obj, part)
    return obj, last


def apply(interp: Any, clean: dict[str, Any]) -> None:
    if "computer.languages" in clean:  # resolve first: a bad name must refuse the whole request
        clean = dict(clean)
        clean["computer.languages"] = _languages(interp, clean["computer.languages"])
    for name, value in clean.items():
        obj, attr = _target(interp, name)
        setattr(obj, attr, value)


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
    if name in SECRET:
        raise SettingsError(403, f"{name} is never readable over HTTP")
    if name not in HARMLESS and name not in PRIVILEGED:
        raise SettingsError(404, f"unknown or unsupported setting: {name}")
    obj, attr = _target(interp, name)
    value = getattr(obj, attr)
    if name == "computer.languages":
        return [str(getattr(c, "name", c)) for c in value]
    return value
