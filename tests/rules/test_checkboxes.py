"""Checkboxes: code that looks for the other mark than the items asked about has the mark swapped."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import checkboxes

from .handmade import block, make_turn, printed

TODO = "[x] renew car insurance\n[ ] book dentist\n[x] return library books\n[x] pay council tax\n[ ] fix bike light\n"
# ho48 (read after its end): the unticked lines counted for the ticked-off ones
OPEN_ONES = 'with open("todo.txt") as f:\n    print(len([l for l in f if l.startswith("[ ]")]))'


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "todo.txt").write_text(TODO)
    return tmp_path


def test_the_done_ones_asked_and_the_open_mark_tested_is_swapped(here: Path) -> None:
    b = block(OPEN_ONES)
    verdict = checkboxes.check(make_turn("How many things on my todo.txt list have I already ticked off?"), b)
    assert verdict is not None and "'[ ]'" in verdict.warning
    assert printed(b.code) == "3"
    b = block(OPEN_ONES.replace("[ ]", "[x]"))
    assert checkboxes.check(make_turn("what's still to do in todo.txt?"), b) is not None and printed(b.code) == "2"


@pytest.mark.parametrize("request_text, code", [
    ("How many have I ticked off in todo.txt?", OPEN_ONES.replace("[ ]", "[x]")),  # the right mark
    ("how many in todo.txt are done and how many are left to do?", OPEN_ONES),  # both asked
    ("how many lines does todo.txt have?", OPEN_ONES),  # neither
    ("How many have I ticked off in todo.txt?", OPEN_ONES + '\nprint(sum(1 for l in open("todo.txt") if "[x]" in l))'),
])
def test_left_alone(here: Path, request_text: str, code: str) -> None:
    b = block(code)
    assert checkboxes.check(make_turn(request_text), b) is None and b.code == code
