"""The `interpreter` command without a terminal: flags, plain output in pipes, dispatch to other areas."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from terminal_support import ROOT, interpreter_argv, write_scripted_profile

from oi_local.interpreter import OpenInterpreter
from oi_local.terminal.cli import apply_args, build_parser


def run_cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(interpreter_argv(*args), input=stdin, capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=os.environ.copy())


def test_plain_output_when_stdout_is_not_a_terminal(tmp_path: Path) -> None:
    profile = write_scripted_profile(tmp_path)
    out = run_cli("--profile", str(profile), "-y", "hello there")
    assert out.returncode == 0, out.stderr
    assert "\x1b[" not in out.stdout  # no colours, no cursor movement
    assert "```python\nprint('hello from code', 6 * 7)\n```" in out.stdout
    assert "hello from code 42" in out.stdout and "Done: the code printed hello from code 42." in out.stdout


def test_message_from_stdin(tmp_path: Path) -> None:
    profile = write_scripted_profile(tmp_path)
    out = run_cli("--profile", str(profile), "-y", stdin="shell please\n")
    assert out.returncode == 0 and "shell-says-hi" in out.stdout


def test_without_a_terminal_code_is_not_run_unless_auto_run(tmp_path: Path) -> None:
    profile = write_scripted_profile(tmp_path)
    out = subprocess.run(["setsid", *interpreter_argv("--profile", str(profile), "hello there")], capture_output=True,
                         text=True, timeout=60, cwd=ROOT, env=os.environ.copy(), stdin=subprocess.DEVNULL)
    assert "code not run" in out.stdout.lower() and "hello from code 42" not in out.stdout



def test_every_flag_sets_its_setting() -> None:
    interp = OpenInterpreter()
    args = build_parser().parse_args([
        "-m", "m.gguf", "-t", "0.7", "-c", "4096", "-x", "300", "-xo", "999", "-ab", "http://127.0.0.1:9/v1",
        "-ak", "k", "-av", "2", "-lsf", "-lsv", "-ci", "be brief", "-s", "SYSTEM", "--safe_mode", "ask", "-y",
        "--loop", "-v", "-b", "0.5", "-ml", "-sm", "--offline", "--disable_telemetry", "-o", "--import_computer_api",
        "--skills_path", "/tmp/skills",
    ])
    apply_args(interp, args)
    llm = interp.llm
    assert (llm.model, llm.temperature, llm.context_window, llm.max_tokens) == ("m.gguf", 0.7, 4096, 300)
    assert (llm.api_base, llm.api_key, llm.api_version) == ("http://127.0.0.1:9/v1", "k", "2")
    assert llm.supports_functions is True and llm.supports_vision is True and interp.max_output == 999
    assert interp.custom_instructions == "be brief" and interp.system_message == "SYSTEM"
    assert (interp.safe_mode, interp.auto_run, interp.loop, interp.verbose, interp.max_budget) == ("ask", True, True, True, 0.5)
    assert interp.multi_line and interp.speak_messages and interp.offline and interp.disable_telemetry
    assert interp.os is True and interp.computer.import_computer_api is True and interp.computer.skills_path == "/tmp/skills"
    apply_args(interp, build_parser().parse_args(["--no-llm_supports_functions"]))
    assert interp.llm.supports_functions is False


def test_defaults_never_clobber_the_profile() -> None:
    interp = OpenInterpreter()
    interp.llm.temperature, interp.llm.max_tokens, interp.auto_run, interp.safe_mode = 0.5, 77, True, "auto"
    interp.llm.supports_functions, interp.custom_instructions, interp.max_budget = True, "x", 1.0
    apply_args(interp, build_parser().parse_args([]))
    assert (interp.llm.temperature, interp.llm.max_tokens, interp.auto_run, interp.safe_mode) == (0.5, 77, True, "auto")
    assert (interp.llm.supports_functions, interp.custom_instructions, interp.max_budget) == (True, "x", 1.0)


def test_speak_messages_without_espeak_says_so(tmp_path: Path) -> None:
    if shutil.which("espeak-ng") or shutil.which("espeak"):
        pytest.skip("espeak-ng is installed here: replies are spoken")
    profile = write_scripted_profile(tmp_path)
    out = run_cli("--profile", str(profile), "-sm", "%info")
    assert "espeak-ng is not installed" in out.stderr and "speak_messages: True" in out.stdout


def test_local_models_dispatches_to_the_manager() -> None:
    out = run_cli("--local_models", "list")
    assert out.returncode == 0 and "not available yet" not in out.stderr
    assert os.environ["OI_LOCAL_HOME"] in out.stdout  # it reports our (empty) models folder


def test_local_uses_the_remembered_choice_without_questions(smollm2_path: Path) -> None:
    from oi_local.terminal import profiles

    default = profiles.ensure_default()
    profiles.remember("local", {"llm.model": str(smollm2_path), "llm.context_window": 2048, "provider": "embedded"})
    before = default.read_text()
    out = run_cli("--local", "%info")
    assert out.returncode == 0, out.stderr
    assert f"model: {smollm2_path} [embedded]" in out.stdout and "context_window: 2048" in out.stdout
    assert default.read_text() == before  # the same choice is not written again
    out = run_cli("--local", "-c", "1024", "%info")  # a flag still wins over the wizard's choice
    assert "context_window: 1024" in out.stdout


def test_budget_flag_stops_a_priced_model_before_sending(tmp_path: Path) -> None:
    profile = write_scripted_profile(tmp_path)
    p = tmp_path / "priced.py"
    p.write_text(profile.read_text() + "\ninterpreter.llm.model = 'gpt-4o'\n")
    out = run_cli("--profile", str(p), "-y", "-b", "0.0000001", "hello there")
    assert out.returncode == 1 and "Budget reached" in out.stderr and "Nothing was sent" in out.stderr
    assert "hello from code" not in out.stdout


def test_conversations_when_there_are_none() -> None:
    out = run_cli("--conversations")
    assert out.returncode == 0 and "No saved conversations yet" in out.stdout


def test_server_flag_dispatches_to_the_server(tmp_path: Path) -> None:
    import signal
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    profile = write_scripted_profile(tmp_path)
    proc = subprocess.Popen(interpreter_argv("--profile", str(profile), "--server", "--host", "127.0.0.1", "--port", str(port)),
                            cwd=ROOT, env=os.environ.copy(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read()
                time.sleep(0.2)
        else:
            raise AssertionError("the server never listened")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert "not available yet" not in proc.stderr.read()
