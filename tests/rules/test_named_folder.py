from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import named_folder

from .handmade import block, make_turn

MOVE = ('import shutil\nfrom pathlib import Path\nPath("photos/pictures").mkdir(parents=True, exist_ok=True)\n'
        'for p in sorted(Path(".").glob("*.jpg")):\n    shutil.move(str(p), "photos/pictures/" + p.name)\n    print("moved", p.name)')
ASK = "My photos folder is a mess. Please move the pictures (.jpg) into photos/pictures."


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "work" / "photos").mkdir(parents=True)
    for name in ("beach.jpg", "sunset.jpg", "notes.txt"):
        (tmp_path / "work" / "photos" / name).write_text("x")
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path / "work"


def _run(code: str, cwd: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_a_look_in_the_working_folder_that_finds_nothing_looks_in_the_named_folder(folder: Path) -> None:
    assert _run(MOVE, folder) == ""  # as the model wrote it: nothing found, nothing moved
    b = block(MOVE)
    verdict = named_folder.check(make_turn(ASK), b)
    assert verdict is not None and verdict.warning == ("Path corrected before it ran: the files are looked for in photos, "
                                                       "which the request names (the working folder has no *.jpg).")
    assert 'Path(\'photos\').glob("*.jpg")' in b.code
    assert _run(b.code, folder).splitlines() == ["moved beach.jpg", "moved sunset.jpg"]
    assert sorted(p.name for p in (folder / "photos" / "pictures").iterdir()) == ["beach.jpg", "sunset.jpg"]


def test_glob_glob_and_a_home_folder(folder: Path) -> None:
    shutil.rmtree(folder / "photos")
    downloads = Path(os.environ["HOME"]) / "Downloads"
    downloads.mkdir()
    (downloads / "a.pdf").write_text("x")
    b = block('import glob\nprint(len(glob.glob("*.pdf")))')
    assert named_folder.check(make_turn("how many pdfs are in my Downloads?"), b) is not None
    assert _run(b.code, folder).strip() == "1"


@pytest.mark.parametrize("request_text, code", [
    (ASK, MOVE.replace('"*.jpg"', '"*.png"')),  # the named folder has none either
    ("move the pictures (.jpg) into a new folder called pictures", MOVE),  # no existing folder named
    (ASK, MOVE.replace('Path(".")', 'Path("photos")')),  # looks in a folder already
])
def test_left_alone(request_text: str, code: str) -> None:
    assert named_folder.check(make_turn(request_text), block(code)) is None


def test_left_alone_when_the_working_folder_has_matches(folder: Path) -> None:
    (folder / "here.jpg").write_text("x")
    assert named_folder.check(make_turn(ASK), block(MOVE)) is None


LISTS = ('import os, shutil\nos.makedirs("backup", exist_ok=True)\nfor f in os.listdir("."):\n'
         '    if f.endswith(".ini"):\n        shutil.copy(f, os.path.join("backup", f))\nprint("backed up config files")')


def test_listing_the_working_folder_for_endings_it_lacks_is_told_where_they_are(folder: Path) -> None:
    (folder / "settings").mkdir()
    for name in ("app.ini", "db.ini", "readme.txt"):
        (folder / "settings" / name).write_text("x")
    turn = make_turn("Please back up my config files: make a folder named backup and put a copy of every .ini file "
                     "from settings in it.")
    verdict = named_folder.check(turn, block(LISTS))
    assert verdict is not None and verdict.again and not verdict.stop
    assert verdict.ask is not None and verdict.ask.hide and "Look in settings" in str(verdict.ask.text)
    assert verdict.note == ("Not run: this code lists the working folder, which has no *.ini files; settings, which "
                            "the request names, has them (app.ini, db.ini). Look in settings: `for name in "
                            "os.listdir('settings')`, and each file is `os.path.join('settings', name)`.")
    again = named_folder.check(turn, block(LISTS))
    assert again is not None and again.ask is not None and again.ask.sampling["seed"] != verdict.ask.sampling["seed"]
    assert named_folder.check(turn, block(LISTS)) is None  # twice a turn at most
    # a person confirming is told, and the code is theirs to run
    confirmed = make_turn("copy every .ini file from settings into backup", approve=lambda m: "run")
    seen = named_folder.check(confirmed, block(LISTS))
    assert seen is not None and not seen.again and "settings" in seen.warning


def test_listing_is_left_alone_when_the_working_folder_has_them_or_no_folder_is_named(folder: Path) -> None:
    (folder / "settings").mkdir()
    (folder / "settings" / "app.ini").write_text("x")
    assert named_folder.check(make_turn("copy every .ini file into backup"), block(LISTS)) is None
    assert named_folder.check(make_turn("copy every .ini file from settings"),
                              block(LISTS.replace('f.endswith(".ini")', "True"))) is None  # no ending
    (folder / "local.ini").write_text("x")
    assert named_folder.check(make_turn("copy every .ini file from settings"), block(LISTS)) is None
