from __future__ import annotations

import pytest

from oi_local.core.rules import offline
from oi_local.core.rules.turn import Run

from .handmade import make_turn, reply

ASK = "my costs are in trip/costs.csv in euros, can you look up today's exchange rate online and give me the total in pounds?"
RAN = (Run("python", "print(1909.15)", "1909.15\n", 0),)


def test_a_request_that_needs_the_internet_ends_saying_nothing_was_looked_up() -> None:
    turn = make_turn(ASK, reply("The total is 1909.15."), runs=RAN)
    assert offline.finish(turn) == offline.NOTE


@pytest.mark.parametrize("request_text, said", [
    (ASK, "I can't go online from here, so I used no rate: the total is 1909.15 euros."),   # says so itself
    ("what is the total of trip/costs.csv?", "The total is 1909.15."),                       # no internet needed
    ("look up Bob's number in contacts.csv", "Bob: 555-0101"),                               # a local look-up
    ("how many online orders are in orders.csv?", "There are 12."),                         # a word of the data
    ("I copied this from the bank's website: when did I pay the dentist? see statement.txt", "On 14 March."),
])
def test_left_alone_when_said_or_not_needed(request_text: str, said: str) -> None:
    assert offline.finish(make_turn(request_text, reply(said), runs=RAN)) is None


def test_left_alone_when_the_person_allowed_the_network() -> None:
    turn = make_turn(ASK, reply("The total is 1630.12 pounds."), runs=RAN)
    turn.engine.computer.allow_network = True
    assert offline.finish(turn) is None


def test_links_in_pasted_text_ask_for_nothing() -> None:
    page = "".join(f"Row {i}: see https://gym.example.com/terms#{i} for the website's terms\n" for i in range(300))
    request = "here are the gym's terms, pasted:\n" + page + "how long is the notice period?"
    assert offline.finish(make_turn(request, reply("30 days."), runs=RAN)) is None
