"""Drill: `kill -9` of `interpreter` while a real local model (the embedded llama.cpp worker, a
child process) is generating. The model process must not outlive it, and the conversation file
must be whole and resumable. (Busy code cells are the sandbox drills' part.)"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import psutil
import pytest
from drill_support import cli_env
from local_orphans import TAG, tagged, wait_gone

from oi_local._paths import conversations_dir
from oi_local.terminal import history

pytestmark = [pytest.mark.model, pytest.mark.slow]


def test_kill_9_mid_generation_leaves_no_model_process_and_a_resumable_history(smollm2_path) -> None:
    tag = uuid.uuid4().hex
    cmd = [sys.executable, "-m", "oi_local.terminal.cli", "--model", str(smollm2_path), "--max_tokens", "600",
           "--context_window", "2048", "-y", "Tell me a very long story about a lighthouse keeper."]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=cli_env(**{TAG: tag}))
    try:
        os.set_blocking(proc.stdout.fileno(), False)
        seen = b""
        deadline = time.monotonic() + 240
        while len(seen.split()) < 2 and time.monotonic() < deadline:  # the model is streaming its reply
            seen += proc.stdout.read() or b""
            assert proc.poll() is None, (seen, proc.stderr.read())
            time.sleep(0.05)
        assert len(seen.split()) >= 2, seen
        children = tagged(tag) - {proc.pid}
        workers = [p for p in children if "_embedded_worker" in " ".join(psutil.Process(p).cmdline())]
        assert workers, "the model was expected to run in its own worker process"
        assert psutil.Process(workers[0]).cpu_percent(interval=0.3) > 10  # busy generating right now
        os.kill(proc.pid, signal.SIGKILL)  # only the parent: its children must notice on their own
        proc.wait(timeout=10)
        left = wait_gone(tagged(tag), timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in tagged(tag):  # never leave a model running, whatever failed above
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert not left, f"still running after kill -9 of interpreter: {left}"

    files = list(conversations_dir().glob("*.jsonl"))
    assert len(files) == 1
    lines = files[0].read_text().splitlines()
    for line in lines:
        json.loads(line)  # every line whole (each is written with one write and fsynced)
    msgs = history.load(files[0])
    assert msgs[0] == {"role": "user", "type": "message", "content": "Tell me a very long story about a lighthouse keeper."}
    # Resumable: `--conversations` lists it, and a new turn can be appended to it.
    listed = subprocess.run([sys.executable, "-m", "oi_local.terminal.cli", "--conversations"], capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL, env=cli_env())
    assert listed.returncode == 0 and "lighthouse keeper" in listed.stdout, listed.stderr
    log = history.ConversationLog(files[0], msgs)
    log.sync(msgs + [{"role": "user", "type": "message", "content": "go on"}])
    log.close()
    assert history.load(files[0])[-1]["content"] == "go on"


LLAMA_SERVER_TURN = """
import sys
from interpreter import OpenInterpreter
from oi_local.local.llama_server import reuse_or_start

server = reuse_or_start(sys.argv[1], 2048)  # as `--local` does for a remembered llama.cpp server
interp = OpenInterpreter(auto_run=True)
interp.llm.api_base, interp.llm.model, interp.llm.max_tokens = server.api_base, "local", 600
for chunk in interp.chat("Tell me a very long story about a lighthouse keeper.", display=False, stream=True):
    if chunk.get("type") == "message" and chunk.get("content"):
        print(chunk["content"], end="", flush=True)
"""


def test_kill_9_mid_stream_from_a_llama_server_child_leaves_no_server(smollm2_path) -> None:
    """The same with the model behind a llama.cpp server this process started (the `--local`
    llama-server choice): the server, busy streaming, notices its parent is gone and exits."""
    tag = uuid.uuid4().hex
    proc = subprocess.Popen([sys.executable, "-c", LLAMA_SERVER_TURN, str(smollm2_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=cli_env(**{TAG: tag}))
    left: set[int] = set()
    try:
        os.set_blocking(proc.stdout.fileno(), False)
        seen = b""
        deadline = time.monotonic() + 240
        while len(seen.split()) < 2 and time.monotonic() < deadline:
            seen += proc.stdout.read() or b""
            assert proc.poll() is None, (seen, proc.stderr.read())
            time.sleep(0.05)
        assert len(seen.split()) >= 2, seen
        servers = [p for p in tagged(tag) if "oi_local.local.llama_server" in " ".join(psutil.Process(p).cmdline())]
        assert servers, "a llama.cpp server child was expected"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        left = wait_gone(tagged(tag), timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in tagged(tag):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert not left, f"still running after kill -9 of its parent: {left}"
    files = list(conversations_dir().glob("*.jsonl"))
    assert len(files) == 1
    for line in files[0].read_text().splitlines():
        json.loads(line)
    assert history.load(files[0])[0]["content"] == "Tell me a very long story about a lighthouse keeper."
