from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import added_lines

from .handmade import block, make_turn

CODE = ('with open("shopping.txt") as f:\n    text = f.read()\nwith open("shopping.txt", "a") as f:\n'
        '    if text and not text.endswith("\\n"):\n        f.write("\\n")\n    f.write("milk\\n")\n    f.write("bread\\n")\n'
        'print(open("shopping.txt").read())\n')


def test_an_unasked_typed_in_line_is_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "shopping.txt").write_text("eggs\nbread")
    monkeypatch.chdir(tmp_path)
    b = block(CODE)
    verdict = added_lines.check(make_turn('Add "milk" as a new last line to shopping.txt.'), b)
    assert verdict is not None and "'bread'" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True, capture_output=True)
    assert (tmp_path / "shopping.txt").read_text() == "eggs\nbread\nmilk\n"


@pytest.mark.parametrize("request_text, code", [
    ('Add "milk" and "bread" to shopping.txt', CODE),                    # both quoted
    ("Add milk to shopping.txt", CODE),                                 # nothing quoted
    ('Add "milk" to shopping.txt', 'f = open("s.txt", "w")\nf.write("milk\\n")\nf.write("bread\\n")\n'),  # not appending
    ('Add "milk" to shopping.txt', 'f = open("s.txt", "a")\nf.write("milk\\n")\nif True:\n    f.write("bread\\n")\n'),  # only line of a block
])
def test_left_alone(request_text: str, code: str) -> None:
    b = block(code)
    assert added_lines.check(make_turn(request_text), b) is None and b.code == code
