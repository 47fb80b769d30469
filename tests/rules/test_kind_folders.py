"""Kind folders: asked to move kinds of file into folders, the model is given the code that does."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import kind_folders

from .handmade import block, make_turn, scripted_chat

ASK = ("tidy up Downloads/ please: jpg and png files go into Downloads/pictures, pdfs into Downloads/pdf. "
       "anything else stays where it is")
# the 0.5B model's try (ho41): each new path built, nothing moved
WRONG = ('from pathlib import Path\nfolder = Path("Downloads")\nfor p in sorted(folder.iterdir()):\n'
         '    if p.suffix in [".jpg", ".png"]:\n        folder / "pictures" / p.name\n    print(p.name)')
NAMES = ("beach.jpg", "cat.PNG", "scan 2024.png", "ticket.pdf", "budget.xlsx", "notes.txt")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Downloads" / "old").mkdir(parents=True)
    for name in NAMES:
        (tmp_path / "Downloads" / name).write_text(name)
    (tmp_path / "Downloads" / "old" / "deep.pdf").write_text("deep")
    return tmp_path


def test_the_kinds_are_moved_into_their_folders(home: Path) -> None:
    out = scripted_chat([f"```python\n{WRONG}\n```", "Moved 4 files."], ASK)
    d = home / "Downloads"
    assert sorted(p.name for p in (d / "pictures").iterdir()) == ["beach.jpg", "cat.PNG", "scan 2024.png"]
    assert [p.name for p in (d / "pdf").iterdir()] == ["ticket.pdf"]
    assert (d / "pdf" / "ticket.pdf").read_text() == "ticket.pdf"  # moved whole
    assert sorted(p.name for p in d.iterdir() if p.is_file()) == ["budget.xlsx", "notes.txt"]  # the rest stays
    assert (d / "old" / "deep.pdf").exists()  # a subfolder's files are not the folder's
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert consoles[0].startswith("Not run: the code does not move the files into Downloads/pdf, Downloads/pictures")
    assert consoles[-1].rstrip().endswith("4 files moved")


def test_copies_and_names_already_there(home: Path) -> None:
    found = kind_folders.plan("copy all the PDFs and the .xlsx files from Downloads into backup/", home)
    assert found == ("Downloads", {".pdf": "backup", ".xlsx": "backup"}, True)
    (home / "backup").mkdir()
    (home / "backup" / "ticket.pdf").write_text("older")
    code = kind_folders.ready_code(*found)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=home, check=True).stdout
    assert "kept Downloads/ticket.pdf - backup/ticket.pdf is already there" in out and out.rstrip().endswith("1 files copied")
    assert (home / "backup" / "ticket.pdf").read_text() == "older" and (home / "Downloads" / "ticket.pdf").exists()
    assert (home / "backup" / "budget.xlsx").read_text() == "budget.xlsx"


def test_what_is_read_from_requests(home: Path) -> None:
    assert kind_folders.plan("Sort my Downloads folder: the jpgs into a subfolder called images, .pdf files into docs", home) \
        == ("Downloads", {".jpg": "Downloads/images", ".pdf": "Downloads/docs"}, False)
    assert kind_folders.plan("move the .log files into logs/", home) == (".", {".log": "logs"}, False)
    for request in ("How many pdfs are in Downloads?",  # no move
                    "Move report.pdf to Desktop",  # one named file, not a kind
                    "convert the png files to jpg",  # not a folder
                    "delete the pdfs in Downloads and move the jpgs into pics",  # careful words
                    "We're moving the app from port 8080 to 9090 in the files in Downloads/"):  # no kind of file
        assert kind_folders.plan(request, home) is None, request


def test_code_that_moves_into_every_folder_runs(home: Path) -> None:
    moves = ('import shutil, glob\nfor f in glob.glob("Downloads/*.jpg") + glob.glob("Downloads/*.png"):\n'
             '    shutil.move(f, "Downloads/pictures")\nfor f in glob.glob("Downloads/*.pdf"):\n    shutil.move(f, "Downloads/pdf")')
    assert kind_folders.check(make_turn(ASK), block(moves)) is None
    verdict = kind_folders.check(make_turn(ASK), block(moves.replace("Downloads/pdf", "Downloads/docs")))
    assert verdict is not None and verdict.ask is not None and "shutil.move" in str(verdict.ask.text)


def test_only_the_whole_kind_in_one_folder(home: Path) -> None:
    (home / "settings").mkdir()
    assert kind_folders.plan("copy all the .conf files from settings/ into a new folder called settings_backup. copy, not "
                             "move - the originals stay", home) == ("settings", {".conf": "settings_backup"}, True)
    assert kind_folders.plan("sort inbox: pictures (jpg/png) go in Downloads/images", home) == \
        ("Downloads", {".jpg": "Downloads/images", ".png": "Downloads/images"}, False)
    for request in ("copy every .log file in Downloads that was modified in the last week into recent/",  # some of them
                    "Copy the 2025 CSV files from Downloads into a new folder called to_share",  # some of them
                    "copy every .jpg from Downloads, including the ones in subfolders, into a new folder called backup",
                    "move all the pdf files out of my Documents folder into receipts/",  # a folder that is not here
                    "my backup copies the .log files to total 2 GB a night"):  # "to total": not a folder
        assert kind_folders.plan(request, home) is None, request


def test_everything_else_into_its_own_folder(home: Path) -> None:
    ask = "sort Downloads into subfolders: jpg/png go in Downloads/images, pdfs in Downloads/docs and everything else in Downloads/other"
    found = kind_folders.plan(ask, home)
    assert found == ("Downloads", {".jpg": "Downloads/images", ".png": "Downloads/images", ".pdf": "Downloads/docs",
                                   "*": "Downloads/other"}, False)
    (home / "Downloads" / ".hidden").write_text("x")
    subprocess.run([sys.executable, "-c", kind_folders.ready_code(*found)], check=True, cwd=home, capture_output=True)
    d = home / "Downloads"
    assert sorted(p.name for p in (d / "other").iterdir()) == ["budget.xlsx", "notes.txt"]
    assert sorted(p.name for p in d.iterdir()) == [".hidden", "docs", "images", "old", "other"]  # folders stay
    kept = kind_folders.plan("tidy Downloads: pdfs into Downloads/pdf, anything else stays where it is", home)
    assert kept == ("Downloads", {".pdf": "Downloads/pdf"}, False)
