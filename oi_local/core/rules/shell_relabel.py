"""Shell relabel: a ```python block that is not Python but shell commands that exist here
(`chmod +x start.sh`, sent as python by small models) runs as shell, and is shown as shell."""
from __future__ import annotations

from oi_local.core.rules.base import Rule
from oi_local.core.rules.turn import Block, Turn


def language(turn: Turn, block: Block) -> str | None:
    from oi_local.core.shellish import is_shell_not_python

    if block.lang == "python" and turn.engine.computer.get_language("shell") is not None \
            and is_shell_not_python(block.code):
        return "shell"
    return None


rule = Rule(
    name="shell relabel", setting="relabel_shell", language=language,
    summary="a ```` ```python ```` block that is not Python but shell commands that exist here (`chmod +x start.sh`) "
            "runs as shell, and is shown as shell")
