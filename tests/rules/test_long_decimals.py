from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import long_decimals

from .handmade import failed, make_turn, ran, reply

CODE = "print(sum(h) / len(h))"


def output(text: str) -> dict[str, str]:
    return {"role": "computer", "type": "console", "format": "output", "content": text}


@pytest.mark.parametrize("request_text, places", [
    ("average, to two decimal places", 2), ("to 2dp please", 2), ("give it to 1 decimal", 1),
    ("to three decimals", 3), ("as a whole number", 0), ("what is the average?", None),
    ("the 2 biggest files and their sizes", None), ("How much will the fuel cost? Round to cents.", 2),
    ("to the nearest penny", 2), ("how many cents is a dollar?", None),
])
def test_the_decimals_a_request_asks_for(request_text: str, places: int | None) -> None:
    assert long_decimals.asked_decimals(request_text) == places


def test_a_float_with_all_its_digits_is_followed_by_its_rounded_value() -> None:
    turn = make_turn("what's my average resting heart rate in hr.csv?", output("58.43333333333333\n"),
                     reply("58.43333333333333 is 58.43333333333333."), runs=(ran(CODE, "58.43333333333333\n"),))
    assert long_decimals.finish(turn) == "Rounded to two decimals: 58.43333333333333 is 58.43."
    asked = make_turn("average of the swim times to 1 decimal place?", output("36.437777777777775\n"),
                      reply("The average is 36.437777777777775 seconds."), runs=(ran(CODE, "36.437777777777775\n"),))
    assert long_decimals.finish(asked) == "Rounded to one decimal: 36.437777777777775 is 36.4."


@pytest.mark.parametrize("answer, request_text", [
    ("The average is 58.43.", "what's my average?"),  # already short
    ("51.50735, -0.12776", "where is it?"),  # a measured value, not a float's repr; rounding unasked
    ("58.43333333333333, about 58.43", "what's my average?"),  # the rounded value is said
    ("pi is 3.141593", "pi to 6 decimals?"),  # as many decimals as asked
])
def test_answers_that_need_no_rounding_get_no_line(answer: str, request_text: str) -> None:
    turn = make_turn(request_text, output(answer), reply(answer), runs=(ran(CODE, answer),))
    assert long_decimals.finish(turn) is None


def test_a_failed_turn_gets_no_rounding_line() -> None:
    turn = make_turn("what's my average?", reply("58.43333333333333"), runs=(failed(CODE, "ZeroDivisionError"),))
    assert long_decimals.finish(turn) is None


def test_in_the_loop_the_rounded_value_follows_the_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "hr.csv").write_text("day,bpm\nmon,58\ntue,59\nwed,58.3\n")
    interp, model = scripted_interpreter([
        "```python\nimport csv\nh = [float(r['bpm']) for r in csv.DictReader(open('hr.csv'))]\nprint(sum(h) / len(h))\n```",
        "Your average resting heart rate is 58.43333333333333."])
    interp.template = "small"
    try:
        interp.chat("what's my average resting heart rate in hr.csv?", display=False)
        said = [m["content"] for m in interp.messages if m["role"] == "assistant" and m["type"] == "message"]
        assert said[-2] == "Your average resting heart rate is 58.43333333333333."
        assert said[-1] == "Rounded to two decimals: 58.43333333333333 is 58.43."
        interp.widen_rounding = False
        model.replies.extend(["```python\nprint(sum(h) / len(h))\n```", "It is 58.43333333333333."])
        interp.chat("and again?", display=False)
        assert interp.messages[-1]["content"] == "It is 58.43333333333333."
    finally:
        interp.close()


def test_asked_to_round_to_cents_three_decimals_are_rounded() -> None:
    request = "My car uses 6.4 litres per 100 km at 1.89 a litre. What does a 575 km trip cost? Round to cents."
    turn = make_turn(request, output("69.552\n"), reply("69.552 is 69.552."), runs=(ran(CODE, "69.552\n"),))
    assert long_decimals.finish(turn) == "Rounded to two decimals: 69.552 is 69.55."
