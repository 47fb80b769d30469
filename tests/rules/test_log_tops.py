"""Log tops: asked which address, page, user or [name] comes up most in a log, the model is given code that counts it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import log_tops

from .handmade import block, make_turn, scripted_chat

ACCESS = "".join(f'{ip} - - [18/Nov/2025:14:0{i}:00 +0000] "GET {page} HTTP/1.1" {status} 1532\n' for i, (ip, page, status) in enumerate([
    ("81.2.69.160", "/favicon.ico", 404), ("203.0.113.45", "/favicon.ico", 404), ("203.0.113.45", "/shop", 200),
    ("45.146.165.37", "/wp-login.php", 404), ("203.0.113.45", "/blog/fixing-404-errors", 200), ("81.2.69.160", "/shop", 200)]))
FIRST = "How many requests in access.log got a 404?"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "access.log").write_text(ACCESS)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, check=True).stdout


def test_the_page_with_most_of_those(folder: Path) -> None:
    # turn two of a chat (ho40): "of those" are the 404s of the question before
    found = log_tops.asked("which page got the most of those?", FIRST, folder)
    assert found is not None and found[:2] == ("access.log", "page") and found[4] == "404"
    assert _run(log_tops.ready_code(*found), folder).startswith(
        "/favicon.ico is the page that comes up most among the lines that have 404: 2 lines of access.log")
    found = log_tops.asked("which page on the site is throwing the most 404s in access.log, and how many times?", "", folder)
    assert found is not None and found[4] == "404s"
    assert _run(log_tops.ready_code(*found), folder).startswith("/favicon.ico is the page that comes up most")


def test_the_address_with_most_lines(folder: Path) -> None:
    out = scripted_chat(['```python\nprint("0")\n```', "203.0.113.45, with 3 requests."],
                        "Which IP address hit the server the most in access.log, and how many requests did it make?")
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert consoles[0].startswith("Not run: the code does not count which IP address comes up most in access.log")
    assert consoles[-1].startswith("203.0.113.45 is the IP address that comes up most: 3 lines of access.log")


def test_not_ours(folder: Path) -> None:
    for request, earlier in (("which page got the most visits?", ""),  # no log named, none before
                             ("which page and which address came up most in access.log?", ""),  # two fields
                             ("how many ERROR lines are in access.log and which service logged the most?", ""),  # which lines?
                             ("what is the busiest hour in access.log?", "")):  # not a field read here
        assert log_tops.asked(request, earlier, folder) is None, request
    counts = 'from collections import Counter\nprint(Counter(l.split()[0] for l in open("access.log")).most_common(1))'
    ask = "Which IP address hit the server the most in access.log?"
    assert log_tops.check(make_turn(ask), block(counts)) is None
