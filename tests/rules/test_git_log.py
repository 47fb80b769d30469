from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from oi_local.core.rules import git_log

from .handmade import block, make_turn


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_who_made_the_last_commit_shows_the_author(tmp_path: Path) -> None:
    env = {"GIT_AUTHOR_NAME": "Keiko Tanaka", "GIT_AUTHOR_EMAIL": "k@example.org", "GIT_COMMITTER_NAME": "Keiko Tanaka",
           "GIT_COMMITTER_EMAIL": "k@example.org", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True, env=env)
    (tmp_path / "a.txt").write_text("a")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "Update pricing table"], cwd=tmp_path, check=True, env=env)
    b = block("git log --oneline -n 1", lang="shell")
    verdict = git_log.check(make_turn("What was the last commit here? Tell me its message and who made it."), b)
    assert verdict is not None and "date and author" in verdict.warning
    out = subprocess.run(["bash", "-c", b.code], cwd=tmp_path, capture_output=True, text=True, env=env, check=True).stdout
    assert "Keiko Tanaka: Update pricing table" in out


@pytest.mark.parametrize("request_text, code", [
    ("list the last 5 commit messages", "git log --oneline -5"),  # neither who nor when asked
    ("who made the last commit?", "git log -1"),  # the full log shows the author
    ("who made the last commit?", "print('--oneline')"),
])
def test_left_alone(request_text: str, code: str) -> None:
    b = block(code, lang="python" if code.startswith("print") else "shell")
    assert git_log.check(make_turn(request_text), b) is None and b.code == code


def test_when_asked_and_git_C() -> None:
    b = block("git -C repo log --oneline | head -3", lang="bash")
    assert git_log.check(make_turn("when was the last change to repo made?"), b) is not None
    assert b.code == f"git -C repo log {git_log.FORMAT} | head -3"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_asked_for_the_last_commit_a_command_that_cannot_show_it_is_git_log_1(tmp_path: Path, monkeypatch) -> None:
    env = {"GIT_AUTHOR_NAME": "Ana Ruiz", "GIT_AUTHOR_EMAIL": "a@example.org", "GIT_COMMITTER_NAME": "Ana Ruiz",
           "GIT_COMMITTER_EMAIL": "a@example.org", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q"], check=True, env=env)
    for name, message in (("README.md", "Start"), ("a.py", "Fix rounding in invoice totals")):
        (tmp_path / name).write_text(name)
        subprocess.run(["git", "add", "."], check=True, env=env)
        subprocess.run(["git", "commit", "-qm", message], check=True, env=env)
    # the 0.5B model's command (ho46): a count of files changed in two weeks
    b = block('git log --since="2 weeks ago" --name-only --format="" | grep . | sort | uniq -c | sort -rn | tail -n 1', lang="shell")
    verdict = git_log.check(make_turn("What was the last commit message in this git repo?"), b)
    assert verdict is not None and "git log -1" in verdict.warning
    out = subprocess.run(["bash", "-c", b.code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip().endswith("Ana Ruiz: Fix rounding in invoice totals") and out.count("\n") == 1
    for request, code in (("What was the last commit message?", "git log -1 --format=%s"),  # shows it already
                          ("What was the last commit message?", "git show --stat"),
                          ("which files did the last commit change?", "git log --stat"),  # more than the commit
                          ("list the commits since the last commit on main", "git log")):
        kept = block(code, lang="shell")
        assert git_log.check(make_turn(request), kept) is None and kept.code == code, request
