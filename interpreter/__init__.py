"""Compatibility package: `from interpreter import interpreter, OpenInterpreter` as in Open Interpreter."""
from __future__ import annotations

from typing import Any

import oi_local

__version__ = oi_local.__version__


def __getattr__(name: str) -> Any:
    if name == "interpreter":  # not getattr: once imported, oi_local.interpreter is also a submodule
        return oi_local.__getattr__("interpreter")
    return getattr(oi_local, name)
