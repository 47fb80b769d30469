from __future__ import annotations

from oi_local.core.rules import missing_module

from .handmade import failed, make_turn, ran, reply

NO_PANDAS = "ModuleNotFoundError: No module named 'pandas'"


def test_a_missing_module_is_asked_once_for_the_standard_library() -> None:
    turn = make_turn("Sum the amount column of sales.csv", reply("pandas is not installed."),
                     runs=(failed("import pandas", NO_PANDAS),), prefill_code=False)
    ask = missing_module.follow_up(turn)
    assert ask is not None and ask.text == missing_module.NUDGE and not ask.hide
    assert missing_module.follow_up(turn) is None  # once a turn


def test_other_failures_and_no_steps_left_are_not_its_business() -> None:
    assert missing_module.follow_up(make_turn("x y z w", runs=(failed("1/0", "ZeroDivisionError: division by zero"),))) is None
    assert missing_module.follow_up(make_turn("x y z w", runs=(ran("print(1)", "1\n"),))) is None
    turn = make_turn("x y z w", runs=(failed("import pandas", NO_PANDAS),), max_code_steps=1)
    assert missing_module.follow_up(turn) is None
