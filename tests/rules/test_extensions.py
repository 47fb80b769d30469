from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import extensions

from .handmade import block, make_turn

ASKED = ("how many jpeg photos are in my camera folder? some end in .jpg, some .JPG or .jpeg, count them all. "
         "and how much space do they take up together?")


@pytest.fixture(autouse=True)
def camera(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "camera").mkdir()
    for name, size in (("a.jpg", 100), ("B.JPG", 200), ("c.jpeg", 300), ("clip.mp4", 5000), ("notes.txt", 7)):
        (tmp_path / "camera" / name).write_bytes(b"x" * size)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("code", [
    'from pathlib import Path\nfiles = [p for p in Path("camera").rglob("*") if p.is_file()]\nprint(len(files), sum(p.stat().st_size for p in files))',
    'from pathlib import Path\nfiles = list(Path("camera").iterdir())\nprint(len(files), sum(p.stat().st_size for p in files))',
    'import os\nnames = os.listdir("camera")\nprint(len(names), sum(os.path.getsize(os.path.join("camera", n)) for n in names))',
])
def test_a_listing_of_every_file_is_narrowed_to_the_named_endings(code: str) -> None:
    assert run(code) == "5 5607"
    turn = make_turn(ASKED)
    b = block(code)
    verdict = extensions.check(turn, b)
    assert verdict is not None and verdict.warning == ("Changed before it ran: the code now looks only at .jpg, .jpeg "
                                                       "files, as the request asks (it listed every file).")
    assert run(b.code) == "3 600"
    assert extensions.check(turn, block(code)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    (ASKED, 'from pathlib import Path\nprint(len([p for p in Path("camera").glob("*") if p.suffix.lower() in (".jpg", ".jpeg")]))'),
    (ASKED, 'from pathlib import Path\nprint(len(list(Path("camera").glob("*.jpg"))))'),  # a pattern of its own
    ("how many files are in camera? and notes.txt, how long is it?", 'import os\nprint(len(os.listdir("camera")))'),
    ("what is 2.5 times .5?", 'import os\nprint(len(os.listdir("camera")))'),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert extensions.check(make_turn(request_text), block(code)) is None


def test_the_endings_a_request_names() -> None:
    assert extensions.named_endings(ASKED) == [".jpg", ".jpeg"]
    assert extensions.named_endings("move the .PDF and .txt files from scans/report.final.pdf") == [".pdf", ".txt"]
    assert extensions.named_endings("open notes.txt and data/x.csv") == []


def test_a_whole_folder_copied_copies_only_the_named_endings(camera: Path) -> None:
    (camera / "camera" / "old").mkdir()
    (camera / "camera" / "old" / "d.JPEG").write_bytes(b"x")
    (camera / "camera" / "old" / "e.mov").write_bytes(b"x")
    code = 'import shutil\nshutil.copytree("camera/", "camera_backup/")\nprint("copied")  # the .jpg and .jpeg files'
    b = block(code)
    verdict = extensions.check(make_turn("copy all the .jpg and .jpeg files from camera/ into a new folder camera_backup"), b)
    assert verdict is not None and run(b.code) == "copied"
    said = 'import shutil\nshutil.copytree("camera/", "said/")\nprint("copied the .jpg files")'  # only said, not done
    assert extensions.narrowed(said, [".jpg"]) is not None
    got = sorted(str(p.relative_to(camera / "camera_backup")) for p in (camera / "camera_backup").rglob("*") if p.is_file())
    assert got == ["B.JPG", "a.jpg", "c.jpeg", "old/d.JPEG"]
    kept = 'import shutil\nshutil.copytree("camera", "b", ignore=shutil.ignore_patterns("*.mp4"))'
    assert extensions.narrowed(kept, [".jpg"]) is None  # its own ignore
