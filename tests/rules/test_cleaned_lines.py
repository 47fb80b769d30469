"""Cleaned lines: a text file's lines cleaned up the asked ways into a new file."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import cleaned_lines

from .handmade import failed, make_turn, ran

GUESTS = "  Noor@Example.org\nbeth@mail.example\n\nnoor@example.org \nAdam@Mail.example\nbeth@mail.example\n"
REQUEST = "tidy guests.txt into guests_clean.txt: lower case, drop the duplicates and blank lines, sort it A-Z"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "guests.txt").write_text(GUESTS)
    return tmp_path


def test_a_cleanup_that_did_one_way_gets_the_loops_code(here: Path) -> None:
    # ho50: only the exact doubles were dropped; nothing was lowercased or sorted
    found = cleaned_lines.asked(REQUEST, here)
    assert found == {"source": "guests.txt", "target": "guests_clean.txt", "ways": ["lower", "unique", "no blanks", "sorted"],
                     "reversed": False}
    (here / "guests_clean.txt").write_text("Noor@Example.org\nbeth@mail.example\nnoor@example.org\nAdam@Mail.example\n")
    turn = make_turn(REQUEST, runs=(ran("x", "5 lines -> 4\n"),))
    ask = cleaned_lines.after_run(turn)
    assert ask is not None and ask.own and cleaned_lines.after_run(turn) is None  # once a turn
    assert "in lower case, without duplicates, without blank lines, sorted" in (ask.text or "")
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here).stdout
    assert out.startswith("3 lines written to guests_clean.txt\n")
    assert (here / "guests_clean.txt").read_text() == "adam@mail.example\nbeth@mail.example\nnoor@example.org\n"
    # done right now: left alone; a failed run gets it
    assert cleaned_lines.after_run(make_turn(REQUEST, runs=(ran("x", "3\n"),))) is None
    assert cleaned_lines.after_run(make_turn(REQUEST, runs=(failed("x", "NameError: name 'f' is not defined"),))) is not None


def test_z_to_a_and_case_kept(here: Path) -> None:
    found = cleaned_lines.asked("sort guests.txt z-a, no duplicates, and save it as sorted.txt", here)
    assert found is not None and found["ways"] == ["unique", "sorted"] and found["reversed"]
    assert cleaned_lines.cleaned(GUESTS.splitlines(), found["ways"], True, fold=True) == [
        "Noor@Example.org", "noor@example.org", "beth@mail.example", "Adam@Mail.example"]


@pytest.mark.parametrize("request_text", [
    "sort guests.txt and save it as sorted.txt",  # one way only
    "lowercase guests.txt, no duplicates, in place",  # no new file
    "make it uppercase and lowercase in new.txt, sorted, from guests.txt",  # both cases
])
def test_left_alone(here: Path, request_text: str) -> None:
    assert cleaned_lines.asked(request_text, here) is None
