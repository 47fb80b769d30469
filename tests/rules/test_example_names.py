"""Example names: a name only a worked example sets is set first, as the example set it."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oi_local.core.rules import example_names

from .handmade import block, make_turn

EXAMPLES = [
    {"role": "user", "content": "Which files in the homework folder and its subfolders were changed in the last 7 days?"},
    {"role": "assistant", "content": '```python\nimport time\nfrom pathlib import Path\n'
                                     'since = time.time() - 7 * 24 * 60 * 60  # 7 days ago\n'
                                     'for p in sorted(Path("homework").rglob("*")):\n'
                                     '    if p.is_file() and p.stat().st_mtime >= since:\n        print(p)\n```'},
]
COPY = ('import shutil\nfrom pathlib import Path\nPath("usb").mkdir(exist_ok=True)\n'
        'for p in sorted(Path("work_docs").rglob("*")):\n    if p.is_file() and p.stat().st_mtime >= since:\n'
        '        shutil.copy2(p, Path("usb") / p.name)\n        print("copied", p.name)')
REQUEST = "copy every file in work_docs (subfolders too) changed in the last 7 days into a folder called usb"


@pytest.fixture
def docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "work_docs" / "drafts").mkdir(parents=True)
    for name, days in [("new.docx", 1), ("drafts/v2.docx", 3), ("old.xlsx", 30)]:
        p = tmp_path / "work_docs" / name
        p.write_text(name)
        then = time.time() - days * 86400
        os.utime(p, (then, then))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_name_only_the_example_sets_is_set_first_and_the_code_runs(docs: Path) -> None:
    b = block(COPY)
    verdict = example_names.check(make_turn(REQUEST, examples=EXAMPLES), b)
    assert verdict is not None and "since" in verdict.warning
    assert b.code.startswith("import time\nsince = time.time() - 7 * 24 * 60 * 60\nimport shutil")
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (docs / "usb").iterdir()) == ["new.docx", "v2.docx"]


def test_left_alone_for_other_numbers_names_set_before_or_not_in_an_example(docs: Path) -> None:
    other = "copy the files in work_docs changed in the last 3 days into usb"
    assert example_names.check(make_turn(other, examples=EXAMPLES), block(COPY)) is None  # 7 is not asked
    earlier = {"role": "assistant", "type": "code", "format": "python", "content": "since = 0"}
    assert example_names.check(make_turn(REQUEST, earlier, examples=EXAMPLES), block(COPY)) is None
    assert example_names.check(make_turn(REQUEST, examples=EXAMPLES), block(COPY.replace("since", "cutoff"))) is None
    assert example_names.check(make_turn(REQUEST, examples=EXAMPLES), block("since = 5\nprint(since)")) is None
