from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from oi_local.core.rules import active, whole_folder

from .handmade import block, make_turn

ASK = "Pack the reports folder into a zip file called reports.zip."
TXT_ONLY = ('import os\nimport zipfile\nwith zipfile.ZipFile("reports.zip", "w") as z:\n'
            '    for name in os.listdir("reports"):\n        if name.endswith(".txt"):\n'
            '            z.write(os.path.join("reports", name), name)\nprint("packed")')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "reports").mkdir()
    for name in ("q1.txt", "q2.txt", "summary.md"):
        (tmp_path / "reports" / name).write_text(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_filter_on_a_folder_asked_for_whole_is_dropped(folder: Path) -> None:
    b = block(TXT_ONLY)
    verdict = whole_folder.check(make_turn(ASK), b)
    assert verdict is not None and "summary.md" in verdict.warning and ".txt files only" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=folder, check=True)
    assert sorted(zipfile.ZipFile(folder / "reports.zip").namelist()) == ["q1.txt", "q2.txt", "summary.md"]
    globbed = 'import shutil\nfrom pathlib import Path\nfor p in Path("reports").glob("*.txt"):\n    shutil.copy(p, "backup")'
    b = block(globbed)
    assert whole_folder.check(make_turn("back up the reports folder into backup/"), b) is not None
    assert 'glob("*")' in b.code.replace("'", '"')


@pytest.mark.parametrize("request_text", [
    "Pack the text files of the reports folder into reports.zip.",  # a kind named
    "Zip the .txt files in reports into reports.zip",               # an extension named
    "How many files are in the reports folder?",                    # not a whole-folder action
    "Pack only the quarterly reports from the reports folder",     # narrowed
])
def test_left_alone(request_text: str) -> None:
    b = block(TXT_ONLY)
    assert whole_folder.check(make_turn(request_text), b) is None and b.code == TXT_ONLY


def test_left_alone_when_the_filter_takes_everything_there(folder: Path) -> None:
    (folder / "reports" / "summary.md").unlink()
    assert whole_folder.check(make_turn(ASK), block(TXT_ONLY)) is None


def test_off_with_repair_slips() -> None:
    assert whole_folder.rule not in active(make_turn("x", repair_slips=False).engine, "check")
