"""One interpreter per conversation, made from the server's template interpreter.

Each copy gets its own messages and its own Computer (so its own Python/shell processes). The
embedded model's worker process is shared: loading a model per client would cost hundreds of MB
each, and the worker serves one request at a time anyway.
"""
from __future__ import annotations

import copy
from typing import Any

from oi_local.core.engine import Engine

_OWN = {"messages", "llm", "computer", "_counter", "last_trim", "_server", "_shared_backend"}
_LLM_SKIP = {"_backend", "_backend_key", "last_finish_reason", "last_usage", "last_stats"}
_COMPUTER_SKIP = {"_instances", "_running", "_stop_requested", "_run_id", "last_result"}


def _copy(value: Any) -> Any:
    try:
        return copy.deepcopy(value)
    except Exception:  # functions, locks, open handles: share them
        return value


def spawn(template: Engine) -> Any:
    """A new OpenInterpreter with the template's settings and messages, and nothing running."""
    from oi_local.interpreter import OpenInterpreter

    interp = OpenInterpreter()
    for key, value in template.__dict__.items():
        if key not in _OWN:
            interp.__dict__[key] = _copy(value)
    interp.messages = _copy(template.messages)
    for key, value in template.llm.__dict__.items():
        if key not in _LLM_SKIP:
            interp.llm.__dict__[key] = value if callable(value) else _copy(value)
    for key, value in template.computer.__dict__.items():
        if key == "_languages":
            interp.computer.__dict__[key] = list(value)
        elif key not in _COMPUTER_SKIP:
            interp.computer.__dict__[key] = _copy(value)
    interp._shared_backend = None
    if template.llm.kind() == "embedded":
        try:
            backend = template.llm.backend()
        except Exception:
            backend = None  # e.g. no model file yet: the session reports it on its first message
        if backend is not None:
            interp.llm._backend, interp.llm._backend_key = backend, template.llm._backend_key
            interp._shared_backend = backend
    return interp


def release(interp: Any) -> None:
    """Stop everything the conversation started; leave the shared model running."""
    if getattr(interp, "_shared_backend", None) is not None and interp.llm._backend is interp._shared_backend:
        interp.llm._backend, interp.llm._backend_key = None, None
    try:
        interp.computer.terminate()
    finally:
        interp.llm.close()
