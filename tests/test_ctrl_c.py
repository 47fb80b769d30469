"""Ctrl-C in every phase, pressed in a real terminal (tmux): honoured within a second, a second
press exits, and no box is left half-drawn. Each test prints what it measured."""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from terminal_support import ROOT, Tmux, interpreter_argv, write_scripted_profile

from oi_local.terminal.chat import DOUBLE_PRESS

pytestmark = pytest.mark.slow
PROMPT = r"(?m)^> ?$"
CONFIRM = r"Run this (\w+) code\? \(y/n/e\)"
LIMIT = 1.0  # seconds from the key press to the program saying it stopped


@pytest.fixture
def term(tmp_path: Path):
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: scripts/test installs it (apt-get install tmux)")
    opened: list[Tmux] = []
    profile = write_scripted_profile(tmp_path)

    def start(*args: str, scripted: bool = True, env: dict | None = None) -> Tmux:
        argv = interpreter_argv(*((["--profile", str(profile)] if scripted else []) + list(args)))
        t = Tmux(argv, {"OI_LOCAL_HOME": os.environ["OI_LOCAL_HOME"], "PYTHONPATH": str(ROOT), **(env or {})}, tmp_path)
        opened.append(t)
        return t

    yield start
    for t in opened:
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


def boxes_closed(screen: str) -> None:
    """Every box drawn is closed: as many bottom corners as top ones, and nothing after the last
    bottom corner still inside a box."""
    assert screen.count("╭") == screen.count("╰"), screen


def double_press_exits(t: Tmux, phase: str) -> None:
    t.key("C-c")
    time.sleep(0.3)  # as a person presses twice
    started = time.monotonic()
    t.key("C-c")
    deadline = started + 15
    while "[exit 0]" not in t.screen():
        assert time.monotonic() < deadline, f"a double Ctrl-C while {phase} did not exit:\n{t.screen()}"
        time.sleep(0.02)
    took = time.monotonic() - started
    print(f"\ndouble Ctrl-C while {phase}: exited {took:.2f} s after the second press")
    # The press is honoured at once (above); exiting also shuts the sessions down and unloads
    # Python, which on a shared, busy CPU takes part of a second more.
    assert took <= 3 * LIMIT, f"double Ctrl-C while {phase} took {took:.2f} s"


def test_at_the_prompt(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    ctrl_c(t, r"Ctrl-C again to exit", "reading the prompt")
    at = mark(t)
    t.key("C-c")
    t.wait_for(r"\[exit 0\]", after=at - 1)


def test_while_the_reply_streams(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    t.send("talk slowly")
    t.wait_for("w5 w6 w7")
    ctrl_c(t, r"\(stopped", "the reply streams")
    t.wait_for(PROMPT)
    t.send("talk slowly")
    deadline = time.monotonic() + 30
    while t.count("w5 w6 w7") < 2:  # the second reply is streaming
        assert time.monotonic() < deadline, t.screen()
        time.sleep(0.05)
    double_press_exits(t, "the reply streams")


def test_while_a_code_block_streams_no_box_is_left_open(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    t.send("slowcode please")
    t.wait_for(r"print\('line 5'\)")
    ctrl_c(t, r"\(stopped", "a code block streams")
    screen = t.wait_for(PROMPT)
    boxes_closed(screen)
    assert "print('line 3')" in screen  # what came is kept on screen, in a closed box


def test_while_code_runs(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    t.send("please sleep")
    t.wait_for(CONFIRM)
    t.send("y")
    t.wait_for(r"│ sleeping now")
    ctrl_c(t, r"\(stopped", "code runs")
    screen = t.wait_for(PROMPT)
    boxes_closed(screen)
    t.send("please sleep")
    t.wait_for(CONFIRM, after=mark(t) - 100)
    t.send("y")
    t.wait_for(r"│ sleeping now", after=mark(t) - 300)
    double_press_exits(t, "code runs")


def test_at_the_confirmation_and_in_the_editor(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    t.send("hello there")
    t.wait_for(CONFIRM)
    t.send("e")
    t.wait_for("Esc then Enter")
    ctrl_c(t, r"edit cancelled", "editing the code")
    deadline = time.monotonic() + 10
    while t.count(CONFIRM) < 2:  # asked again
        assert time.monotonic() < deadline, t.screen()
        time.sleep(0.05)
    # The press that cancelled the edit counts: a second one within DOUBLE_PRESS exits, as documented
    # (on a busy machine the question came back later than that; on an idle one within 0.3 s).
    time.sleep(DOUBLE_PRESS + 0.3)
    ctrl_c(t, r"\(stopped", "the confirmation question")
    t.wait_for(PROMPT)


def test_in_the_conversation_picker(term) -> None:
    t = term("-y")
    t.wait_for(PROMPT)
    t.send("hello there")
    t.wait_for(r"Done: the code printed")
    # Ctrl-D only once the prompt reads again: sent while the turn was ending, it was lost (seen once
    # on the idle machine); a person sees the prompt first.
    deadline = time.monotonic() + 10
    while t.count(PROMPT) < 1:  # "> hello there" is not an empty prompt
        assert time.monotonic() < deadline, t.screen()
        time.sleep(0.05)
    time.sleep(0.3)
    t.key("C-d")
    t.wait_for(r"\[exit 0\]")
    t2 = term("--conversations")
    t2.wait_for(r"Resume which conversation\?")
    ctrl_c(t2, r"\[exit 0\]", "the conversation picker")


@pytest.mark.model
def test_while_the_embedded_model_reads_a_long_prompt(term, smollm2_path: Path, tmp_path: Path) -> None:
    """The "thinking…" phase: llama.cpp reads thousands of prompt tokens; Ctrl-C aborts it mid-batch,
    the worker (and its loaded model) lives on, and the next request is answered."""
    import psutil

    long = [{"role": "user", "type": "message", "content": "Remember these notes. " + " ".join(
        f"Note {i}: the {w} box holds {i * 7 % 97} red marbles." for i, w in enumerate(["blue", "green", "tall", "old"] * 60))},
        {"role": "assistant", "type": "message", "content": "Noted."}]
    conv = tmp_path / "long.json"
    conv.write_text(json.dumps(long))
    t = term("--model", str(smollm2_path), "-c", "8192", "--max_tokens", "16", scripted=False)
    t.wait_for(PROMPT, timeout=60)
    t.send(f"%load_message {conv}")
    t.wait_for(r"Loaded 2 messages")
    t.send("Which box holds the most marbles?")
    t.wait_for(r"thinking", after=mark(t) - 100, timeout=30)
    workers = _wait_for_worker(t)
    ctrl_c(t, r"\(stopped", "the embedded model reads the prompt")
    screen = t.wait_for(PROMPT)
    boxes_closed(screen)
    assert _workers(t) == workers  # the model was not killed: it stopped reading and waits
    t.send("%reset")  # a short prompt next: this machine's CPU is shared
    t.wait_for("Reset: new conversation")
    at = mark(t)
    t.send("Say hi.")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the same model answers the next request
        s = t.screen()[at:]
        if re.search(CONFIRM, s):
            at = mark(t)
            t.send("n")
        elif re.search(PROMPT, s):
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the next request was not answered:\n" + t.screen())
    assert _workers(t) == workers
    t.send(f"%load_message {conv}")
    t.wait_for(r"Loaded 2 messages", after=at)
    t.send("Which box holds the most marbles?")
    t.wait_for(r"thinking", after=mark(t) - 100, timeout=30)
    time.sleep(2)  # inside the long prompt again
    double_press_exits(t, "the embedded model reads the prompt")
    assert all(not psutil.pid_exists(p) or psutil.Process(p).status() == psutil.STATUS_ZOMBIE for p in workers)


def _wait_for_worker(t: Tmux) -> set[int]:
    """The worker starts with the first request; then it loads the model and reads the prompt
    (~4000 tokens: more than ten seconds on two cores for the smallest model)."""
    deadline = time.monotonic() + 30
    while not (workers := _workers(t)):
        assert time.monotonic() < deadline, "no embedded worker process started"
        time.sleep(0.1)
    time.sleep(2)
    return workers


def _workers(t: Tmux) -> set[int]:
    """The embedded model's worker processes under this terminal."""
    import psutil

    shell = psutil.Process(int(t._tmux("list-panes", "-t", "main", "-F", "#{pane_pid}").strip()))
    return {p.pid for p in shell.children(recursive=True)
            if "oi_local.llm.backends._embedded_worker" in " ".join(p.cmdline())}


@pytest.mark.model
def test_while_the_default_model_downloads(term, smollm2_path: Path, tmp_path: Path) -> None:
    """The first-run download (asked at the terminal), from a throttled local hub."""
    from fakes_hub import HubServer

    from oi_local.local.models import default_model_id, get_entry

    small = get_entry("smollm2-135m")
    repo, file = "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF", smollm2_path.name
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
    - {{type: huggingface, repo: {repo}, filename: {file}}}
""")
    with HubServer({f"{repo}/{file}": smollm2_path}, throttle=4_000_000) as hub:
        t = term(scripted=False, env={"OI_LOCAL_CATALOG": str(cat), "HF_ENDPOINT": hub.url, "HF_HUB_OFFLINE": "0"})
        t.wait_for(r"Download it now\? \[Y/n\]")
        t.send("y")
        t.wait_for(r"\d+\.\d / 98\.4 MB")
        time.sleep(1.0)
        ctrl_c(t, r"Download interrupted", "the model downloads")
        t.wait_for(r"\[exit \d+\]")


def test_in_the_local_model_picker(term) -> None:
    t = term("--local", scripted=False, env={"OLLAMA_HOST": "http://127.0.0.1:9"})
    t.wait_for(r"How should the model run\?", timeout=60)
    ctrl_c(t, r"No local model chosen\.", "the --local picker")
    screen = t.wait_for(r"\[exit 1\]")
    assert "Traceback" not in screen
