from __future__ import annotations

from oi_local.core.rules import shell_relabel

from .handmade import block, make_turn


def test_shell_commands_sent_as_python_run_as_shell() -> None:
    turn = make_turn("Make start.sh executable")
    assert shell_relabel.language(turn, block("chmod +x start.sh")) == "shell"
    assert shell_relabel.language(turn, block("print('hi')")) is None
    assert shell_relabel.language(turn, block("chmod +x start.sh", lang="shell")) is None
