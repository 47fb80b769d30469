"""Git changes: which commit changed a value in a file is found in the file's diffs."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import git_changes

from .handmade import block, make_turn

ASK = ("Someone changed the timeout in settings.ini from 30 to 5 and now our requests keep failing. Which commit did "
       "that, and who made it?")


def _commit(repo: Path, who: str, text: str, message: str) -> None:
    (repo / "settings.ini").write_text(text)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "-c", f"user.name={who}", "-c", f"user.email={who.lower()}@x.io", "commit", "-q", "-m", message,
                    "--date=2025-03-0{0}T10:00:00".format(len(message) % 9 + 1)], cwd=repo, check=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    _commit(tmp_path, "Ana", "[http]\ntimeout = 30\nretries = 3\n", "first settings")
    _commit(tmp_path, "Jonas", "[http]\ntimeout = 5\nretries = 3\n", "tune retry behaviour")
    _commit(tmp_path, "Ana", "[http]\ntimeout = 5\nretries = 5\n", "more retries")
    return tmp_path


def test_the_commit_that_changed_the_value_and_its_author(repo: Path) -> None:
    found = git_changes.asked(ASK, repo)
    assert found == ("settings.ini", "timeout", "30", "5")
    run = subprocess.run([sys.executable, "-c", git_changes.ready_code(*found)], capture_output=True, text=True, cwd=repo)
    lines = run.stdout.splitlines()
    assert len(lines) == 1 and "by Jonas <jonas@x.io>" in lines[0] and lines[0].endswith(": tune retry behaviour"), run
    # without the values: every commit that touched a timeout line, newest first
    run = subprocess.run([sys.executable, "-c", git_changes.ready_code("settings.ini", "retries", None, None)],
                         capture_output=True, text=True, cwd=repo)
    assert [ln.split(": ", 1)[1] for ln in run.stdout.splitlines()] == ["more retries", "first settings"]


def test_code_that_reads_the_diffs_runs_and_other_code_is_given_the_search(repo: Path) -> None:
    guess = block("with open('settings.ini') as f:\n    print(f.read())")
    verdict = git_changes.check(make_turn(ASK), guess)
    assert verdict is not None and verdict.ask is not None and "settings.ini" in verdict.note
    assert git_changes.check(make_turn(ASK), block("git log -S'timeout = 5' --format='%h %an %s' -- settings.ini",
                                                   lang="shell")) is None
    for request in ("what is the timeout in settings.ini?", "who made the most commits?",
                    "which commit changed the timeout in config.ini?"):  # no such file
        assert git_changes.asked(request, repo) is None, request
