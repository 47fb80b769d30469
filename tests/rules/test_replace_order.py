"""Replace order: a replace of two words the request names, the other way round from the way its words say,
is swapped before it runs."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import replace_order

from .handmade import block, make_turn, printed

INVITE = "Dear Jonhson family,\nMr Jonhson and Mrs Jonhson are invited.\n"
# the 0.5B model's code for ho56's request: the right spelling into the wrong one
BACKWARDS = ('with open("invite.txt") as f:\n    text = f.read()\ntext = text.replace("Johnson", "Jonhson")\n'
             'with open("invite.txt", "w") as f:\n    f.write(text)\nprint("fixed", text.count("Johnson"))')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "invite.txt").write_text(INVITE)
    return tmp_path


@pytest.mark.parametrize("request_text", [
    'I misspelled Johnson as "Jonhson" all over invite.txt. Can you fix every one of them?',
    "replace Jonhson with Johnson in invite.txt",
    "change every 'Jonhson' to 'Johnson' in invite.txt",
    "in invite.txt the name should go from Jonhson to Johnson",
    "Jonhson should be Johnson in invite.txt",
    "Jonhson is a typo in invite.txt, please fix it (Johnson)",
])
def test_a_replace_the_other_way_round_is_swapped_and_then_fixes_the_file(here: Path, request_text: str) -> None:
    b = block(BACKWARDS)
    verdict = replace_order.check(make_turn(request_text), b)
    assert verdict is not None and "'Jonhson' to become 'Johnson'" in verdict.warning
    assert 'text.replace("Jonhson", "Johnson")' in b.code
    assert printed(b.code) == "fixed 3"
    assert (here / "invite.txt").read_text() == INVITE.replace("Jonhson", "Johnson")


@pytest.mark.parametrize("request_text, code", [
    # the right way round already
    ("replace Jonhson with Johnson in invite.txt", 'print("Mr Jonhson".replace("Jonhson", "Johnson"))'),
    # words that say no way, or say opposite ways
    ("use Johnson instead of Jonhson in invite.txt", 'print("x".replace("Johnson", "Jonhson"))'),
    ("I typed Jonhson instead of Johnson", 'print("x".replace("Johnson", "Jonhson"))'),
    # one of the words is not in the request
    ("replace Jonhson with Johnson", 'print("x".replace("Smith", "Jonhson"))'),
    # not a replace of literals
    ("replace Jonhson with Johnson", 'old, new = "Johnson", "Jonhson"\nprint("x".replace(old, new))'),
])
def test_left_alone(here: Path, request_text: str, code: str) -> None:
    b = block(code)
    assert replace_order.check(make_turn(request_text), b) is None
    assert b.code == code


def test_re_sub_and_words_with_accents_are_swapped_where_they_stand() -> None:
    code = 'import re\ns = "Café Rene"\nprint(re.sub("René", "Rene", s), "René")'
    b = block(code)
    verdict = replace_order.check(make_turn("In menu.txt change Rene to René please"), b)
    assert verdict is not None
    assert b.code == 'import re\ns = "Café Rene"\nprint(re.sub("Rene", "René", s), "René")'
    assert printed(b.code) == "Café René René"
    assert replace_order.said_way("misspelled Johnson", "Johnson", "Jonhson") is None  # no "as": no way said
