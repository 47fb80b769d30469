"""File sizes: which files of a named folder are bigger (or smaller) than a size."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import file_sizes

from .handmade import failed, make_turn, ran

REQUEST = "My disk is filling up. Which files in my Downloads folder are bigger than 1 MB?"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "work").mkdir()
    downloads = tmp_path / "home" / "Downloads"
    (downloads / "old").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path / "work")
    for name, size in (("video.mp4", 3_000_000), ("setup.deb", 1_100_000), ("notes.txt", 2_000), ("exact.bin", 1024 ** 2),
                       ("old/archive.zip", 5_000_000)):
        (downloads / name).write_bytes(b"x" * size)
    return downloads


def _code(ask: object) -> str:
    return (getattr(ask, "text", "") or "").split("```python\n")[1].split("\n```")[0]


def test_a_count_for_which_files_gets_the_loops_listing(home: Path) -> None:
    # ho52: the files were counted (3), then a generator printed
    turn = make_turn(REQUEST, runs=(ran("print(sum(...))", "3\n"),))
    ask = file_sizes.after_run(turn)
    assert ask is not None and ask.own and file_sizes.after_run(turn) is None  # once a turn
    out = subprocess.run([sys.executable, "-c", _code(ask)], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[:2] == ["video.mp4: 2.9 MB", "setup.deb: 1.0 MB"]
    assert out.splitlines()[-1] == f"2 files bigger than 1 MB in {home}"  # exactly 1 MB is not bigger; old/ not walked


def test_subfolders_and_smaller(home: Path) -> None:
    found = file_sizes.asked("which files anywhere in Downloads, subfolders too, are over 4 MB?", Path.cwd())
    assert found is not None and [p.name for p in file_sizes.matching(found)] == ["archive.zip"]
    found = file_sizes.asked("list the files in Downloads smaller than 10 KB", Path.cwd())
    assert found is not None and [p.name for p in file_sizes.matching(found)] == ["notes.txt"]


def test_a_run_that_printed_them_all_is_left_alone(home: Path) -> None:
    printed = "video.mp4 2.86 MB\nsetup.deb 1.05 MB\n"
    assert file_sizes.after_run(make_turn(REQUEST, runs=(ran("x", printed),))) is None
    assert file_sizes.after_run(make_turn(REQUEST, runs=(failed("x", printed),))) is not None  # it failed


@pytest.mark.parametrize("request_text", [
    "how many files in my Downloads folder are bigger than 1 MB?",  # a count asked
    "which pdfs in Downloads are bigger than 1 MB?",  # a kind of file
    "which files in Downloads are big?",  # no size
    "which files in Music are bigger than 1 MB?",  # no such folder
])
def test_left_alone(home: Path, request_text: str) -> None:
    assert file_sizes.asked(request_text, Path.cwd()) is None


def test_files_listed_and_not_said_end_the_turn(home: Path) -> None:
    from .handmade import reply

    listed = "video.mp4: 2.9 MB\nsetup.deb: 1.0 MB\n2 files bigger than 1 MB in x\n"
    turn = make_turn(REQUEST, reply("2 files bigger than 1 MB in x"), runs=(ran("x", listed),))
    assert file_sizes.finish(turn) == "The files bigger than 1 MB: video.mp4 (2.9 MB), setup.deb (1.0 MB)."
    said = make_turn(REQUEST, reply("They are video.mp4 and setup.deb."), runs=(ran("x", listed),))
    assert file_sizes.finish(said) is None
