"""Compatibility package: `from interpreter import interpreter, OpenInterpreter` as in Open Interpreter.

The 2023 API used the module itself as the instance (`import interpreter; interpreter.api_key =
...; interpreter.chat()`): names the package does not have are read from and written to the
default instance, so such scripts run unchanged instead of setting a module attribute nobody reads.
"""
from __future__ import annotations

import sys
import types
from typing import Any

import oi_local

__version__ = oi_local.__version__

_OWN = {"interpreter", "OpenInterpreter", "AsyncInterpreter", "__version__"}


def _instance() -> Any:
    return oi_local.__getattr__("interpreter")


def __getattr__(name: str) -> Any:
    if name == "interpreter":  # not getattr: once imported, oi_local.interpreter is also a submodule
        return _instance()
    if name in _OWN:
        return getattr(oi_local, name)
    if name.startswith("__"):  # import machinery probes (__path__, __file__ ...): not the instance's
        raise AttributeError(name)
    return getattr(_instance(), name)


class _Module(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_") or name in _OWN:
            super().__setattr__(name, value)
        else:
            setattr(_instance(), name, value)


sys.modules[__name__].__class__ = _Module
