"""The terminal driven as a person would: keys sent with tmux send-keys, the screen read with capture-pane.

Most tests use a scripted model loaded from a Python profile (deterministic); one chats with the
real embedded SmolLM2 model.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from terminal_support import ROOT, Tmux, interpreter_argv, write_scripted_profile

from oi_local.terminal import history

pytestmark = pytest.mark.slow
PROMPT = r"(?m)^> ?$"
CONFIRM = r"Run this (\w+) code\? \(y/n/e\)"


@pytest.fixture
def term(tmp_path: Path):
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: scripts/test installs it (apt-get install tmux)")
    opened: list[Tmux] = []
    profile = write_scripted_profile(tmp_path)

    def start(*args: str, scripted: bool = True, env: dict | None = None, prefix: list[str] | None = None) -> Tmux:
        argv = (prefix or []) + interpreter_argv(*((["--profile", str(profile)] if scripted else []) + list(args)))
        t = Tmux(argv, {"OI_LOCAL_HOME": os.environ["OI_LOCAL_HOME"], "PYTHONPATH": str(ROOT), **(env or {})}, tmp_path)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def mark(t: Tmux) -> int:
    """Where the screen ends now: later waits look only at what comes after."""
    return len(t.screen().rstrip())


def ask(t: Tmux, text: str) -> int:
    at = mark(t)
    t.send(text)
    return at


def test_chat_with_confirmation_yes_and_no(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    at = ask(t, "hello there")
    screen = t.wait_for(CONFIRM, after=at)
    assert "print('hello from code', 6 * 7)" in screen[at:]  # the code panel is shown before the question
    assert "Run this python code? (y/n/e)" in screen[at:]  # the prompt names the language
    t.send("y")
    screen = t.wait_for(r"Done: the code printed hello from code 42\.", after=at)
    assert "hello from code 42" in screen[at:]
    t.wait_for(PROMPT, after=at)
    at = ask(t, "hello again")
    t.wait_for(CONFIRM, after=at)
    t.send("n")
    screen = t.wait_for(r"Code not run\.", after=at)
    t.wait_for(PROMPT, after=at + 10)
    assert "hello from code 42" not in screen[at:]
    at = ask(t, "shell please")
    t.wait_for(r"Run this shell code\? \(y/n/e\)", after=at)
    t.send("y")
    t.wait_for(r"Done: the code printed shell-says-hi", after=at)


def test_confirmation_edit_opens_editor_and_runs_the_edited_code(term, tmp_path: Path) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nsed -i \"s/hello from code/edited by the user/\" \"$1\"\n")
    editor.chmod(0o755)
    t = term(env={"EDITOR": str(editor)})
    t.wait_for(PROMPT)
    at = ask(t, "hello there")
    t.wait_for(CONFIRM, after=at)
    t.send("e")
    screen = t.wait_for(r"python \(edited\)", after=at)
    t.wait_for(CONFIRM, after=screen.index("python (edited)", at))  # the edited code is confirmed again
    t.send("y")
    screen = t.wait_for(r"Done: the code printed edited by the user 42\.", after=at)


def test_edit_without_any_editor_installed_happens_in_the_terminal(term) -> None:
    t = term(env={"PATH": "/usr/bin:/bin", "EDITOR": "", "VISUAL": ""})  # and nano, if any, is not asked for
    t.wait_for(PROMPT)
    at = ask(t, "hello there")
    t.wait_for(CONFIRM, after=at)
    t.send("e")
    t.wait_for(r"Esc then Enter.*\n.*print\('hello from code', 6 \* 7\)", after=at)  # the editor, with the code in it
    time.sleep(0.3)  # keys typed before it reads the terminal would reach the line discipline instead
    t.key("BSpace", "BSpace")
    t.send("8)", enter=False)
    t.key("Escape", "Enter")
    screen = t.wait_for(r"python \(edited\)", after=at)
    assert "FileNotFoundError" not in screen and "nano" not in screen[at:]
    t.wait_for(CONFIRM, after=screen.index("python (edited)", at))
    t.send("y")
    t.wait_for(r"Done: the code printed hello from code 48\.", after=at)
    t.wait_for(PROMPT, after=at)
    # Ctrl-C in the editor gives the code back unchanged, and the question again.
    at = ask(t, "hello again")
    t.wait_for(CONFIRM, after=at)
    t.send("e")
    t.wait_for("Esc then Enter", after=at)
    t.key("C-c")
    t.wait_for(r"edit cancelled", after=at)
    t.send("y")
    t.wait_for(r"Done: the code printed hello from code 42\.", after=at)


def test_ctrl_c_stops_a_long_sleep_and_twice_exits(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    at = ask(t, "please sleep")
    t.wait_for(CONFIRM, after=at)
    t.send("y")
    t.wait_for(r"│ sleeping now", after=at)  # in the output panel (the code panel shows the print call)
    started = time.monotonic()
    t.key("C-c")
    screen = t.wait_for(r"\(stopped", after=at, timeout=15)
    assert time.monotonic() - started < 10
    assert "│ woke up" not in screen[at:]  # (the code panel shows print('woke up'); the output never does)
    t.wait_for(PROMPT, after=at + 10)
    # The session goes on: the next request works, in the same Python session.
    at = ask(t, "hello there")
    t.wait_for(CONFIRM, after=at)
    t.send("y")
    t.wait_for(r"Done: the code printed hello from code 42", after=at)
    t.wait_for(PROMPT, after=at)
    # Nothing lost: the interrupted turn is in the history file.
    files = list(history.folder(type("I", (), {"conversation_history_path": None})()).glob("*.jsonl"))
    msgs = history.load(files[0])
    assert msgs[0]["content"] == "please sleep"
    assert any(m["type"] == "console" and "sleeping now" in m["content"] for m in msgs), msgs
    assert msgs[-1]["content"].startswith("Done: the code printed hello from code 42")
    # Twice quickly, as a person presses: the second press after the hint, well within DOUBLE_PRESS.
    # (Two presses a few milliseconds apart can lose the second: prompt_toolkit's own SIGINT handler
    # swallows one that lands while its finished prompt is still tearing down.)
    at = mark(t)
    t.key("C-c")
    t.wait_for(r"Ctrl-C again to exit", after=at, timeout=10)
    t.key("C-c")
    t.wait_for(r"\[exit 0\]", timeout=10)


def test_ctrl_c_stops_generation(term) -> None:
    t = term()
    t.wait_for(PROMPT)
    at = ask(t, "talk slowly")
    t.wait_for("w5 w6 w7", after=at)
    t.key("C-c")
    t.wait_for(r"\(stopped", after=at, timeout=10)
    t.wait_for(PROMPT, after=at + 10)
    at = ask(t, "%info")
    t.wait_for(r"messages: 2", after=at)  # the user's message and the part of the reply that came


def test_undo_and_save_load_round_trip(term, tmp_path: Path) -> None:
    t = term("-y")
    t.wait_for(PROMPT)
    at = ask(t, "hello one")
    t.wait_for(r"Done: the code printed", after=at)
    at = ask(t, "shell two")
    t.wait_for(r"Done: the code printed shell-says-hi", after=at)
    at = ask(t, "%undo")
    t.wait_for(r"Removed your message 'shell two' and 3 messages after it\.", after=at)
    saved = tmp_path / "saved.json"
    at = ask(t, f"%save_message {saved}")
    t.wait_for(r"Saved 5 messages to", after=at)
    at = ask(t, "%reset")
    t.wait_for("Reset: new conversation", after=at)
    at = ask(t, "%info")
    t.wait_for(r"messages: 0", after=at)
    at = ask(t, f"%load_message {saved}")
    t.wait_for(r"Loaded 5 messages from", after=at)
    at = ask(t, "%info")
    t.wait_for(r"messages: 5", after=at)
    import json

    assert json.loads(saved.read_text())[0]["content"] == "hello one"


def test_resume_with_conversations(term) -> None:
    t = term("-y")
    t.wait_for(PROMPT)
    at = ask(t, "hello from the first session")
    t.wait_for(r"Done: the code printed", after=at)
    t.wait_for(PROMPT, after=at)  # Ctrl-D sent before the prompt is back can be lost (seen once in CI)
    t.key("C-d")
    t.wait_for(r"\[exit 0\]")
    time.sleep(1.1)  # distinct modification times
    t2 = term("-y")
    t2.wait_for(PROMPT)
    at = ask(t2, "shell in the second session")
    t2.wait_for(r"Done: the code printed shell-says-hi", after=at)
    t2.wait_for(PROMPT, after=at)
    t2.key("C-d")
    t2.wait_for(r"\[exit 0\]")
    t3 = term("-y", "--conversations")
    screen = t3.wait_for(r"Resume which conversation\?")
    lines = screen.splitlines()
    second = next(i for i, l in enumerate(lines) if "shell in the second session" in l)
    first = next(i for i, l in enumerate(lines) if "hello from the first session" in l)
    assert second < first  # newest first
    t3.key("Down")  # pick the older one
    t3.key("Enter")
    t3.wait_for(r"Resumed .*: \d+ messages")
    t3.wait_for(PROMPT)
    at = ask(t3, "%info")
    t3.wait_for(r"messages: [1-9]", after=at)
    at = ask(t3, "hello continued")
    t3.wait_for(r"Done: the code printed", after=at)
    t3.wait_for(PROMPT, after=at)
    t3.key("C-d")
    t3.wait_for(r"\[exit 0\]")
    entries = history.list_conversations(history.folder(type("I", (), {"conversation_history_path": None})()))
    assert len(entries) == 2  # resumed into the same file, not a new one
    msgs = history.load(entries[0].path)
    users = [m["content"] for m in msgs if m["role"] == "user"]
    assert users == ["hello from the first session", "hello continued"]


def test_profile_with_a_typo(term, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("llm:\n  temprature: 0.2\n")
    t = term("--profile", str(bad), scripted=False)
    screen = t.wait_for(r"\[exit 2\]")
    assert f"Unknown setting 'llm.temprature' in profile {bad}. Did you mean 'llm.temperature'?" in screen.replace("\n", "")


def test_help_lists_every_flag(term) -> None:
    t = term("--help", scripted=False)
    screen = t.wait_for(r"\[exit 0\]")
    flags = ["--model", "-m", "--fast", "-f", "--local", "-l", "--temperature", "-t", "--context_window", "-c",
             "--max_tokens", "-x", "--max_output", "-xo", "--api_base", "-ab", "--api_key", "-ak", "--api_version", "-av",
             "--llm_supports_functions", "-lsf", "--no-llm_supports_functions", "--llm_supports_vision", "-lsv",
             "--profiles", "--profile", "-p", "--custom_instructions", "-ci", "--system_message", "-s",
             "--safe_mode", "--auto_run", "-y", "--loop", "--verbose", "-v", "--max_budget", "-b", "--multi_line", "-ml",
             "--speak_messages", "--offline", "--disable_telemetry", "--conversations", "--version", "--help",
             "--local_models", "--server", "--vision", "--os", "--import_computer_api", "--skills_path"]
    for flag in flags:
        assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", screen), flag


def test_safe_mode_finding_before_confirmation_with_the_network_off(term) -> None:
    if subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode != 0:
        pytest.fail("cannot create a network namespace (unshare -n) to turn the network off")
    t = term("-y", "--safe_mode", "ask", prefix=["unshare", "-n"])  # safe mode turns auto_run off
    t.wait_for(PROMPT)
    at = ask(t, "run the planted code")
    sent = time.monotonic()
    screen = t.wait_for(r"subprocess-shell-true", after=at, timeout=30)
    found = time.monotonic() - sent
    screen = t.wait_for(CONFIRM, after=at)
    tail = screen[at:]
    assert tail.index("subprocess-shell-true") < tail.index("(y/n/e)")
    print(f"\nnetwork off: planted subprocess.call(shell=True) -> semgrep finding on screen after {found:.2f} s")
    t.send("n")
    t.wait_for(r"Code not run", after=at)


def test_forbidden_command_refused_in_the_terminal_even_with_auto_run(term, tmp_path: Path) -> None:
    t = term("-y")
    t.wait_for(PROMPT)
    at = ask(t, "danger zone")
    screen = t.wait_for(r"Refused: this code contains a forbidden command", after=at)
    assert "(y/n/e)" not in screen[at:]


@pytest.mark.model
def test_plain_chat_with_the_embedded_model(term, smollm2_path: Path) -> None:
    t = term("--model", str(smollm2_path), "--max_tokens", "48", scripted=False)
    t.wait_for(PROMPT, timeout=60)
    at = ask(t, "Say hello in one short sentence.")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        screen = t.screen()
        if re.search(CONFIRM, screen[at:]):
            at = mark(t)
            t.send("n")  # never run what a tiny model wrote
        elif re.search(PROMPT, screen[at:]):
            break
        time.sleep(0.3)
    else:
        raise AssertionError("the embedded model's turn did not finish:\n" + t.screen())
    entries = history.list_conversations(history.folder(type("I", (), {"conversation_history_path": None})()))
    msgs = history.load(entries[0].path)
    assert msgs[0]["content"] == "Say hello in one short sentence."
    assert any(m["role"] == "assistant" and m["content"].strip() for m in msgs)
    assert str(smollm2_path) == history.header(entries[0].path)["settings"]["llm.model"]


def test_verbose_shows_timings_and_tokens_per_second(term) -> None:
    t = term("-y", "-v")
    t.wait_for(PROMPT)
    at = ask(t, "hello there")
    screen = t.wait_for(r"Done: the code printed", after=at)
    screen = t.wait_for(r"\[turn \d+\.\ds\]", after=at)
    assert re.search(r"\[model \d+\.\d\ds; first token \d+\.\d\ds; \d+ tokens; \d+\.\d tokens/s; prompt \d+ tokens", screen[at:])


def test_images_are_saved_and_their_path_shown(term) -> None:
    t = term("-y")
    t.wait_for(PROMPT)
    at = ask(t, "plot it")
    screen = t.wait_for(r"Done: the code printed plotted", after=at, timeout=60)
    m = re.search(r"\[image saved to (\S+\.png)\]", screen[at:].replace("\n", ""))
    assert m, screen[at:]
    data = Path(m.group(1)).read_bytes()
    assert data.startswith(b"\x89PNG")


def test_multi_line_entry_with_fences(term, tmp_path: Path) -> None:
    t = term("-y")
    t.wait_for(PROMPT)
    at = ask(t, "```")
    t.send("first line")
    t.send("shell second line```")
    t.wait_for(r"Done: the code printed shell-says-hi", after=at)
    # Escape typed ahead of the prompt reaches the tty in cooked mode and is lost: wait for the prompt.
    t.wait_for(PROMPT, after=at)
    at = ask(t, "%save_message m.json")
    t.wait_for("Saved", after=at)
    import json

    messages = json.loads((tmp_path / "m.json").read_text())  # the program runs in tmp_path
    assert messages[0]["content"] == "first line\nshell second line"


def test_multi_line_flag_enter_adds_a_line_escape_enter_sends(term, tmp_path: Path) -> None:
    t = term("-y", "-ml")
    t.wait_for(PROMPT)
    at = mark(t)
    t.send("first line")
    t.send("shell second line", enter=False)
    t.key("Escape", "Enter")
    t.wait_for(r"Done: the code printed shell-says-hi", after=at)
    # Escape typed ahead of the prompt reaches the tty in cooked mode and is lost: wait for the prompt.
    t.wait_for(PROMPT, after=at)
    at = ask(t, "%save_message m.json")
    t.key("Escape", "Enter")
    t.wait_for("Saved", after=at)
    import json

    assert json.loads((tmp_path / "m.json").read_text())[0]["content"] == "first line\nshell second line"


def test_kill_9_in_the_middle_of_a_turn_loses_nothing(term) -> None:
    import psutil

    from oi_local.terminal import profiles

    t = term()
    t.wait_for(PROMPT)
    default = profiles.profiles_dir() / "default.yaml"
    before = default.read_text()
    at = ask(t, "please sleep")
    t.wait_for(CONFIRM, after=at)
    t.send("y")
    t.wait_for(r"│ sleeping now", after=at)
    shell = psutil.Process(int(t._tmux("list-panes", "-t", "main", "-F", "#{pane_pid}").strip()))
    victims = [p for p in shell.children(recursive=True) if "oi_local.terminal.cli" in " ".join(p.cmdline())]
    assert len(victims) == 1
    everything = victims[0].children(recursive=True)
    victims[0].kill()  # SIGKILL
    t.wait_for(r"\[exit -9\]|\[exit 137\]")
    for p in everything:  # the code's own session outlives its parent: clean up
        try:
            p.kill()
        except psutil.Error:
            pass
    assert default.read_text() == before
    files = list(history.folder(type("I", (), {"conversation_history_path": None})()).glob("*.jsonl"))
    msgs = history.load(files[0])
    assert msgs[0]["content"] == "please sleep" and any("time.sleep(60)" in m["content"] for m in msgs if m["type"] == "code")
    t2 = term()  # and the program starts again with the same profile and history
    t2.wait_for(PROMPT)
    t2.key("C-d")
    t2.wait_for(r"\[exit 0\]")
