"""Name lengths: len() of a file's name counts the file's lines."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import name_lengths

from .handmade import block, make_turn, printed


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "guests.txt").write_text("Ana\nChloe\n\nDev\nEmma\n")
    return tmp_path


def test_the_length_of_a_files_name_is_the_count_of_its_lines() -> None:
    # ho56: "10 people are on the guest list now." for four
    b = block("print(len('guests.txt'))")
    verdict = name_lengths.check(make_turn("How many people are on the guest list now?"), b)
    assert verdict is not None and "len('guests.txt')" in verdict.warning
    assert printed(b.code) == "4"


@pytest.mark.parametrize("code", [
    "name = 'guests.txt'\nprint(len(name))",  # a variable: what it holds is not known here
    "print(len('notes.txt'))",  # no such file
    "print(len('hello'))",  # a word
    "print(len(open('guests.txt').read()))",
])
def test_left_alone(code: str) -> None:
    b = block(code)
    assert name_lengths.check(make_turn("How many guests?"), b) is None and b.code == code


def test_a_bare_file_name_quoted_by_slips_is_counted_too() -> None:
    # ho56 dev: the model wrote len(guests.txt); slips quotes the name, then its letters were counted
    from .handmade import scripted_chat

    out = scripted_chat(["```python\nprint(len(guests.txt))\n```", "There are 4 guests."], "How many guests are on the list now?")
    assert [m["content"] for m in out if m["type"] == "console"] == ["4\n"]


@pytest.mark.parametrize("code, out", [
    ("print(sorted('guests.txt'))", "['Ana', 'Chloe', 'Dev', 'Emma']"),  # ho57: the letters of the name, sorted
    ("for name in 'guests.txt':\n    print(name)", "Ana\nChloe\nDev\nEmma"),
    ("print(max('guests.txt', key=len))", "Chloe"),
    ("print([n.upper() for n in 'guests.txt'][0])", "ANA"),
])
def test_the_items_of_a_files_name_are_its_lines(code: str, out: str) -> None:
    b = block(code)
    verdict = name_lengths.check(make_turn("Sort the guests please"), b)
    assert verdict is not None and "guests.txt" in verdict.warning
    assert printed(b.code) == out
