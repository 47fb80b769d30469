"""Unseen contacts: a phone number, email or street address no file, output or message has is said to be not from the data."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import unseen_contacts

from .handmade import make_turn, reply, scripted_chat

OUTPUT = {"role": "computer", "type": "console", "format": "output", "content": "Priya Nair, Leeds\n"}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "members.csv").write_text("name,city,email\nPriya Nair,Leeds,priya@example.org\nTom Hale,York,tom@example.org\n")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "phones.txt").write_text("Tom Hale: 01904 555 210\n")
    return tmp_path


@pytest.mark.parametrize("said, value", [
    ("Priya's phone number is 555-0142-88.", "555-0142-88"),
    ("You can call her on (0113) 496 0001.", "(0113) 496 0001"),
    ("Her email is priya.nair@leeds.ac.uk.", "priya.nair@leeds.ac.uk"),
    ("She lives at 12 Park Lane.", "12 Park Lane"),
])
def test_a_made_up_contact_is_said_to_be_not_from_the_data(folder: Path, said: str, value: str) -> None:
    turn = make_turn("what is Priya's phone number? members.csv", OUTPUT, reply(said))
    note = unseen_contacts.finish(turn)
    assert note is not None and value in note and "not from your data" in note


@pytest.mark.parametrize("said", [
    "Priya's email is priya@example.org.",           # in members.csv
    "Tom's number is 01904-555-210.",                # in old/phones.txt, written another way
    "Priya lives in Leeds.",                          # no contact at all
    "The meeting was on 2025-03-14 at 10:30.",       # a date and a time are not phone numbers
    "The total is 1,234,567.50 and the id is 20250314.",
    "Call 0800 123 4567 as you said.",               # the person's own message has it (below)
])
def test_contacts_that_are_there_and_other_values_are_left_alone(folder: Path, said: str) -> None:
    turn = make_turn("what is Priya's phone number? members.csv (the helpline is 0800 123 4567)", OUTPUT, reply(said))
    assert unseen_contacts.finish(turn) is None


def test_in_a_chat_the_note_ends_the_turn(folder: Path) -> None:
    messages = scripted_chat(["```python\nimport csv\nprint([r for r in csv.DictReader(open('members.csv')) if r['name'] == 'Priya Nair'])\n"
                              "print(open('old/phones.txt').read())\n```",
                              "Priya Nair lives in Leeds; her phone number is 555-0142-88."],
                             "What is Priya Nair's phone number? It's in members.csv or old/phones.txt")
    said = [m["content"] for m in messages if m["role"] == "assistant" and m["type"] == "message"]
    assert said[-1].startswith("Note: the phone number 555-0142-88 is in none of the files here")
    # Asked of members.csv alone, which has no phone numbers at all, the turn says that first (honest end).
    messages = scripted_chat(["```python\nimport csv\nprint([r for r in csv.DictReader(open('members.csv')) if r['name'] == 'Priya Nair'])\n```",
                              "Priya Nair lives in Leeds; her phone number is 555-0142-88."], "What is Priya Nair's phone number? It's in members.csv")
    said = [m["content"] for m in messages if m["role"] == "assistant" and m["type"] == "message"]
    assert said[-1] == "Note: members.csv never mentions phone number, so that is not in it."
