from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import stale_values

from .handmade import block, make_turn, reply

READ = 'import csv\nwith open("stock.csv") as f:\n    rows = list(csv.DictReader(f))\nprint(len(rows))'
EDIT = ('import csv\nwith open("stock.csv", "w", newline="") as f:\n    f.write("item,qty\\nhinges,100\\nscrews,40\\n")')
TOTAL = 'print(sum(int(r["qty"]) for r in rows))'


def _turn(*codes: str, request: str = "what's the total now?"):
    earlier = []
    for code in codes:
        earlier += [{"role": "assistant", "type": "code", "format": "python", "content": code},
                    {"role": "computer", "type": "console", "format": "output", "content": ""}, reply("done")]
    turn = make_turn("which items are low in stock.csv?", *earlier)
    turn.engine.messages.append({"role": "user", "type": "message", "content": request})
    return turn


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "stock.csv").write_text("item,qty\nhinges,18\nscrews,40\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_value_read_before_its_file_changed_is_read_again(folder: Path) -> None:
    b = block(TOTAL)
    verdict = stale_values.check(_turn(READ, EDIT), b)
    assert verdict is not None and "rows read again from stock.csv first" in verdict.warning
    subprocess.run([sys.executable, "-c", EDIT], check=True, cwd=folder)
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder).stdout
    assert out == "140\n"  # the file as it is now, not 58 from the rows read first


@pytest.mark.parametrize("codes", [
    (READ,),                          # the file never changed
    (EDIT, READ),                     # read after the change
    ("rows = [1, 2]", EDIT),          # not read from a file
    ('import csv\nwith open("stock.csv") as f:\n    reader = csv.DictReader(f)\n    rows = [r for r in reader]', EDIT),  # needs reader
])
def test_left_alone(codes: tuple[str, ...]) -> None:
    b = block(TOTAL)
    assert stale_values.check(_turn(*codes), b) is None and b.code == TOTAL
    own = block('import csv\nrows = list(csv.DictReader(open("stock.csv")))\n' + TOTAL)  # the code reads it itself
    assert stale_values.check(_turn(READ, EDIT), own) is None
