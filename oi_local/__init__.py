"""oi-local: an Open Interpreter that runs on your own machine, offline, with local models.

Importing this package is cheap: the model back ends, rich and litellm load only when used.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["OpenInterpreter", "AsyncInterpreter", "interpreter", "__version__"]

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.interpreter import OpenInterpreter

_default: Any = None


def __getattr__(name: str) -> Any:
    # Lazy so that `interpreter --version` never pays for building an instance.
    global _default
    if name == "OpenInterpreter":
        from oi_local.interpreter import OpenInterpreter

        return OpenInterpreter
    if name == "AsyncInterpreter":  # fastapi loads only when its server is built
        from oi_local.server.async_interpreter import AsyncInterpreter

        return AsyncInterpreter
    if name == "interpreter":
        if _default is None:
            from oi_local.interpreter import OpenInterpreter

            _default = OpenInterpreter()
        return _default
    raise AttributeError(f"module 'oi_local' has no attribute {name!r}")
