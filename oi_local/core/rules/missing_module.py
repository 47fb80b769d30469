"""Missing module: small models reach for pandas, then give up ("pandas is not installed"): asked
once, without storing the ask, for a standard-library attempt. Not for a package the user's own
script imports (core/beyond_code.py): no rewrite stands in for it."""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, code_prefix

NUDGE = (
    "That module is not installed here. Reply with a new ```python block that does the same task "
    "without it, using only the Python standard library."
)


def follow_up(turn: Turn) -> Ask | None:
    from oi_local.core.beyond_code import users_module

    last = turn.runs[-1] if turn.runs else None
    if (last is None or "ModuleNotFoundError: No module named" not in last.output or turn.counts["missing module"]
            or not turn.steps_left or users_module(last.output)):
        return None
    turn.counts["missing module"] += 1
    return Ask(NUDGE, code_prefix(turn.engine))


rule = Rule(
    name="missing module", setting="module_fallback", follow_up=follow_up, at_failure=True,
    summary="a run that failed for a module that is not installed, answered without code, is asked once for "
            "code that uses only the standard library, unless a script of the user's imports it")
