from __future__ import annotations

from oi_local.core.rules import fresh_retries

from .handmade import failed, make_turn, ran, reply

ERROR = "NameError: name 'factorial' is not defined"


def test_a_failure_is_retried_afresh_sampled_with_the_error_named_up_to_n_times() -> None:
    turn = make_turn("How many digits does 100 factorial have?", reply("It is 3628800."),
                     runs=(failed("print(factorial(100))", f"Traceback...\n{ERROR}"),), fresh_retries=2)
    first = fresh_retries.follow_up(turn)
    assert first is not None and first.hide and f"A first try failed with: {ERROR}" in (first.text or "")
    assert first.sampling["temperature"] == 0.7 and first.sampling["seed"] == 1
    second = fresh_retries.follow_up(turn)
    assert second is not None and second.sampling["seed"] == 2
    assert fresh_retries.follow_up(turn) is None  # N = 2


def test_no_retry_after_success_nor_for_a_request_that_may_destroy_data() -> None:
    assert fresh_retries.follow_up(make_turn("What is 2+2 in Python?", runs=(ran("print(4)", "4\n"),),
                                             fresh_retries=2)) is None
    turn = make_turn("Delete the cache folder contents", runs=(failed("rm -r cache", "rm: no such file"),),
                     fresh_retries=2)
    assert fresh_retries.follow_up(turn) is None


def test_it_also_answers_code_sent_again() -> None:
    assert fresh_retries.rule.after_repeat
