"""Answered first: a block sent after the model's own answer to a question, in the same reply, is not run."""
from __future__ import annotations

from pathlib import Path

import pytest

from .handmade import scripted_chat

COUNTS = 'print("Sam Ortiz", 7)\nprint("Lena Fischer", 4)'
# ho49 (read after its end): after its answer the 0.5B model wrote shell text into Python, then read a file
# that was never there, and the turn ended "not done"
MORE = 'total = len([c for c in open("author_commits.txt")])\nprint(total)'


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _answers(out: list[dict]) -> list[str]:
    return [m["content"] for m in out if m["role"] == "assistant" and m["type"] == "message"]


def test_code_after_an_answer_in_the_same_reply_is_not_run() -> None:
    out = scripted_chat([f"```python\n{COUNTS}\n```", f"Sam Ortiz has 7 commits.\n```python\n{MORE}\n```",
                         "Sam Ortiz has 7 commits."], "how many commits has Sam made?")
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert len(consoles) == 1 and "Sam Ortiz 7" in consoles[0]
    assert not any("author_commits" in str(m["content"]) for m in out if m["type"] == "code")
    assert "7" in _answers(out)[-1]


@pytest.mark.parametrize("said, request_text", [
    ("The output shows 7 commits. Now let me count Lena's.", "how many commits has Sam made?"),  # more to come
    ("Sam has 7 commits.", "how many commits has Sam made, and how many has Lena made?"),  # two things asked
    ("Sam has 7 commits.", "count Sam's commits and write the number to sam.txt"),  # a change asked for
    ("I see 12 commits.", "how many commits has Sam made?"),  # no number the run printed
])
def test_code_after_other_sentences_runs(said: str, request_text: str) -> None:
    out = scripted_chat([f"```python\n{COUNTS}\n```", f"{said}\n```python\nprint('ran', 99)\n```", "Done: 7."],
                        request_text)
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert any("ran 99" in c for c in consoles), said
