from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import targets

from .handmade import block, make_turn


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "budget").mkdir()
    (tmp_path / "budget" / "plan.csv").write_text("item,cost\nrent,900\n")
    (tmp_path / "story").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_copy_into_a_missing_folder_the_request_asks_for_makes_the_folder_first(folder: Path) -> None:
    turn = make_turn("copy budget/plan.csv into a new backup folder, budget/backup")
    b = block('import shutil\nshutil.copy("budget/plan.csv", "budget/backup")\nprint("copied")')
    verdict = targets.check(turn, b)
    assert verdict is not None and "budget/backup is made first" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=folder)
    assert (folder / "budget" / "backup" / "plan.csv").read_text() == "item,cost\nrent,900\n"
    assert targets.check(turn, block('import shutil\nshutil.copy("budget/plan.csv", "budget/backup")')) is None  # there now


def test_shell_copies_get_mkdir(folder: Path) -> None:
    b = block("cp budget/plan.csv backup", lang="shell")
    assert targets.check(make_turn("put a copy of budget/plan.csv in a backup folder"), b) is not None
    assert b.code == "mkdir -p 'backup'\ncp budget/plan.csv backup"
    subprocess.run(["sh", "-c", b.code], check=True, cwd=folder)
    assert (folder / "backup" / "plan.csv").is_file()


def test_left_alone_when_no_folder_is_asked_for_or_it_is_there(folder: Path) -> None:
    copy = 'import shutil\nshutil.copy("budget/plan.csv", "budget/old")'
    assert targets.check(make_turn("copy budget/plan.csv to budget/old"), block(copy)) is None  # a file named old
    assert targets.check(make_turn("copy budget/plan.csv into the budget folder"),
                         block('import shutil\nshutil.copy("budget/plan.csv", "budget")')) is None  # there
    assert targets.check(make_turn("copy budget/plan.csv into a folder"),
                         block('import shutil\nshutil.copyfile("budget/plan.csv", "budget/old")')) is None
    assert targets.check(make_turn("copy it into a backup folder"), block("x = (")) is None


def test_a_bare_name_the_request_gives_with_its_folder_is_written_there(folder: Path) -> None:
    turn = make_turn("join story/part_1.txt and story/part_2.txt into story/whole_story.txt")
    b = block('with open("whole_story.txt", "w") as out:\n    out.write("x")\n')
    verdict = targets.check(turn, b)
    assert verdict is not None and "whole_story.txt → story/whole_story.txt" in verdict.warning
    assert 'open("story/whole_story.txt", "w")' in b.code
    for request in ("join the parts into whole_story.txt",  # no folder given
                    "write a/whole_story.txt and b/whole_story.txt",  # which one?
                    "join them into nowhere/whole_story.txt",  # no such folder
                    "join them into budget/plan.csv"):  # there already: never an overwrite
        for name in ("whole_story.txt", "plan.csv"):
            assert targets.check(make_turn(request), block(f'open("{name}", "w").write("x")')) is None, request


def test_a_made_up_folder_name_for_a_new_backup_folder_is_the_word_the_request_uses(folder: Path) -> None:
    turn = make_turn("copy budget/plan.csv into a new backup folder")
    b = block("import os\nimport shutil\nos.makedirs('backup_folder', exist_ok=True)\n"
              'shutil.copy("budget/plan.csv", "backup_folder")\nprint("copied budget/plan.csv to backup_folder")')
    verdict = targets.check(turn, b)
    assert verdict is not None and "backup_folder → backup" in verdict.warning
    ran = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder, check=True)
    assert ran.stdout.strip() == "copied budget/plan.csv to backup"
    assert (folder / "backup" / "plan.csv").read_text() == "item,cost\nrent,900\n"
    assert not (folder / "backup_folder").exists()
    sh = block("mkdir -p backup-folder && cp budget/plan.csv backup-folder/", "shell")
    assert targets.check(make_turn("put a copy of budget/plan.csv in the backup folder"), sh) is not None
    assert sh.code == "mkdir -p backup && cp budget/plan.csv backup/"


@pytest.mark.parametrize("request_text, code", [
    ("copy budget/plan.csv into backup_folder", "shutil.copy('budget/plan.csv', 'backup_folder')"),  # named so
    ("copy budget/plan.csv into a new folder", "shutil.copy('budget/plan.csv', 'new_folder')"),  # no word to use
    ("copy budget/plan.csv into a new backup folder", "backup_folder = 'backup'\nshutil.copy('budget/plan.csv', backup_folder)"),
])
def test_folder_names_the_request_does_not_make_up_are_left_alone(folder: Path, request_text: str, code: str) -> None:
    assert targets.folder_word("python", code, request_text) == {}
    (folder / "backup_folder").mkdir()  # there already: the person's own folder
    assert targets.folder_word("python", "shutil.copy('a', 'backup_folder')", "copy a into a new backup folder") == {}


def test_a_copy_beside_the_file_for_a_new_backup_folder_goes_into_that_folder(folder: Path) -> None:
    turn = make_turn("before i change budget/plan.csv, can you put a copy of it in a new backup folder? don't change the original")
    b = block('import shutil\nshutil.copy("budget/plan.csv", "budget/plan_backup.csv")\n'
              'print("copied budget/plan.csv to budget/plan_backup.csv")')
    verdict = targets.check(turn, b)
    assert verdict is not None and "budget/plan_backup.csv → budget/backup/plan.csv" in verdict.warning
    ran = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder, check=True)
    assert ran.stdout.strip() == "copied budget/plan.csv to budget/backup/plan.csv"
    assert (folder / "budget" / "backup" / "plan.csv").read_bytes() == (folder / "budget" / "plan.csv").read_bytes()
    assert not (folder / "budget" / "plan_backup.csv").exists()
    # A folder named in the request, or no folder asked for: the copy stays where the code puts it.
    for request in ("copy budget/plan.csv into a new backup folder, budget/old", "make a copy of budget/plan.csv"):
        assert targets.beside(b.code, request) == {}


def test_a_named_folder_written_with_underscores_is_written_as_named(folder: Path) -> None:
    turn = make_turn("can you copy plan.csv from budget/ into a new bakcup folder budget/backup_oct first?")
    b = block('import shutil\nshutil.copytree("budget/", "budget_backup_oct")\nprint("copied to budget_backup_oct")')
    verdict = targets.check(turn, b)
    assert verdict is not None and "budget_backup_oct → budget/backup_oct" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=folder)
    assert (folder / "budget" / "backup_oct" / "plan.csv").is_file() and not (folder / "budget_backup_oct").exists()
    (folder / "budget_backup_oct").mkdir()  # the person's own folder of that name: left alone
    assert targets.flattened("python", 'shutil.copy("a", "budget_backup_oct")', turn.request) == {}


def test_a_copy_to_the_named_folder_with_an_extension_goes_into_the_folder(folder: Path) -> None:
    turn = make_turn("could you please back up budget/plan.csv into a new folder called budget/plan_backup? Thank you!")
    b = block('import shutil\nshutil.copy("budget/plan.csv", "budget/plan_backup.csv")\nprint("copied")')
    verdict = targets.check(turn, b)
    assert verdict is not None and "budget/plan_backup.csv → budget/plan_backup/plan.csv" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=folder)
    assert (folder / "budget" / "plan_backup" / "plan.csv").read_text() == "item,cost\nrent,900\n"
    assert not (folder / "budget" / "plan_backup.csv").exists()
    # a file of that name asked for, or no folder: left alone
    for request in ("copy budget/plan.csv to budget/plan_backup.csv", "back up budget/plan.csv as budget/plan_backup"):
        assert targets.as_file(b.code, request) == {}


def test_a_bare_name_put_in_the_same_folder_or_a_named_folder_is_written_there(folder: Path) -> None:
    same = make_turn("plot the costs from budget/plan.csv and save it as a png, call it costs.png, same folder is fine")
    b = block('import matplotlib.pyplot as plt\nplt.bar([1], [2])\nplt.savefig("costs.png")\n')
    verdict = targets.check(same, b)
    assert verdict is not None and 'plt.savefig("budget/costs.png")' in b.code
    called = make_turn("stick all the parts together into one file called whole.txt (in the story folder)")
    b = block('open("whole.txt", "w").write("x")\n')
    assert targets.check(called, b) is not None and 'open("story/whole.txt", "w")' in b.code
    for request in ("plot budget/plan.csv and save it as costs.png",  # no folder asked for
                    "save it as costs.png in the same folder",  # the same as what? no file named
                    "put costs.png in the nowhere folder",  # no such folder
                    "write the total into costs.png, and change nothing in the story folder"):  # not its place
        assert targets.check(make_turn(request), block('import pandas as pd\npd.DataFrame().to_csv("costs.png")')) is None, request


SORT = '''import shutil
from pathlib import Path
Path("images").mkdir(exist_ok=True)
Path("documents").mkdir(exist_ok=True)
for p in sorted(Path("desktop").glob("*.jpg")):
    shutil.move(str(p), "images/" + p.name)
for p in sorted(Path("desktop").glob("*.pdf")):
    shutil.move(str(p), "documents/" + p.name)
print("sorted")
'''


def test_a_subfolder_asked_for_is_made_inside_the_folder_the_request_names(folder: Path) -> None:
    (folder / "desktop").mkdir()
    for name in ("holiday.jpg", "scan.pdf", "notes.txt"):
        (folder / "desktop" / name).write_text("x")
    request = ("My desktop folder is a mess. Put the pictures (.jpg) into a subfolder called images and the .pdf "
               "files into a subfolder called documents.")
    b = block(SORT)
    verdict = targets.check(make_turn(request), b)
    assert verdict is not None and "images → desktop/images (the request asks for a subfolder of desktop)" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=folder, check=True, capture_output=True)
    assert (folder / "desktop" / "images" / "holiday.jpg").is_file() and (folder / "desktop" / "documents" / "scan.pdf").is_file()
    assert (folder / "desktop" / "notes.txt").is_file() and not (folder / "images").exists()


def test_a_subfolder_already_placed_or_with_two_folders_named_is_left_alone(folder: Path) -> None:
    (folder / "desktop").mkdir()
    placed = SORT.replace('"images', '"desktop/images').replace('"documents', '"desktop/documents')
    request = "Put the .jpg files of my desktop folder into a subfolder called images, the .pdf ones into a subfolder called documents."
    assert targets.inside_named(placed, request) == {}
    assert targets.inside_named(SORT, request.replace("my desktop folder", "desktop and story")) == {}
    assert targets.inside_named(SORT, "sort desktop into folders called images and documents") == {}  # no subfolder asked


def test_a_copy_into_the_named_folder_keeps_the_originals_name(folder: Path) -> None:
    (folder / "shop_inventory.csv").write_text("item,qty\nnails,40\n")
    code = ('import shutil\nshutil.copy("shop_inventory.csv", "backups_march/backup_shop_inventory.csv")\n'
            'print("copied shop_inventory.csv to backups_march/backup_shop_inventory.csv")')
    request = ("Please make a new folder called backups_march and put a copy of shop_inventory.csv in it. "
               "The original has to stay where it is.")
    b = block(code)
    verdict = targets.check(make_turn(request), b)
    assert verdict is not None and "a copy keeps the original's name" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=folder, check=True)
    assert (folder / "backups_march" / "shop_inventory.csv").read_text() == (folder / "shop_inventory.csv").read_text()
    named = "make a folder called backups_march and put a copy of shop_inventory.csv in it, named backup_shop_inventory.csv"
    b = block(code)
    targets.check(make_turn(named), b)
    assert "backups_march/backup_shop_inventory.csv" in b.code  # the name the request gives


def test_a_folder_copied_to_a_new_name_is_not_made_first(folder: Path) -> None:
    # `cp -r budget budget_copy` makes budget_copy the copy; made first, the copy would land in budget_copy/budget
    sh = block("cp -r budget budget_copy", "shell")
    assert targets.check(make_turn("make a backup copy of the budget folder called budget_copy"), sh) is None
    assert sh.code == "cp -r budget budget_copy"
    py = block('import shutil\nshutil.move("budget", "old_budget")')
    assert targets.check(make_turn("rename the budget folder to the folder name old_budget"), py) is None
    # asked *into* a new folder, the folder is made first and the moved one goes inside it
    into = block("mv budget old", "shell")
    assert targets.check(make_turn("move the budget folder into a new folder called old"), into) is not None
    assert into.code == "mkdir -p 'old'\nmv budget old"
    # a file copied into that new folder still gets it made first
    files = block("cp budget/plan.csv budget_copy", "shell")
    assert targets.check(make_turn("copy budget/plan.csv into a new folder budget_copy"), files) is not None
