"""Git from Python, run where there is no repository, runs in the one repository the request names."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import git_python

from .handmade import block, make_turn

REQUEST = "in the garden-app git repo, who made the most commits?"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    app = tmp_path / "garden-app"
    app.mkdir()
    subprocess.run(["git", "init", "-q", str(app)], check=True)
    for who in ("Ana", "Ana", "Ben"):
        with open(app / "CHANGES.txt", "a") as f:
            f.write(who + "\n")
        subprocess.run(["git", "-C", str(app), "add", "."], check=True)
        subprocess.run(["git", "-C", str(app), "-c", "user.email=a@b.example", "-c", f"user.name={who}",
                        "commit", "-qm", "x"], check=True)
    monkeypatch.chdir(tmp_path)
    return app


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_a_subprocess_list_runs_in_the_repository_and_its_paths_lose_its_name(repo: Path) -> None:
    code = ('import subprocess\n'
            'out = subprocess.run(["git", "log", "--format=%an", "garden-app/CHANGES.txt"], capture_output=True, text=True)\n'
            'print(out.stdout)')
    assert "fatal" in _run(code).stderr or _run(code).stdout.strip() == ""  # as written it finds no repository
    b = block(code)
    verdict = git_python.check(make_turn(REQUEST), b)
    assert verdict is not None and "git -C garden-app" in verdict.warning
    assert '["git", "-C", "garden-app", "log", "--format=%an", \'CHANGES.txt\']' in b.code
    assert _run(b.code).stdout.split() == ["Ben", "Ana", "Ana"]


def test_a_command_string_runs_in_the_repository(repo: Path) -> None:
    b = block('import os\nos.system("git shortlog -sn HEAD garden-app/")')
    assert git_python.check(make_turn(REQUEST), b) is not None
    assert "git -C garden-app shortlog -sn HEAD ." in b.code
    out = _run(b.code).stdout
    assert "2\tAna" in out and "1\tBen" in out


def test_code_that_picks_its_folder_a_request_not_about_git_or_a_repository_here_are_left_alone(repo: Path, monkeypatch) -> None:
    for code in ('import subprocess\nsubprocess.run(["git", "log"], cwd="garden-app")',
                 'import os\nos.chdir("garden-app")\nos.system("git log")',
                 'import subprocess\nsubprocess.run(["git", "-C", "garden-app", "log"])',
                 'print("git log")'):
        assert git_python.check(make_turn(REQUEST), block(code)) is None, code
    assert git_python.check(make_turn("how big is garden-app?"), block('import os\nos.system("git log")')) is None
    monkeypatch.chdir(repo)
    assert git_python.check(make_turn("who made the most commits in the repo?"),
                            block('import os\nos.system("git log")')) is None
