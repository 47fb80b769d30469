"""Touch copies: asked for a copy, touching a file of the same name is copying it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from oi_local.core.rules import touch_copies

from .handmade import block, make_turn

CODE = ('from pathlib import Path\nPath("usb").mkdir(exist_ok=True)\n'
        'for p in sorted(Path("work_docs").rglob("*")):\n    if p.is_file():\n        Path("usb/" + p.name).touch()\n'
        'print(sorted(str(p) for p in Path("usb").rglob("*")))')


def test_a_touch_of_the_files_name_is_a_copy(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "work_docs" / "drafts").mkdir(parents=True)
    (tmp_path / "work_docs" / "drafts" / "v4.docx").write_text("fourth draft\n")
    (tmp_path / "work_docs" / "budget.xlsx").write_text("q3\n")
    b = block(CODE)
    verdict = touch_copies.check(make_turn("copy every file in work_docs into a folder called usb"), b)
    assert verdict is not None and 'shutil.copy2(p, Path("usb/" + p.name))' in verdict.warning
    assert b.code.startswith("import shutil\n")
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "usb" / "v4.docx").read_text() == "fourth draft\n"
    assert (tmp_path / "usb" / "budget.xlsx").read_text() == "q3\n"


def test_left_alone_when_no_copy_is_asked_or_the_touch_is_of_another_file() -> None:
    assert touch_copies.check(make_turn("make an empty file in usb for each file in work_docs"), block(CODE)) is None
    other = CODE.replace('Path("usb/" + p.name).touch()', 'Path("usb/done.flag").touch()')
    assert touch_copies.check(make_turn("copy the files in work_docs into usb"), block(other)) is None
