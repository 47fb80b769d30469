from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import one_name

from .handmade import block, make_turn

SAME = ('import shutil\nfrom pathlib import Path\nshutil.copytree("config/", "config_backup/")\n'
        'for p in sorted(Path("config_backup").glob("*.ini")):\n    new = p.with_name(f"config_backup.ini.bak")\n'
        '    p.rename(new)\n    print(p, "->", new)')
OWN = ('import shutil\nfrom pathlib import Path\nPath("config_backup").mkdir(exist_ok=True)\n'
       'for p in sorted(Path("config").glob("*.ini")):\n    shutil.copy(p, Path("config_backup") / (p.name + ".bak"))\n'
       '    print(p.name)')
ASK = "back up the .ini files in config/ into a new folder config_backup, adding .bak to each name"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "config").mkdir()
    for name in ("app.ini", "db.ini", "cache.ini"):
        (tmp_path / "config" / name).write_text(f"[{name}]\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_loop_that_gives_every_file_one_name_is_not_run(folder: Path) -> None:
    subprocess.run([sys.executable, "-c", SAME], cwd=folder, check=True, capture_output=True)
    assert sorted(p.name for p in (folder / "config_backup").iterdir()) == ["config_backup.ini.bak"]  # two lost
    turn = make_turn(ASK)
    verdict = one_name.check(turn, block(SAME))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == ("Not run: the loop gives every file the same name (config_backup.ini.bak), so each would "
                            "overwrite the last; asked afresh.")
    assert one_name.check(turn, block(SAME)) is not None
    assert one_name.check(turn, block(SAME)) is None  # twice a turn at most


@pytest.mark.parametrize("code", [
    'import shutil, os\nfor f in os.listdir("config"):\n    shutil.copy(os.path.join("config", f), "archive.ini")',
    'import os\nfor f in os.listdir("config"):\n    os.rename(os.path.join("config", f), os.path.join("config", "all.ini"))',
    'from pathlib import Path\nfor p in Path("config").glob("*.ini"):\n    p.rename(p.parent / "old.ini")',
])
def test_other_forms(code: str) -> None:
    assert one_name.check(make_turn(ASK), block(code)) is not None


@pytest.mark.parametrize("code", [
    OWN,
    'import shutil, glob\nfor f in glob.glob("config/*.ini"):\n    shutil.copy(f, "config_backup/")',  # into a folder
    'import shutil, glob\nfor f in glob.glob("config/*.ini"):\n    shutil.move(f, "archive")',
    'from pathlib import Path\nfor p in Path("config").glob("*.ini"):\n    p.rename(p.with_suffix(".ini.bak"))',
    'from pathlib import Path\nfor i, p in enumerate(Path("config").glob("*.ini")):\n    p.rename(f"config/file_{i}.ini")',
    'import shutil\nfor n in range(3):\n    shutil.copy("config/app.ini", "config/app.bak")',  # one file
    'for line in open("config/app.ini"):\n    print(line.replace("a", "b"))',
])
def test_left_alone(code: str) -> None:
    assert one_name.check(make_turn(ASK), block(code)) is None


def test_in_a_turn_the_retry_keeps_every_file(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{SAME}\n```", f"```python\n{OWN}\n```", "Backed up 3 files."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    interp.chat(ASK, display=False)
    assert sorted(p.name for p in (folder / "config_backup").iterdir()) == ["app.ini.bak", "cache.ini.bak", "db.ini.bak"]
