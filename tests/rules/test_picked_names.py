from __future__ import annotations

import sys
from pathlib import Path

import pytest

from oi_local.core.rules import picked_names

from .handmade import block, make_turn

PICKS = ('from pathlib import Path\nfiles = sorted((p for p in Path("lists").iterdir() if p.is_file()), '
         'key=lambda p: p.stat().st_mtime, reverse=True)\nfor p in files:\n    if p.name == "recipes.txt":\n        print(p)\n')
ASK = "Which file in the lists folder has the most lines?"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "recipes.txt").write_text("a\n")
    (tmp_path / "lists" / "packing.txt").write_text("a\nb\nc\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_file_picked_by_a_typed_in_name_is_asked_afresh() -> None:
    turn = make_turn(ASK)
    verdict = picked_names.check(turn, block(PICKS))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == ("Not run: the code picks recipes.txt by a name the request does not give (the answer "
                            "typed in); asked afresh.")
    assert "recipes.txt" not in str(verdict.ask.text) and verdict.ask.sampling["temperature"] > 0
    assert picked_names.check(turn, block(PICKS)) is None  # once a turn
    listed = block('import os\nfor f in os.listdir("lists"):\n    if f in ("packing.txt",):\n        print(f)')
    assert picked_names.check(make_turn("what is the longest list?"), listed) is not None


@pytest.mark.parametrize("request_text, code", [
    ("Which file is bigger, recipes.txt or packing.txt?", PICKS),  # the request gives the name
    ("Count the lines of every file in lists", PICKS),  # not a which question
    (ASK, PICKS.replace("recipes.txt", "nothere.txt")),  # no such file: not a pick from these
    (ASK, 'import os\nfor f in os.listdir("lists"):\n    if f.endswith(".txt"):\n        print(f)'),
    (ASK, 'ext = "csv"\nprint(ext == "csv")'),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert picked_names.check(make_turn(request_text), block(code)) is None


def test_in_a_chat_the_retry_finds_it(folder: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    good = ('from pathlib import Path\nprint(max(Path("lists").iterdir(), key=lambda p: len(p.read_text().splitlines())).name)')
    interp, model = scripted_interpreter([f"```python\n{PICKS}```", f"```python\n{good}\n```", "packing.txt has the most."])
    interp.template = "small"  # computed answers: on in the small set
    try:
        new = interp.chat(ASK, display=False)
    finally:
        interp.close()
    outputs = [m["content"] for m in new if m["role"] == "computer"]
    assert outputs[0].startswith("Not run: the code picks recipes.txt") and outputs[-1].strip() == "packing.txt"
