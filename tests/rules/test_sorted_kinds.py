from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, sorted_kinds

from .handmade import block, make_turn

ASK = ("My desktop folder is a mess. Put the pictures (.jpg and .png) into a subfolder called images and the .pdf and "
       ".docx files into a subfolder called documents. Leave everything else where it is.")
ALL_IN_DOCUMENTS = (
    "import os\nimport shutil\nfrom pathlib import Path\n"
    "for p in sorted(Path('desktop').glob('*.pdf')):\n    os.makedirs('desktop/documents', exist_ok=True)\n"
    "    shutil.move(str(p), 'desktop/documents/' + p.name)\n"
    "for p in sorted(Path('desktop').glob('*.jpg')):\n    os.makedirs('desktop/documents', exist_ok=True)\n"
    "    shutil.move(str(p), 'desktop/documents/' + p.name)\n"
    "for name in os.listdir('desktop'):\n    if name.endswith('.png'):\n"
    "        os.makedirs('desktop/documents', exist_ok=True)\n        shutil.move('desktop/' + name, 'desktop/documents/' + name)\n")


def test_the_pairs_a_request_makes() -> None:
    assert sorted_kinds.pairs(ASK) == {".jpg": "images", ".png": "images", ".pdf": "documents", ".docx": "documents"}
    assert sorted_kinds.pairs("Move the .jpg files into a folder called images") == {}  # one folder: nothing to mix up


def test_files_moved_into_the_other_kinds_folder_go_to_theirs(tmp_path: Path) -> None:
    (tmp_path / "desktop").mkdir()
    for name in ("cv.pdf", "holiday.jpg", "shot.png", "notes.txt"):
        (tmp_path / "desktop" / name).write_text(name)
    b = block(ALL_IN_DOCUMENTS)
    verdict = sorted_kinds.check(make_turn(ASK), b)
    assert verdict is not None and ".jpg files go to images, not documents" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=tmp_path, check=True)
    got = sorted(str(p.relative_to(tmp_path / "desktop")) for p in (tmp_path / "desktop").rglob("*") if p.is_file())
    assert got == ["documents/cv.pdf", "images/holiday.jpg", "images/shot.png", "notes.txt"]


@pytest.mark.parametrize("code", [
    ALL_IN_DOCUMENTS.replace("'*.jpg')):\n    os.makedirs('desktop/documents'", "'*.jpg')):\n    os.makedirs('desktop/images'")
    .replace("'desktop/documents/' + p.name)\nfor name", "'desktop/images/' + p.name)\nfor name")
    .replace("name.endswith('.png')", "name.endswith('.pdf')"),  # every loop to its own folder
    "import shutil\nfor p in ['a.txt']:\n    shutil.move(p, 'desktop/documents/')",  # no ending taken
])
def test_left_alone(code: str) -> None:
    b = block(code)
    verdict = sorted_kinds.check(make_turn(ASK), b)
    assert verdict is None or "jpg" not in verdict.warning


def test_off_with_repair_slips() -> None:
    assert sorted_kinds.rule not in active(make_turn("x", repair_slips=False).engine, "check")
