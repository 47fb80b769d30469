"""Drills: a model server that sends a malformed line, goes quiet, or dies mid-stream. Each ends the
turn with one clear line naming the server, and the conversation on disk stays whole and resumable.
The servers are real processes speaking HTTP/SSE on 127.0.0.1; `interpreter` runs as a real process."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from drill_support import cli_env

from oi_local._paths import conversations_dir
from oi_local.llm.backends.base import LLMError
from oi_local.llm.backends.openai_compat import OpenAICompatibleBackend
from oi_local.terminal import history

HELLO = [{"role": "user", "content": "hello"}]


def run_interpreter(url: str, *args: str, timeout: float = 60, **env: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "oi_local.terminal.cli", "--api_base", url, "--model", "fake", "-y", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                          env=cli_env(**env))


def saved_conversation() -> Path:
    files = list(conversations_dir().glob("*.jsonl"))
    assert len(files) == 1, files
    return files[0]


def assert_one_clean_error(run: subprocess.CompletedProcess, *needles: str) -> str:
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout
    errors = [ln for ln in run.stderr.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1, run.stderr
    for n in needles:
        assert n in errors[0], errors[0]
    return errors[0]


def test_malformed_sse_line_is_one_line_naming_server_and_what_it_sent(model_server) -> None:
    srv = model_server("malformed")
    backend = OpenAICompatibleBackend(srv.url)
    got = []
    with pytest.raises(LLMError) as info:
        for c in backend.completions(messages=HELLO):
            got.append(c)
    msg = str(info.value)
    assert "\n" not in msg and srv.url in msg and "not JSON" in msg
    assert '{"choices": [{"delta": {"content": "lo"}' in msg  # what it sent
    assert any(c["choices"][0]["delta"].get("content") == "Hel" for c in got if c.get("choices"))


def test_malformed_sse_in_a_real_turn_ends_it_cleanly_and_keeps_history(model_server) -> None:
    srv = model_server("malformed")
    run = run_interpreter(srv.url, "say hello")
    assert_one_clean_error(run, srv.url, "not JSON")
    path = saved_conversation()
    msgs = history.load(path)
    assert msgs[0] == {"role": "user", "type": "message", "content": "say hello"}
    # Every line on disk is a whole record: the file resumes as it is.
    for line in path.read_text().splitlines():
        json.loads(line)
    ok = model_server("ok")
    again = run_interpreter(ok.url, "--conversations", timeout=60)
    assert again.returncode == 0 and "say hello" in again.stdout, again.stderr


def test_stall_between_tokens_ends_the_turn_after_the_stall_timeout(model_server) -> None:
    srv = model_server("stall")  # keep-alive comments every 0.2 s: httpx's read timeout never fires
    backend = OpenAICompatibleBackend(srv.url, stall_timeout=1.5)
    start = time.monotonic()
    got = []
    with pytest.raises(LLMError, match=r"stopped sending tokens for 1\.5 s mid-reply") as info:
        for c in backend.completions(messages=HELLO):
            got.append(c)
    elapsed = time.monotonic() - start
    assert 1.4 < elapsed < 6, elapsed
    assert srv.url in str(info.value) and "INTERPRETER_LLM_STALL_TIMEOUT" in str(info.value)
    assert "".join(c["choices"][0]["delta"].get("content", "") for c in got if c.get("choices")) == "one two three"


def test_no_first_token_is_bounded_by_the_first_token_timeout(model_server) -> None:
    srv = model_server("silent_first")
    backend = OpenAICompatibleBackend(srv.url, timeout=1.0, stall_timeout=30)
    start = time.monotonic()
    with pytest.raises(LLMError, match=r"sent no token within 1 s"):
        list(backend.completions(messages=HELLO))
    assert time.monotonic() - start < 6


def test_stall_timeout_from_the_environment_in_a_real_turn(model_server) -> None:
    srv = model_server("stall")
    start = time.monotonic()
    run = run_interpreter(srv.url, "count", INTERPRETER_LLM_STALL_TIMEOUT="1")
    assert time.monotonic() - start < 40
    assert_one_clean_error(run, srv.url, "stopped sending tokens for 1 s")
    msgs = history.load(saved_conversation())
    assert msgs[0]["content"] == "count"


def test_defaults_first_token_local_and_remote_and_stall() -> None:
    assert OpenAICompatibleBackend("http://127.0.0.1:9/v1").timeout == 600
    assert OpenAICompatibleBackend("http://192.168.1.20:1234/v1").timeout == 600  # LM Studio on the LAN
    assert OpenAICompatibleBackend("http://gpu-box.local:8080").timeout == 600
    assert OpenAICompatibleBackend("https://api.example.com/v1").timeout == 120
    assert OpenAICompatibleBackend("https://api.example.com/v1").stall_timeout == 60


@pytest.mark.slow
def test_model_server_killed_mid_stream(model_server) -> None:
    """kill -9 of the model server while it streams: one line, the partial reply kept, the file whole."""
    srv = model_server("slow")
    cmd = [sys.executable, "-m", "oi_local.terminal.cli", "--api_base", srv.url, "--model", "fake", "-y", "talk"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=cli_env())
    deadline = time.monotonic() + 30
    seen = b""
    os.set_blocking(proc.stdout.fileno(), False)
    while b"w3" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.read() or b""
        time.sleep(0.05)
    assert b"w3" in seen, seen
    os.kill(srv.proc.pid, signal.SIGKILL)
    os.set_blocking(proc.stdout.fileno(), True)
    out, err = proc.communicate(timeout=30)
    run = subprocess.CompletedProcess(cmd, proc.returncode, (seen + out).decode(), err.decode())
    assert_one_clean_error(run, srv.url, "broke mid-reply")
    msgs = history.load(saved_conversation())
    assert msgs[0]["content"] == "talk"
    assert any(m["role"] == "assistant" and "w0 w1 w2" in m.get("content", "") for m in msgs), msgs
