from __future__ import annotations

from oi_local.core.rules import repeated_code

from .handmade import block, make_turn, ran


def test_code_that_already_ran_this_turn_is_not_run_again() -> None:
    turn = make_turn("What is 2+2?", runs=(ran("print(2 + 2)", "4\n"),))
    verdict = repeated_code.check(turn, block("print(2 + 2)\n"))
    assert verdict is not None and verdict.repeated
    assert repeated_code.check(turn, block("print(2 + 3)")) is None
    assert repeated_code.check(turn, block("print(2 + 2)", lang="javascript")) is None
