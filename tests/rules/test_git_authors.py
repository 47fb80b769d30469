"""Git authors: asked who made the most commits, the model is given the code that counts them per author."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import git_authors

from .handmade import block, make_turn

ASK = "in the garden-app git repo, who made the most commits in 2024, and how many?"
# the 0.5B model's try (ho38): a worked example's date, one commit
WRONG = 'git -C garden-app log --since=2024-05-01 --format=%an --max-count=1'
COMMITS = [("Lena", "2023-12-30"), ("Tomasz", "2024-01-02"), ("Tomasz", "2024-03-05"), ("Lena", "2024-06-01"),
           ("Tomasz", "2024-12-31"), ("Lena", "2025-01-01")]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    git = tmp_path / "garden-app"
    git.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=git, check=True)
    for i, (who, day) in enumerate(COMMITS):
        (git / "log.txt").write_text(str(i))
        env = {**os.environ, "GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": f"{who}@x", "GIT_COMMITTER_NAME": who,
               "GIT_COMMITTER_EMAIL": f"{who}@x", "GIT_AUTHOR_DATE": f"{day}T12:00:00", "GIT_COMMITTER_DATE": f"{day}T12:00:00"}
        subprocess.run(["git", "add", "."], cwd=git, check=True, env=env)
        subprocess.run(["git", "commit", "-qm", f"c{i}"], cwd=git, check=True, env=env)
    return tmp_path


def test_the_commits_of_each_author_in_the_year(repo: Path) -> None:
    interp, model = scripted_interpreter([f"```shell\n{WRONG}\n```", "Tomasz, with 3 commits."])
    interp.template = "small"
    try:
        out = interp.chat(ASK, display=False)
    finally:
        interp.close()
    consoles = [str(m["content"]) for m in out if m["type"] == "console"]
    assert consoles[-1] == "Tomasz 3\nLena 1\nmost commits: Tomasz 3\n"


def test_what_is_asked(repo: Path) -> None:
    assert git_authors.asked("who committed most in garden-app in March 2024?", repo) == \
        ("garden-app", ("2024-03-01T00:00:00", "2024-04-01T00:00:00"))
    assert git_authors.asked("how many commits did each author make in garden-app?", repo) == ("garden-app", None)
    # another number (the last 30 days), no repository, no author asked: not ours
    assert git_authors.asked("who made the most commits in garden-app in the last 30 days?", repo) is None
    assert git_authors.asked("who made the most commits in 2024?", repo) is None
    assert git_authors.asked("how many commits are in garden-app?", repo) is None
    assert git_authors.check(make_turn(ASK), block("git -C garden-app shortlog -sn HEAD", "shell")) is None
