from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import quoted_words

from .handmade import block, make_turn

STORY = "The river ran. Rivers bend; the River rose by the riverbank.\nA river again.\n"
ALL_WORDS = 'import re\nwith open("story.txt") as f:\n    words = re.findall(r"\\b\\w+\\b", f.read())\nprint(len(words))'
RIVER = 'import re\nprint(len(re.findall(r"\\briver\\b", open("story.txt").read(), re.I)))'
ASK = 'How many times does the word "river" appear in story.txt? Any case, not rivers or riverbank.'


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "story.txt").write_text(STORY)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_code_that_never_looks_for_the_quoted_word_is_asked_afresh() -> None:
    turn = make_turn(ASK)
    verdict = quoted_words.check(turn, block(ALL_WORDS))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == 'Not run: the code never looks for "river", which the request quotes; asked afresh.'
    assert '"river"' in (verdict.ask.text or "")
    assert quoted_words.check(turn, block(ALL_WORDS)) is None  # once a turn


@pytest.mark.parametrize("request_text, code, lang", [
    (ASK, RIVER, "python"),  # looks for it
    (ASK, RIVER.replace("river", "RIVER"), "python"),  # in any case
    ("How many words are in story.txt?", ALL_WORDS, "python"),  # nothing quoted
    ('Which lines of story.txt mention "river"?', "grep -in river story.txt", "shell"),
    ('Add the line "river" to story.txt', ALL_WORDS, "python"),  # not a question
    ('How many lines are in "story.txt"?', 'print(len(open("story.txt").readlines()))', "python"),  # a file name
    (ASK, "print(3)", "python"),  # reads no file (other rules see to typed-in answers)
])
def test_left_alone(request_text: str, code: str, lang: str) -> None:
    assert quoted_words.check(make_turn(request_text), block(code, lang=lang)) is None


def test_quoted_forms() -> None:
    assert quoted_words.quoted("which lines say 'late fee' or “overdue”? and what's 'x'") == ["late fee", "overdue"]
    assert quoted_words.quoted("what's in Bob's notes?") == []


def test_in_a_turn_the_retry_counts_the_word() -> None:
    interp, model = scripted_interpreter([f"```python\n{ALL_WORDS}\n```", f"```python\n{RIVER}\n```", "It appears 3 times."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    out = interp.chat(ASK, display=False)
    outputs = [m["content"] for m in out if m.get("type") == "console" and m.get("format") == "output"]
    assert any("Not run: the code never looks for" in o for o in outputs)
    assert any(o.strip() == "3" for o in outputs)
    assert subprocess.run([sys.executable, "-c", RIVER], capture_output=True, text=True).stdout.strip() == "3"
