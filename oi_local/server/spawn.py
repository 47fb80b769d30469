"""One interpreter per conversation, made from the server's template interpreter.

Each copy gets its own messages and its own Computer (so its own Python/shell processes). The
embedded model's worker process is shared: loading a model per client would cost hundreds of MB
each, and the worker serves one request at a time anyway.
"""
from __future__ import annotations

import copy
from typing import Any

from oi_local.core.engine import Engine
from oi_local.settings import copy_into


def _copy(value: Any) -> Any:
    try:
        return copy.deepcopy(value)
    except Exception:  # functions, locks, open handles: share them
        return value


def spawn(template: Engine) -> Any:
    """A new OpenInterpreter with the template's settings and messages, and nothing running."""
    from oi_local.interpreter import OpenInterpreter

    interp = OpenInterpreter()
    # The settings (oi_local/settings.py), as the template stores them; languages are classes or
    # the user's instances, shared like functions.
    copy_into(template, interp, lambda key, v: list(v) if key == "computer.languages" else v if callable(v) else _copy(v))
    interp.messages = _copy(template.messages)
    interp._shared_backend = None
    if template.llm.capabilities().shared:
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
