"""Lines counted: a question for every line of one file, answered by a run that failed or printed no
such count, gets the loop's code that counts them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import lines_counted

from .handmade import failed, make_turn, ran

LOG = "".join(f"2024-05-02 09:14:{i % 60:02d} INFO GET /api/items/{i} 200 {i % 40}ms\n" for i in range(37)) + "\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.log").write_text(LOG)
    return tmp_path


@pytest.mark.parametrize("request_text", [
    "how many lines r in server.log?",
    "How many lines does server.log have",
    "count the lines in server.log pls",
    "whats the line count of server.log",
])
def test_a_run_that_printed_another_number_gets_the_loops_code(here: Path, request_text: str) -> None:
    # ho49: the 0.5B model counted the digit groups of the log and answered 10144
    turn = make_turn(request_text, runs=(ran("print(len(re.findall(r'\\d+', text)))", "10144\n"),))
    ask = lines_counted.after_run(turn)
    assert ask is not None and ask.own and "server.log" in (ask.text or ""), request_text
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here).stdout
    assert out == "server.log has 38 lines (1 of them blank)\n"
    assert lines_counted.after_run(turn) is None  # once a turn


def test_a_count_printed_or_a_failed_run(here: Path) -> None:
    request = "how many lines are in server.log?"
    for output in ("38\n", "server.log: 38 lines\n"):
        assert lines_counted.after_run(make_turn(request, runs=(ran("x", output),))) is None, output
    (here / "notes.txt").write_text("one\ntwo\nthree")  # no newline at the end: 2 newlines, 3 lines
    for output in ("2\n", "3\n"):
        assert lines_counted.after_run(make_turn("how many lines in notes.txt", runs=(ran("x", output),))) is None
    broken = make_turn(request, runs=(failed("open('server.log').read_text()", "AttributeError: 'str' object"),))
    assert lines_counted.after_run(broken) is not None


@pytest.mark.parametrize("request_text", [
    "how many lines in server.log contain ERROR?",  # lines picked
    "how many blank lines are in server.log",
    "how many lines of code in server.log",
    "how many lines are in server.log and notes.txt?",  # two files
    "how many lines are in missing.log?",  # not there
    "how many words are in server.log?",  # not lines
])
def test_left_alone(here: Path, request_text: str) -> None:
    (here / "notes.txt").write_text("a\nb\n")
    turn = make_turn(request_text, runs=(ran("x", "10144\n"),))
    assert lines_counted.after_run(turn) is None, request_text


def test_a_binary_file_is_not_counted(here: Path) -> None:
    (here / "photo.jpg").write_bytes(b"\xff\xd8\x00\x10JFIF\n\x00")
    assert lines_counted.asked("how many lines does photo.jpg have?", here) is None
