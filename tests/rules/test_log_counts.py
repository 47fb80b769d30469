"""Log counts: a "how many" question about a log is counted by the question's words found in its lines."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import log_counts

from .handmade import block, make_turn, scripted_chat

AUTH = "".join(
    f"Mar {d:2d} 10:0{d % 10}:11 host sshd[{900 + d}]: {kind} from 203.0.113.{7 if d % 2 else 9} port 22 ssh2\n"
    for d, kind in enumerate(["Failed password for root"] * 5 + ["Accepted password for ana"] * 2
                             + ["Failed password for invalid user bob"] * 3 + ["Connection closed by"] * 2, start=1))
ASK = "I think someone is trying to guess my server's ssh password. How many failed password attempts are in auth.log?"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auth.log").write_text(AUTH)
    (tmp_path / "app.log").write_text("INFO start\nERROR disk full\nINFO an error page was shown\nERROR timeout\n")
    return tmp_path


def test_the_questions_words_found_in_the_log_are_counted(folder: Path) -> None:
    # the 0.5B model's first code (ho41): a typed-in answer
    out = scripted_chat(["```python\nprint(12)\n```", "8 failed password attempts."], ASK)
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert consoles[0].startswith("Not run: the code does not count the lines of auth.log that have 'failed password'")
    assert consoles[-1].startswith("8 lines of auth.log have failed password")


def test_what_is_looked_up(folder: Path) -> None:
    assert log_counts.asked(ASK, folder)[:2] == ("auth.log", "failed password")
    found = log_counts.asked("How many lines in app.log contain the word ERROR?", folder)
    assert found is not None and found[1] == "ERROR"  # in capitals: not "an error page"
    run = subprocess.run([sys.executable, "-c", log_counts.ready_code(*found)], capture_output=True, text=True, cwd=folder)
    assert run.stdout.startswith("2 lines of app.log have ERROR")
    assert log_counts.asked("how many requests in auth.log came from 203.0.113.7?", folder)[1] == "203.0.113.7"
    (folder / "access.log").write_text('1.2.3.4 - - [x] "GET /blog/fixing-404-errors HTTP/1.1" 200 88\n'
                                       '1.2.3.4 - - [x] "GET /old HTTP/1.1" 404 12\n')
    found = log_counts.asked("How many requests in access.log got a 404?", folder)
    run = subprocess.run([sys.executable, "-c", log_counts.ready_code(*found)], capture_output=True, text=True, cwd=folder)
    assert run.stdout.startswith("1 lines of access.log have 404")  # not the page about 404 errors
    for request in ("How many lines are in auth.log?",  # every line: not ours
                    "how many bananas are in auth.log?",  # nothing of it there
                    "which IP address failed most in auth.log?",  # not a count
                    "How many failed logins are in missing.log?"):  # no such log
        assert log_counts.asked(request, folder) is None, request


def test_code_that_looks_for_the_words_runs(folder: Path) -> None:
    own = 'print(sum("Failed password" in line for line in open("auth.log")))'
    assert log_counts.check(make_turn(ASK), block(own)) is None
    assert log_counts.check(make_turn(ASK), block("print(len(open('auth.log').readlines()))")) is not None


def test_a_count_of_the_top_one_is_not_ours(folder: Path) -> None:
    assert log_counts.asked("which IP in auth.log failed the most, and how many times?", folder) is None


def test_an_answer_without_the_count_gives_way_to_the_output(folder: Path) -> None:
    out = scripted_chat(["```python\nprint(12)\n```", "There were some failed attempts.",
                                          "There were some failed attempts."], ASK)
    answers = [m["content"] for m in out if m["role"] == "assistant" and m["type"] == "message"]
    assert "8 lines of auth.log have failed password" in answers[-1]


def test_a_status_in_an_access_log_is_the_status_field(folder: Path) -> None:
    (folder / "web.log").write_text('1.2.3.4 - - [x] "GET /a HTTP/1.1" 200 404\n1.2.3.4 - - [x] "GET /b HTTP/1.1" 404 12\n'
                                    '1.2.3.4 - - [x] "GET /c HTTP/1.1" 404 99\n')
    found = log_counts.asked("how many requests in web.log got a 404?", folder)
    run = subprocess.run([sys.executable, "-c", log_counts.ready_code(*found)], capture_output=True, text=True, cwd=folder)
    assert run.stdout.startswith("2 lines of web.log have 404")  # not the 404 bytes of /a
