"""Name styles: a rename to a described style (lower case, dashes for spaces) gets code that does it."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from oi_local.core.rules import name_styles

from .handmade import block, make_turn

ASK = "rename everything in recordings so the names are lowercase with dashes instead of spaces"
HALF = ("import os\nfor f in os.listdir('recordings'):\n"
        "    os.rename(os.path.join('recordings', f), os.path.join('recordings', f.lower()))")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    rec = tmp_path / "recordings"
    rec.mkdir()
    for name in ("Band Practice 03.WAV", "Vocal Take  2 - Final.wav", "intro.wav", "Notes On Mix.txt"):
        (rec / name).write_text(name)
    return tmp_path


@pytest.mark.parametrize("request_text, expected", [
    (ASK, (True, "-")),
    ("Rename the photos: replace the spaces with underscores", (False, "_")),
    ("can you rename my files to all lower case", (True, None)),
    ("rename them so there are no spaces in the names", (False, "")),
    ("rename report.txt to summary.txt", None),
    ("make everything lowercase in notes.txt", None),  # not a rename
])
def test_the_style_a_rename_asks_for(request_text: str, expected: object) -> None:
    assert name_styles.style(request_text) == expected


def test_code_that_does_half_is_not_run_and_the_ready_code_renames_every_file(folder: Path) -> None:
    turn = make_turn(ASK)
    verdict = name_styles.check(turn, block(HALF))
    assert verdict is not None and verdict.ask is not None and verdict.ask.own and "dashes" in verdict.note
    code = verdict.ask.text.split("```python\n", 1)[1].split("\n```", 1)[0]
    exec(compile(code, "ready", "exec"), {})
    assert sorted(os.listdir(folder / "recordings")) == [
        "band-practice-03.wav", "intro.wav", "notes-on-mix.txt", "vocal-take-2-final.wav"]
    assert name_styles.check(turn, block(HALF)) is None  # once a turn


def test_the_extensions_the_request_names_narrow_the_files(folder: Path) -> None:
    verdict = name_styles.check(make_turn("rename the wav files in recordings to lowercase"), block("print(1)"))
    assert verdict is not None and verdict.ask is not None
    code = verdict.ask.text.split("```python\n", 1)[1].split("\n```", 1)[0]
    exec(compile(code, "ready", "exec"), {})
    assert sorted(os.listdir(folder / "recordings")) == [
        "Notes On Mix.txt", "band practice 03.wav", "intro.wav", "vocal take  2 - final.wav"]


def test_an_example_file_name_does_not_narrow_the_files(folder: Path) -> None:
    request = 'rename the files in recordings to lowercase with dashes instead of spaces (so "Old Take.wav" would become "old-take.wav")'
    verdict = name_styles.check(make_turn(request), block("print(1)"))
    assert verdict is not None and verdict.ask is not None
    code = verdict.ask.text.split("```python\n", 1)[1].split("\n```", 1)[0]
    exec(compile(code, "ready", "exec"), {})
    assert "notes-on-mix.txt" in os.listdir(folder / "recordings")  # not only the example's .wav files


@pytest.mark.parametrize("code", [
    "import os\nfor f in os.listdir('recordings'):\n    os.rename('recordings/' + f, 'recordings/' + f.lower().replace(' ', '-'))",
    "import os, re\nfor f in os.listdir('recordings'):\n    os.rename(f'recordings/{f}', f'recordings/' + re.sub(r'\\s+', '-', f).lower())",
    "from pathlib import Path\nfor p in Path('recordings').iterdir():\n    p.rename(p.with_name('-'.join(p.name.split()).lower()))",
])
def test_code_that_does_every_part_runs(folder: Path, code: str) -> None:
    assert name_styles.check(make_turn(ASK), block(code)) is None


def test_left_alone_when_no_name_would_change(folder: Path) -> None:
    (folder / "done").mkdir()
    (folder / "done" / "a-b.txt").write_text("x")
    assert name_styles.check(make_turn("rename the files in done to lowercase with dashes instead of spaces"),
                             block(HALF)) is None
