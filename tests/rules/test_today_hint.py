"""Today hint: the small set's system message has no date; a request that speaks of time gets it."""
from __future__ import annotations

import datetime

import pytest

from oi_local.core.rules import today_hint
from oi_local.interpreter import OpenInterpreter


def test_the_small_system_message_is_the_same_every_day() -> None:
    interp = OpenInterpreter(conversation_history=False)
    interp.template = "small"
    text = interp.full_system_message()
    assert "You are Open Interpreter" in text
    assert datetime.date.today().isoformat() not in text and "{date}" not in text


@pytest.mark.parametrize("request_text", [
    "how many days until christmas?",
    "Which tasks in todo.json are overdue?",
    "what's the average age in people.csv",
    "list the files I changed this week",
    "what day is it today",
    "how many days left until my exam on 2027-01-20?",
    "list the files I changed in the last 3 days",
])
def test_a_request_that_speaks_of_time_gets_the_date(request_text: str) -> None:
    added = today_hint.prompt(None, request_text, "")
    today = datetime.date.today()
    assert added is not None and added.hint == f"Today is {today.isoformat()} (a {today.strftime('%A')})."


@pytest.mark.parametrize("request_text", [
    "how many lines are in notes.txt?",
    "what is 17 * 23",
    "plot prices.csv as prices.png",
    "you may delete tmp.txt",
    "show me the last line of log.txt",
    "copy this file to backup/",
    "What date will it be 100 days after 17 March 2025?",  # a date with its year: today is not needed
    "How many orders were placed in March?",
    "what weekday was 14 July 1789?",
    "In all of that, what is the current combination for the tool shed padlock?",
    "how many files are in there now?",
    "Who's the oldest person in team.json?",
])
def test_other_requests_do_not(request_text: str) -> None:
    assert today_hint.prompt(None, request_text, "") is None


def test_a_pasted_texts_own_time_words_do_not_count() -> None:
    thread = "\n\n".join(f"From: Ann\nDate: Mon {i} Mar\nWe found it left open twice last week, and the "
                         f"new lock arrives next Tuesday. The shed is tidy now." for i in range(1, 60))
    request = f"Our mailing list thread is below.\n\n{thread}\n\nIn all of that, what is the combination for the shed?"
    assert today_hint.prompt(None, request, "") is None


def test_of_words_around_a_pasted_text_only_the_questions_count(tmp_path, monkeypatch) -> None:
    # ho30 (development): "the last few weeks of the backup log" got today's date, and the answer was today's date
    monkeypatch.chdir(tmp_path)
    log = "\n".join(f"[Thu 2025-01-{d:02d} 23:00:0{d % 10}] nas-backup: finished OK" for d in range(1, 29)) * 4
    intro = "Here's the last few weeks of the nightly backup log from our NAS:"
    assert today_hint.prompt(None, f"{intro}\n\n{log}\n\nWhich night did the backup first fail?", "") is None
    asked = today_hint.prompt(None, f"{intro}\n\n{log}\n\nHow many days ago did it last finish OK?", "")
    assert asked is not None and asked.hint.startswith("Today is ")
