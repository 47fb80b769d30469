"""Safety review (computer/safety.py): forbidden commands are refused in every mode; with
`safe_mode` ask or auto, semgrep's findings are shown (and in auto, high-severity ones block).
Code a person edited at the confirmation is checked for forbidden commands again."""
from __future__ import annotations

from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn


def _review(turn: Turn, block: Block, mode: str) -> Verdict | None:
    from oi_local.computer.safety import review

    found = review(block.lang, block.code, mode, getattr(turn.engine, "forbidden_commands", None))
    if not found.message:
        return None
    return Verdict(note=found.message, stop=found.blocked)


def check(turn: Turn, block: Block) -> Verdict | None:
    return _review(turn, block, getattr(turn.engine, "safe_mode", "off"))


def recheck(turn: Turn, block: Block) -> Verdict | None:
    verdict = _review(turn, block, "off")
    return verdict if verdict and verdict.stop else None


def switched_on(engine: Any) -> bool:
    return getattr(engine, "forbidden_commands", None) != [] or str(getattr(engine, "safe_mode", "off")).lower() != "off"


rule = Rule(
    name="safety review", guards=True, setting="forbidden_commands", off=[], check=check, recheck=recheck, switched_on=switched_on,
    summary="code with a forbidden command (`rm -rf /`, a fork bomb, `mkfs`, ...) is refused in every mode; with "
            "`safe_mode` ask or auto, semgrep's findings are shown first (auto: high-severity ones block); "
            "off only with `safe_mode` off too")
