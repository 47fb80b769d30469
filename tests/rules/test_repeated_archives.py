from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

import pytest

from oi_local.core.rules import repeated_archives

from .handmade import block, make_turn

CODE = ("tar -czf backup.tar.gz docs\ntar -czf backup.tar.gz docs/guide.md\ntar -czf backup.tar.gz docs/img/\n"
        "tar -czf backup.tar.gz docs/intro.md notes.txt\n")


def test_tar_commands_over_one_archive_are_made_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docs" / "img").mkdir(parents=True)
    for name in ("docs/guide.md", "docs/intro.md", "docs/img/diagram.txt", "notes.txt"):
        (tmp_path / name).write_text(name)
    monkeypatch.chdir(tmp_path)
    b = block(CODE, lang="shell")
    verdict = repeated_archives.check(make_turn("Make a gzip-compressed tar archive called backup.tar.gz of the docs folder."), b)
    assert verdict is not None and "4 tar commands each wrote backup.tar.gz anew" in verdict.warning
    assert b.code == "tar -czf backup.tar.gz docs notes.txt\n"
    subprocess.run(["bash", "-c", b.code], check=True)
    with tarfile.open("backup.tar.gz") as tar:
        names = set(tar.getnames())
    assert {"docs/guide.md", "docs/intro.md", "docs/img/diagram.txt", "notes.txt"} <= names


@pytest.mark.parametrize("code", [
    "tar -czf a.tar.gz docs\ntar -czf b.tar.gz notes\n",          # two archives
    "tar -czf a.tar.gz docs\ntar -tzf a.tar.gz\n",                 # made, then listed
    "tar -czf a.tar.gz docs\ntar -czf a.tar.gz --exclude=x docs\n",  # options: left as written
])
def test_left_alone(code: str) -> None:
    b = block(code, lang="shell")
    assert repeated_archives.check(make_turn("archive docs"), b) is None and b.code == code
