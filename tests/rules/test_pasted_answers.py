"""Pasted answers: an answer about a pasted text that names a date or number found nowhere is followed by a caution."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import pasted_answers

from .handmade import make_turn, ran, reply, scripted_chat

LOG = "\n".join(f"2025-08-{d:02d} 02:00:0{d % 10} backup[{300 + d}]: job {'FAILED' if d in (3, 9) else 'completed OK'}, "
                f"{d * 137} files" for d in range(1, 29)) * 3
REQUEST = f"my nas sent me this log:\n\n{LOG}\n\nhow many nights did the backup fail?"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _turn(answer: str, output: str) -> object:
    return make_turn(REQUEST, {"role": "computer", "type": "console", "format": "output", "content": output},
                     reply(answer), runs=(ran("print(1)", output),))


def test_a_date_or_number_found_nowhere_is_said_to_be_unchecked() -> None:
    # ho23 (development run): today's date, in no line of the log
    said = pasted_answers.finish(_turn("The backup failed 1 time on 2026-12-07.", "2025-08-03 job FAILED\n"))
    assert said == "Check this against the text you pasted: 7 December 2026 is not in it, nor in anything the code printed."
    said = pasted_answers.finish(_turn("It failed twice and copied 5,000 files.", "2\n"))
    assert said is not None and "5,000 is not in it" in said


@pytest.mark.parametrize("answer", [
    "The backup failed on 2 nights: 3 August and 9 August.",  # dates of the log, a small count
    "It failed on 2025-08-09, when it had 1,233 files.",       # 9 * 137, written with a comma
    "It failed 2 times.",
])
def test_grounded_answers_are_left_alone(answer: str) -> None:
    assert pasted_answers.finish(_turn(answer, "2025-08-03 job FAILED\n2025-08-09 job FAILED\n")) is None


def test_short_requests_and_printed_numbers_are_left_alone() -> None:
    turn = make_turn("what is 12345 * 3?", {"role": "computer", "type": "console", "format": "output", "content": "37035\n"},
                     reply("It is 37035."), runs=(ran("print(12345 * 3)", "37035\n"),))
    assert pasted_answers.finish(turn) is None
    assert pasted_answers.finish(_turn("It copied 4567 files in all.", "4567\n")) is None


def test_the_caution_ends_a_real_turn() -> None:
    out = scripted_chat(["```python\nprint(open(sorted(__import__('glob').glob('pasted-*.txt'))[0]).read().count('FAILED'))\n```",
                         "The backup failed on 2026-12-07."], REQUEST)
    said = [m["content"] for m in out if m["role"] == "assistant" and m["type"] == "message"]
    assert said[-1].startswith("Check this against the text you pasted: 7 December 2026")


def test_an_earlier_grounded_answer_is_shown_beside_the_caution() -> None:
    # ho30 (development run): "on 2025-01-23 ... no space" first, then code that failed, then today's date
    turn = make_turn(REQUEST, reply("It first failed on 2025-08-03, the disk was full."),
                     {"role": "computer", "type": "console", "format": "output", "content": "SyntaxError\n"},
                     reply("It first failed on 2026-12-07."),
                     runs=(ran("print(1)", "2025-08-03 job FAILED\n"),))
    said = pasted_answers.finish(turn)
    assert said is not None and said.endswith('Earlier I said, with dates and numbers that are in the text: "It first failed on 2025-08-03, '
                                              'the disk was full."')


_DAYS = [f"2024-04-{d % 28 + 1:02d} Sam and Priya weeded bed {d % 9 + 1} ({d % 3 + 1} h)." for d in range(300)]
_DAYS[140] = "2024-04-21 New tenants: the Mensah family took plot 27."
GARDEN = "\n".join(["ALDER ROW ALLOTMENTS - WORK LOG"] + _DAYS)
ASK_PLOT = f"Here is our allotment's work log.\n\n{GARDEN}\n\nWhich plot number did the Mensah family get?"


def _plot_turn(answer: str, request: str = ASK_PLOT) -> object:
    return make_turn(request, {"role": "computer", "type": "console", "format": "output", "content": "x\n"},
                     reply(answer), runs=(ran("print(1)", "x\n"),))


def test_a_small_number_on_no_line_with_the_questions_word_is_said_to_be_unchecked() -> None:
    # ho55 (read after session 56's end): "The Okafor family got plot number 1." for plot 27
    turn = _plot_turn("The Mensah family got plot number 1.")
    said = pasted_answers.finish(turn)
    assert said is not None and said.startswith('Check this against the text you pasted: no line of it that mentions "')
    assert "has 1. It says:" in said and "the Mensah family took plot 27." in said


@pytest.mark.parametrize("answer, request_text", [
    ("The Mensah family got plot 27.", ASK_PLOT),  # on the line
    ("Plot twenty-seven.", ASK_PLOT),  # no number
    ("They weeded 3 times.", ASK_PLOT.replace("Which plot number did the Mensah family get?",
                                                "How many times did the Mensah family weed?")),  # a count
])
def test_numbers_where_the_question_points_or_worked_out_are_left_alone(answer: str, request_text: str) -> None:
    assert pasted_answers.finish(_plot_turn(answer, request_text)) is None


FLEET = "\n".join(
    [f"2024-03-{d % 28 + 1:02d} | Depot | Van {d % 9 + 1} washed, tow bar greased | Ola | 1 h" for d in range(70)]
    + ["2024-03-05 | Depot | Old ladder rack replaced, new rack fitted to the flatbed truck, plate LR-1180 | Ola | 2 h",
       "2024-03-19 | Yard | Tow bar bent. New tow bar fitted to the flatbed truck, plate TB-7734 | Kim | 3 h",
       "2024-03-27 | Depot | Worn battery. New battery fitted to the flatbed truck, plate BT-5521 | Ola | 1 h"])
ASK_FLEET = f"Our fleet log:\n\n{FLEET}\n\nWhat's the plate on the new tow bar of the flatbed truck?"


@pytest.mark.parametrize("answer, flagged", [
    ("The plate on the new tow bar is LR-1180.", True),  # read from the ladder rack's line (ho56's dryer for the heater)
    ("The plate on the new tow bar is TB-7734.", False),  # the closest line
    ("It was fitted on 2024-03-19 by Kim.", False),  # no code: a date is another check's
])
def test_a_code_read_from_a_line_further_from_the_question_is_followed_by_the_closest_line(answer: str, flagged: bool) -> None:
    turn = make_turn(ASK_FLEET, reply(answer), runs=(ran("print(1)", FLEET.splitlines()[-3] + "\n"),))
    said = pasted_answers.finish(turn)
    if flagged:
        assert said == ("Check this against the text you pasted: LR-1180 is on a line further from the question than "
                        "this one: \"2024-03-19 | Yard | Tow bar bent. New tow bar fitted to the flatbed truck, plate "
                        "TB-7734 | Kim | 3 h\"")
    else:
        assert said is None
    # asked for the first one, the order of the log is the answer's: not looked at
    first = ASK_FLEET.replace("What's the plate on the new tow bar of the flatbed truck?", "What was the first plate fitted?")
    assert pasted_answers.finish(make_turn(first, reply(answer), runs=(ran("print(1)", "x\n"),))) is None
