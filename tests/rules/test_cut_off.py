from __future__ import annotations

from oi_local.core.rules import cut_off

from .handmade import block, make_turn


def test_unfinished_code_is_not_run() -> None:
    turn = make_turn("Print the primes below 100")
    degenerate = cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    # the first repetition is asked afresh (sampled, hidden); the second ends the turn
    assert degenerate is not None and degenerate.again and not degenerate.stop
    assert degenerate.note == cut_off.DEGENERATE_NOTE and degenerate.ask is not None
    assert degenerate.ask.hide and degenerate.ask.sampling["temperature"] > 0
    again = cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    assert again is not None and again.stop and again.note == cut_off.DEGENERATE_NOTE
    turn.engine.llm.last_finish_reason = "length"
    cut = cut_off.check(turn, block("for n in range(", closed=False))
    assert cut is not None and cut.stop and cut.note == cut_off.LENGTH_NOTE


def test_a_closed_block_or_an_unclosed_one_at_a_normal_stop_runs() -> None:
    turn = make_turn("Print the primes below 100")
    turn.engine.llm.last_finish_reason = "stop"
    assert cut_off.check(turn, block("print(2)", closed=False)) is None
    turn.engine.llm.last_finish_reason = "length"
    assert cut_off.check(turn, block("print(2)")) is None
