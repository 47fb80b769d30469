"""Unsaved lists: a text file asked for, not made, and one list the last run made and printed: the loop saves it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import outputs, unsaved_lists
from oi_local.core.rules.turn import Run, Turn

from .handmade import failed, make_turn, ran, reply

ASK = ("signups.txt has some addresses more than once. Save a cleaned-up list with every address only once to "
       "signups_clean.txt, and tell me how many different addresses there are.")
CODE = ('with open("signups.txt") as f:\n    found = f.read().split()\nemails = sorted({e.lower() for e in found})\n'
        'print(len(emails), "different emails:", emails)')


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "signups.txt").write_text("a@x.org\nB@x.org\nA@x.org\n")
    return tmp_path


def started(request: str, *runs: Run) -> Turn:
    turn = make_turn(request, reply("2 different emails."))
    outputs.start(turn)
    turn.runs.extend(runs)
    turn.steps = len(runs)
    return turn


def test_the_list_a_run_made_and_printed_is_saved_to_the_file_asked_for(here: Path) -> None:
    # ho58 (development runs): the 21 addresses were printed, and signups_clean.txt never written
    turn = started(ASK, ran(CODE, "2 different emails: ['a@x.org', 'b@x.org']\n"))
    ask = unsaved_lists.follow_up(turn)
    assert ask is not None and ask.own and "signups_clean.txt was not created" in (ask.text or "")
    assert unsaved_lists.follow_up(turn) is None  # once a turn
    block = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, check=True, cwd=here).stdout
    assert (here / "signups_clean.txt").read_text() == "a@x.org\nb@x.org\n" and "2 lines saved to signups_clean.txt" in out


def test_left_alone(here: Path) -> None:
    assert unsaved_lists.follow_up(started(ASK, failed(CODE, "NameError: x"))) is None  # the run failed
    assert unsaved_lists.follow_up(started(ASK, ran("print(len(set(open('signups.txt'))))", "2\n"))) is None  # no list
    (here / "signups_clean.txt").write_text("a@x.org\n")
    assert unsaved_lists.follow_up(started(ASK, ran(CODE, "2\n"))) is None  # the file was made
    two = CODE + "\nfirst = [e for e in emails if e < 'b']\nprint(first)"
    assert unsaved_lists.follow_up(started(ASK.replace("signups_clean", "other"), ran(two, "x\n"))) is None  # two lists
