from __future__ import annotations

from oi_local.core.rules import repeated_output

from .handmade import make_turn, ran


def test_the_same_output_twice_ends_the_task_with_a_final_answer() -> None:
    turn = make_turn("How many primes are below 10000?", runs=(ran("a", "1229\n"), ran("b", "1229")))
    ask = repeated_output.after_run(turn)
    assert ask is not None and ask.final
    assert repeated_output.after_run(make_turn("x", runs=(ran("a", "1229\n"), ran("b", "1230\n")))) is None
    assert repeated_output.after_run(make_turn("x", runs=(ran("a", ""), ran("b", "")))) is None  # silent code
    assert repeated_output.after_run(make_turn("x", runs=(ran("a", "1229\n"),))) is None
