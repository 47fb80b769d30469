"""Archive first: asked to zip files and then delete them, code that only deletes is not run."""
from __future__ import annotations

import os
import time
import zipfile
from pathlib import Path

import pytest

from oi_local.core.rules import archive_first

from .handmade import block, make_turn, scripted_chat

ASK = ("Zip up the .log files in the logs folder that haven't been modified in more than 30 days into old_logs.zip "
       "in this folder, then delete those originals.")
# the 0.5B model's code (ho42): the deletion alone
ONLY_DELETES = ('import time\nfrom pathlib import Path\ncutoff = time.time() - 30 * 86400\n'
                'for p in sorted(Path("logs").glob("*.log")):\n    if p.stat().st_mtime < cutoff:\n        p.unlink()\n'
                '        print("deleted", p)')
ZIPS = ('import time, zipfile\nfrom pathlib import Path\ncutoff = time.time() - 30 * 86400\n'
        'old = [p for p in sorted(Path("logs").glob("*.log")) if p.stat().st_mtime < cutoff]\n'
        'with zipfile.ZipFile("old_logs.zip", "w") as z:\n    for p in old:\n        z.write(p, p.name)\n'
        'for p in old:\n    p.unlink()\nprint(len(old), "zipped and deleted")')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    for name, days in (("cron.log", 90), ("api.log", 60), ("today.log", 1)):
        p = tmp_path / "logs" / name
        p.write_text(name)
        t = time.time() - days * 86400
        os.utime(p, (t, t))
    return tmp_path


def test_the_originals_go_only_once_the_archive_holds_them(folder: Path) -> None:
    out = scripted_chat([f"```python\n{ONLY_DELETES}\n```", f"```python\n{ZIPS}\n```", "Done: 2 logs."], ASK)
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert consoles[0].startswith("Not run: this code deletes files but does not make old_logs.zip")
    assert sorted(zipfile.ZipFile(folder / "old_logs.zip").namelist()) == ["api.log", "cron.log"]
    assert sorted(p.name for p in (folder / "logs").iterdir()) == ["today.log"]


def test_what_is_held_back(folder: Path) -> None:
    turn = make_turn(ASK)
    assert archive_first.check(turn, block(ZIPS)) is None  # makes the archive in the same block
    (folder / "old_logs.zip").write_bytes(b"")  # an earlier run made it: the deletion may follow
    assert archive_first.check(make_turn(ASK), block(ONLY_DELETES)) is None
    for request in ("delete the .log files older than 30 days in logs",  # no archive asked
                    "zip the logs into logs.zip but don't delete anything"):  # nothing to go
        assert archive_first.asked(request, folder) is None, request
