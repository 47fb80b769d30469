"""Missing names: a person the named file of people does not hold ends the turn saying so, before any guess runs."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import missing_names

from .handmade import scripted_chat

# the 0.5B model's kind of first try: the file's first row, answered as the person's number
GUESS = "```python\nimport csv\nwith open('contacts.csv') as f:\n    print(next(csv.DictReader(f)))\n```"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "contacts.csv").write_text("name,phone,email\nMark Jenkins,0161 496 0011,mark@example.com\n"
                                           "Karen Jensen,0161 496 0022,karen@example.com\nAli Shah,0161 496 0033,ali@example.com\n")
    (tmp_path / "team.csv").write_text("first,last,role\nPriya,Nair,lead\nTom,Berg,dev\n")
    (tmp_path / "sales.csv").write_text("product,amount\nWidget Pro,12\nGadget Max,30\n")
    return tmp_path


def test_a_person_the_file_does_not_hold_ends_saying_so_with_the_near_misses(here: Path) -> None:
    out = scripted_chat([GUESS, "Mark's number is 0161 496 0011."], "whats Mark Jensen's phone number? its in contacts.csv")
    ran = [str(m["content"]) for m in out if m["role"] == "computer"]
    assert ran == ["Not run: contacts.csv has no Mark Jensen."]  # the guess never ran
    said = [str(m["content"]) for m in out if m["role"] == "assistant" and m["type"] == "message"]
    assert said[-1].startswith("contacts.csv has no one called Mark Jensen, so I cannot answer that from it.")
    assert "Mark Jenkins,0161 496 0011" in said[-1] and "Karen Jensen,0161 496 0022" in said[-1]
    assert "Ali Shah" not in said[-1]


def test_which_requests_and_files_it_acts_on(here: Path) -> None:
    assert missing_names.absent("Can you find Mark Jensen's email in contacts.csv?", here) == (
        "contacts.csv", "Mark Jensen", ["Mark Jenkins,0161 496 0011,mark@example.com", "Karen Jensen,0161 496 0022,karen@example.com"])
    assert missing_names.absent("What does Tom Hale do? see team.csv", here) is not None
    for request in ("What's Mark Jenkins's phone number in contacts.csv?",  # there
                    "what's karen jensen's email in contacts.csv",  # no capitals: no name asked
                    "What does Priya Nair do? see team.csv",  # first and last name in two columns
                    "Add Mark Jensen to contacts.csv with 0161 496 0044",  # a change: the name is to be written
                    "How much did Widget Pro and Ultra Max sell in sales.csv?",  # not a file of people
                    "Hi, how many people are in contacts.csv?",  # no full name
                    "What is Ali Shah's email? contacts.csv",
                    "How many people in team.csv have the Lead Role?"):  # a column's name: no person
        assert missing_names.absent(request, here) is None, request
    (here / "old_contacts.csv").write_text("name,phone\nMark Jensen,0161 496 0099\n")  # another file has him
    assert missing_names.absent("whats Mark Jensen's phone number? its in contacts.csv", here) is None


def test_the_full_names_a_request_gives() -> None:
    assert missing_names.asked_names("Hi Mark Jensen here. What is Anne-Marie O'Neil's number?") == ["Mark Jensen", "Anne-Marie O'Neil"]
    assert missing_names.asked_names("Which Monday in March did Sam Cole call?") == ["Sam Cole"]
    assert missing_names.asked_names("What Is The Total?") == ["Total"][:0]
