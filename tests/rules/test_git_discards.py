"""Git discards: commands that throw away the changes in the files need a request that asks for that."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import git_discards

from .handmade import block, make_turn

ASK = "oops, I committed too early. Can you undo my last commit but keep the changes in my files? I'm not done with them yet."


def test_a_hard_reset_for_keep_the_changes_is_not_run_and_the_soft_one_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    git = ["git", "-c", "user.name=A", "-c", "user.email=a@x.io"]
    subprocess.run(["git", "init", "-q"], check=True)
    (tmp_path / "app.py").write_text("v1\n")
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "first"], check=True)
    (tmp_path / "app.py").write_text("v2\n")
    subprocess.run(git + ["commit", "-qam", "too early"], check=True)
    # the 0.5B model's answer (ho43), then the way that keeps the changes
    interp, model = scripted_interpreter(["```shell\ngit reset --hard HEAD~1\n```", "```shell\ngit reset --soft HEAD~1\n```",
                                          "Undone; your changes are still in the files."])
    interp.auto_run = True
    try:
        out = interp.chat(ASK, display=False)
    finally:
        interp.close()
    assert any("Not run" in str(m["content"]) and "git reset --soft HEAD~1" in str(m["content"]) for m in out if m["type"] == "console")
    assert (tmp_path / "app.py").read_text() == "v2\n"
    log = subprocess.run(["git", "log", "--format=%s"], capture_output=True, text=True, check=True).stdout
    assert log == "first\n"


def test_what_it_acts_on() -> None:
    hard = block("git reset --hard HEAD~1", lang="shell")
    assert git_discards.check(make_turn("discard my changes to app.py and go back to the last commit"), hard) is None
    assert git_discards.check(make_turn("undo the last commit"), hard) is not None
    for code in ("git checkout -- app.py", "git checkout .", "git restore app.py", "git clean -fd", "git stash drop"):
        assert git_discards.check(make_turn(ASK), block(code, lang="shell")) is not None, code
    for code in ("git reset --soft HEAD~1", "git reset HEAD~1", "git restore --staged app.py", "git checkout main",
                 "git stash"):
        assert git_discards.check(make_turn(ASK), block(code, lang="shell")) is None, code
