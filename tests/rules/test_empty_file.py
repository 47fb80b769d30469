from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, empty_file

from .handmade import block, make_turn

ASK = "Create a folder called myproject with two subfolders, src and tests, and an empty file myproject/README.md."
CODE = ('import os\nos.makedirs("myproject/src")\nos.makedirs("myproject/tests")\n'
        'with open("myproject/README.md", "w") as f:\n    f.write("My project")')


def test_an_empty_file_asked_for_is_left_empty(tmp_path: Path) -> None:
    b = block(CODE)
    verdict = empty_file.check(make_turn(ASK), b)
    assert verdict is not None and "myproject/README.md is left empty" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=tmp_path, check=True)
    readme = tmp_path / "myproject" / "README.md"
    assert readme.is_file() and readme.read_text() == ""
    b = block('with open("notes.txt", "w") as f:\n    f.write("hello\\n")')
    assert empty_file.check(make_turn("make an empty notes.txt please"), b) is not None and 'f.write("")' in b.code


@pytest.mark.parametrize("request_text", [
    "Create myproject/README.md with the text My project, and an empty file myproject/notes.txt.",  # another file
    "Create a file myproject/README.md saying hello",                                               # not empty
    "Write hello into README.md, which is empty now",                                               # not asked empty
])
def test_left_alone(request_text: str) -> None:
    b = block(CODE)
    assert empty_file.check(make_turn(request_text), b) is None and b.code == CODE


def test_off_with_repair_slips() -> None:
    assert empty_file.rule not in active(make_turn("x", repair_slips=False).engine, "check")
