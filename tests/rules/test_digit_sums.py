"""Digit sums: asked for a number's digits added up, the value printed is summed digit by digit."""
from __future__ import annotations

from scripted import scripted_interpreter

from oi_local.core.rules import digit_sums

from .handmade import block, make_turn

ASK = "What do you get if you add up all the digits of 2 to the power of 100?"


def test_the_digits_of_the_printed_value_are_added_up() -> None:
    interp, model = scripted_interpreter(["```python\nprint(2 ** 100)\n```", "The digits add up to 115."])
    interp.template = "small"
    try:
        out = interp.chat(ASK, display=False)
    finally:
        interp.close()
    assert [str(m["content"]).strip() for m in out if m["type"] == "console"] == ["115"]


def test_code_that_goes_over_the_digits_or_another_question_is_left_alone() -> None:
    assert digit_sums.check(make_turn(ASK), block("print(sum(int(d) for d in str(2 ** 100)))")) is None
    assert digit_sums.check(make_turn("What is 2 to the power of 100?"), block("print(2 ** 100)")) is None
    assert digit_sums.check(make_turn("what is the sum of the digits of 100 factorial?"),
                            block("import math\nprint(math.factorial(100))")) is not None
