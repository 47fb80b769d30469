from __future__ import annotations

import pytest

from oi_local.core.rules import code_first

from .handmade import make_turn, reply


def test_a_guess_is_asked_once_for_code_afresh() -> None:
    turn = make_turn("What is 349808 * 38490739 exactly?", reply("It is 13."), code_first=True, prefill_code=True)
    ask = code_first.follow_up(turn)
    assert ask is not None and ask.text == code_first.NUDGE and ask.hide
    assert ask.sampling == {"reply_prefix": "```python\n"}
    turn.first = False  # the second reply of the turn is left alone
    assert code_first.follow_up(turn) is None


@pytest.mark.parametrize("request_text, said", [
    ("What is 349808 * 38490739 exactly?", "Do you mean the product?"),   # asks back
    ("hello", "Hi!"),                                                      # too short to need code
    ("Explain what a Python decorator does", "A decorator wraps a function."),  # prose is right
    ("Delete the old logs in my folder", "I would rather not."),           # may be destructive
])
def test_questions_chat_and_refusals_are_left_alone(request_text: str, said: str) -> None:
    assert code_first.follow_up(make_turn(request_text, reply(said), code_first=True)) is None


def test_without_a_prose_reply_there_is_nothing_to_redo() -> None:
    assert code_first.follow_up(make_turn("What is 349808 * 38490739 exactly?", code_first=True)) is None


def test_a_reply_that_says_the_request_back_is_no_question() -> None:
    request = ("sorry its long, the backup emails my dad a report every night.\n\n" + "2025-11-01 OK 41 files\n" * 200 +
               "\nwhich night did it last fail, and how many files did it copy that week?")
    said = "I won't do that. sorry its long, the backup emails my dad a report every night. " \
           "which night did it last fail, and how many files did it copy that week?"
    assert code_first.follow_up(make_turn(request, reply(said), code_first=True)) is not None
    assert code_first.follow_up(make_turn(request, reply("Which report do you mean, the last one?"), code_first=True)) is None


@pytest.mark.parametrize("request_text, pushed", [
    ("hi, how many rows does sales.csv have? I need it for a report", True),   # a greeting, then a request
    ("Hello there! what is 349808 * 38490739 exactly?", True),
    ("thanks so much, now add up the totals in q3.csv", True),
    ("hi there, how are you?", False),                                         # only chat
    ("thank you!", False),
])
def test_a_greeting_before_a_request_is_only_politeness(request_text: str, pushed: bool) -> None:
    ask = code_first.follow_up(make_turn(request_text, reply("I won't do that."), code_first=True))
    assert (ask is not None) is pushed


def test_an_answer_citing_a_date_of_the_pasted_lines_shown_stands(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    log = "".join(f"2025-11-{d:02d} 02:00 INFO started\n" + "".join(f"2025-11-{d:02d} 02:0{i} INFO scanned {i}\n" for i in range(8))
                  + f"2025-11-{d:02d} 02:40 {'FAIL exit code 28' if d == 7 else 'OK done'}\n" for d in range(1, 29))
    request = "the backup log, sorry it's long:\n" + log + "did the backup fail on any night? which one and why?"
    right = code_first.follow_up(make_turn(request, reply("It failed on November 7th (exit code 28)."), code_first=True))
    assert right is None  # cited from the FAIL line the model was shown
    guess = code_first.follow_up(make_turn(request, reply("It failed on November 9th."), code_first=True))
    assert guess is not None  # a date no shown line has: asked for code


def test_an_answer_made_only_of_numbers_in_the_sentences_shown_stands(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # ho44 (a development run of session 54): "3948", the new combination from the shown sentence, was pushed to
    # code, which printed a Subject line
    monkeypatch.chdir(tmp_path)
    thread = "\n\n".join(f"Message {i}: the compost is late again and the gate was left open on Sunday." for i in range(60))
    thread += "\n\nMessage 61: I changed the tool shed padlock. The new combination is 3948."
    request = f"Here is our allotment mailing list thread:\n\n{thread}\n\nWhat is the new combination for the tool shed padlock?"
    assert code_first.follow_up(make_turn(request, reply("3948"), code_first=True)) is None
    assert code_first.follow_up(make_turn(request, reply("The combination is 4812."), code_first=True)) is not None
    assert code_first.follow_up(make_turn(request, reply("It is 3948, or maybe 4812."), code_first=True)) is not None
