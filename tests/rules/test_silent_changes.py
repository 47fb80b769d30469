"""Silent changes: a generic answer after a silent run that changed files is followed by which files."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import silent_changes

from .handmade import scripted_chat


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "DSC_0042.JPG").write_bytes(b"\xff\xd8photo")
    (tmp_path / "notes.md").write_text("# notes\n")
    return tmp_path


def _said(replies: list[str], request: str) -> list[str]:
    out = scripted_chat(replies, request)
    return [m["content"] for m in out if m["role"] == "assistant" and m["type"] == "message"]


def test_a_rename_answered_generically_says_what_was_renamed(here: Path) -> None:
    code = "import os\nos.rename('DSC_0042.JPG', 'lake_morning.jpg')"
    said = _said([f"```python\n{code}\n```", "The code ran without errors and printed nothing."],
                 "Please rename DSC_0042.JPG to lake_morning.jpg.")
    assert said[-1] == "Renamed DSC_0042.JPG to lake_morning.jpg."


def test_a_copy_into_a_new_folder_says_what_was_made(here: Path) -> None:
    code = "import os, shutil\nos.makedirs('backup', exist_ok=True)\nshutil.copy('notes.md', 'backup/notes.md')"
    said = _said([f"```python\n{code}\n```", "Done."], "copy notes.md into a new backup folder")
    assert said[-1] == "Made backup/notes.md."


@pytest.mark.parametrize("answer", ["I renamed DSC_0042.JPG to lake_morning.jpg.", "It is now called lake_morning.jpg."])
def test_an_answer_that_says_something_is_left_alone(here: Path, answer: str) -> None:
    code = "import os\nos.rename('DSC_0042.JPG', 'lake_morning.jpg')"
    said = _said([f"```python\n{code}\n```", answer], "Please rename DSC_0042.JPG to lake_morning.jpg.")
    assert said[-1] == answer


def test_the_changes_in_words() -> None:
    before = {"a.txt": (3, 1), "b.csv": (9, 1), "old.jpg": (100, 1)}
    after = {"a.txt": (5, 2), "new.jpg": (100, 3), "c/d.txt": (1, 3)}
    assert silent_changes.changes(before, after) == "Renamed old.jpg to new.jpg. Made c/d.txt. Changed a.txt. Removed b.csv."
    assert silent_changes.changes(before, dict(before)) == ""
    assert silent_changes.changes({}, {"pasted-0123abcd.txt": (1, 1)}) == ""
