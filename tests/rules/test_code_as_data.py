"""Code as data: a Python program written as text into a data file is not run."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import code_as_data

from .handmade import block, make_turn, scripted_chat

NAMES = "Wendy\nAbe\nCyd\n"
# the shape of ho57's second try: the first try's code in a string, written over the names
OVER = ('fixed = """names = sorted(open(\'team.txt\').read().splitlines())\nwith open("sorted.txt", "w") as f:\n'
        '    f.write("\\n".join(names))\n"""\nwith open("team.txt", "w") as f:\n    f.write(fixed)')


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "team.txt").write_text(NAMES)
    (tmp_path / "tool.py").write_text("print(1)\n")
    return tmp_path


def test_a_program_written_into_a_data_file_is_not_run() -> None:
    turn = make_turn("Sort the names in team.txt and save the file.")
    verdict = code_as_data.check(turn, block(OVER))
    assert verdict is not None and verdict.ask is not None and "team.txt" in verdict.note
    assert code_as_data.check(turn, block(OVER)) is None  # once a turn


@pytest.mark.parametrize("code", [
    OVER.replace('open("team.txt", "w")', 'open("tool.py", "w")'),  # a script: its text is a program
    OVER.replace('open("team.txt", "w")', 'open("new.txt", "w")'),  # not a file that is here
    'names = sorted(open("team.txt").read().splitlines())\nwith open("team.txt", "w") as f:\n    f.write("\\n".join(names))',
    'with open("team.txt", "a") as f:\n    f.write("print(1) is a line of code\\n")',  # a sentence, not a program
])
def test_left_alone(code: str) -> None:
    assert code_as_data.check(make_turn("Sort the names in team.txt and save the file."), block(code)) is None


def test_in_a_turn_the_file_keeps_its_names(here: Path) -> None:
    good = 'names = sorted(open("team.txt").read().splitlines())\nopen("team.txt", "w").write("\\n".join(names) + "\\n")'
    scripted_chat([f"```python\n{OVER}\n```", f"```python\n{good}\n```", "Sorted."], "Sort the names in team.txt and save the file.")
    assert (here / "team.txt").read_text() == "Abe\nCyd\nWendy\n"
