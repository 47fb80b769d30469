"""Folder moves: a whole folder moved for a request to move some of its files is not auto-run."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import folder_moves

from .handmade import block, make_turn

ASK = "ok thanks. can you move those into a new folder called has_peanuts?"
WHOLE = ('from pathlib import Path\nrecipes_path = Path("recipes")\nhas_peanuts_path = Path("has_peanuts")\n'
         'recipes_path.rename(has_peanuts_path)')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "recipes").mkdir()
    for n in ("pad_thai.txt", "pesto.txt", "tomato_soup.txt"):
        (tmp_path / "recipes" / n).write_text("x")
    return tmp_path


@pytest.mark.parametrize("lang, code", [
    ("python", WHOLE),
    ("python", 'import shutil\nshutil.move("recipes", "has_peanuts")'),
    ("python", 'import os\nos.rename("recipes/", "has_peanuts")'),
    ("shell", "mkdir -p has_peanuts && mv recipes has_peanuts/"),
])
def test_moving_the_whole_folder_for_some_of_its_files_is_not_run(here: Path, lang: str, code: str) -> None:
    turn = make_turn(ASK)
    verdict = folder_moves.check(turn, block(code, lang))
    assert verdict is not None and verdict.again and "moves the whole recipes folder (3 files)" in verdict.note
    assert (here / "recipes" / "pesto.txt").is_file()


@pytest.mark.parametrize("request_text, code", [
    (ASK, 'import shutil, os\nos.makedirs("has_peanuts", exist_ok=True)\nshutil.move("recipes/pad_thai.txt", "has_peanuts")'),
    ("move those recipes into the archive folder", WHOLE),          # names the folder it moves: its own words
    ("rename the recipes folder to has_peanuts", WHOLE),            # not "those"
])
def test_left_alone(here: Path, request_text: str, code: str) -> None:
    assert folder_moves.check(make_turn(request_text), block(code)) is None


def test_with_a_person_to_confirm_it_is_shown_with_a_warning(here: Path) -> None:
    verdict = folder_moves.check(make_turn(ASK, approve=lambda m: "run"), block(WHOLE))
    assert verdict is not None and verdict.warning.startswith("Careful: this code moves the whole recipes folder")
