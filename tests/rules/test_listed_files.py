"""Listed files: "move those into X" after a run that listed files moves only those."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import listed_files

from .handmade import block, make_turn, reply

FOUND = "pad_thai.txt\npb_cookies.txt\nsatay_skewers.txt\n"
EVERY = ('import os\nimport shutil\nfrom pathlib import Path\nPath("has_peanuts").mkdir(exist_ok=True)\n'
         'for name in ["banana_bread.txt", "pad_thai.txt", "pb_cookies.txt", "pesto.txt", "satay_skewers.txt"]:\n'
         '    shutil.move("recipes/" + name, "has_peanuts/" + name)\n')


def _turn(request: str, output: str = FOUND, exit_code: int = 0):
    ran = {"role": "computer", "type": "console", "format": "output", "content": output, "exit_code": exit_code}
    turn = make_turn("Which of the recipes in my recipes folder have peanuts in them?",
                     {"role": "assistant", "type": "code", "format": "python", "content": "..."}, ran,
                     reply("pad_thai.txt, pb_cookies.txt, satay_skewers.txt"))
    turn.engine.messages.append({"role": "user", "type": "message", "content": request})
    return turn


@pytest.fixture
def recipes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "recipes").mkdir()
    for name in ("banana_bread.txt", "pad_thai.txt", "pb_cookies.txt", "pesto.txt", "satay_skewers.txt"):
        (tmp_path / "recipes" / name).write_text(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_moving_those_moves_only_the_listed_files(recipes: Path) -> None:
    b = block(EVERY)
    verdict = listed_files.check(_turn("ok thanks. can you move those into a new folder called has_peanuts?"), b)
    assert verdict is not None and "only the 3 files the last answer listed are moved into has_peanuts/" in verdict.warning
    run = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=recipes)
    assert run.returncode == 0 and "moved recipes/pad_thai.txt -> has_peanuts/" in run.stdout
    assert sorted(p.name for p in (recipes / "has_peanuts").iterdir()) == ["pad_thai.txt", "pb_cookies.txt", "satay_skewers.txt"]
    assert sorted(p.name for p in (recipes / "recipes").iterdir()) == ["banana_bread.txt", "pesto.txt"]


def test_copying_them_copies(recipes: Path) -> None:
    b = block("import shutil\nfor p in Path('recipes').glob('*.txt'):\n    shutil.copy(p, 'nuts')\n")
    assert listed_files.check(_turn("copy them to nuts please"), b) is not None
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=recipes, capture_output=True)
    assert len(list((recipes / "nuts").iterdir())) == 3 and len(list((recipes / "recipes").iterdir())) == 5


@pytest.mark.parametrize("request_text, output, code, exit_code", [
    ("move those into has_peanuts", FOUND, 'import shutil\nfor n in ["pad_thai.txt", "pb_cookies.txt", "satay_skewers.txt"]:\n'
     '    shutil.move("recipes/" + n, "has_peanuts/" + n)\n', 0),                   # those only: the model's code
    ("move those into has_peanuts", "3 recipes have peanuts\n", EVERY, 0),          # no list of files printed
    ("move those into has_peanuts", FOUND, EVERY, 1),                               # the last run failed
    ("delete those", FOUND, EVERY, 0),                                              # not a move or a copy
    ("move the pesto into has_peanuts", FOUND, EVERY, 0),                           # not "those"
])
def test_left_alone(recipes: Path, request_text: str, output: str, code: str, exit_code: int) -> None:
    b = block(code)
    assert listed_files.check(_turn(request_text, output, exit_code), b) is None and b.code == code
