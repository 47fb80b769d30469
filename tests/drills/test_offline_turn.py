"""Drill: one full turn inside a network namespace with no network (`unshare -n`), traced with
`strace -f` across every process it starts (the model worker, the code session): not a single
socket is created, connected, bound or sent to. Two turns: a real model (SmolLM2 through the
embedded llama.cpp worker) and a scripted model whose reply runs Python code."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from drill_support import cli_env
from terminal_support import write_scripted_profile

NETWORK_CALLS = re.compile(r"\b(socket|connect|bind|listen|accept4?|sendto|sendmsg|sendmmsg|recvfrom|getaddrinfo)\(")
pytestmark = pytest.mark.slow


def traced(tmp_path: Path, argv: list[str], timeout: float = 600) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run argv with no network and every process's network calls traced (seccomp-bpf: only those
    calls stop the tracee, so llama.cpp's threads run at full speed)."""
    for tool in ("unshare", "strace"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing (scripts/test installs strace; unshare is util-linux)")
    if subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode != 0:
        pytest.fail("cannot create a network namespace (unshare -n)")
    trace = tmp_path / "trace.txt"
    cmd = ["unshare", "-n", "strace", "--seccomp-bpf", "-f", "-qq", "-e", "trace=%network", "-e", "signal=none",
           "-o", str(trace), *argv]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                            env=cli_env(), start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole group: strace and everything it traces
        proc.communicate()
        raise
    # bubblewrap (the code sandbox) brings up the loopback of its own network namespace: a netlink
    # socket and an AF_UNIX datagram socket for the interface ioctl. Kernel configuration, no traffic.
    calls = [ln for ln in trace.read_text().splitlines() if NETWORK_CALLS.search(ln)
             and "AF_NETLINK" not in ln and "nlmsg" not in ln
             and not re.search(r"socket\(AF_UNIX, SOCK_DGRAM\|SOCK_CLOEXEC, 0\) = \d+$", ln)]
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err), calls


def traced_turn(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    return traced(tmp_path, [sys.executable, "-m", "oi_local.terminal.cli", *args])


def test_the_trace_sees_a_socket_in_a_grandchild(tmp_path) -> None:
    """The control: the same trace does report a socket, even from a child's child."""
    code = "import socket, subprocess, sys; subprocess.run([sys.executable, '-c', 'import socket; socket.socket()'])"
    run, calls = traced(tmp_path, [sys.executable, "-c", code], timeout=60)
    assert run.returncode == 0, run.stderr
    assert any(re.search(r"^\d+\s+socket\(AF_INET", c) for c in calls), calls


@pytest.mark.model
def test_a_turn_with_the_embedded_model_makes_no_network_call(tmp_path, smollm2_path) -> None:
    run, calls = traced_turn(tmp_path, "--model", str(smollm2_path), "--max_tokens", "8", "--context_window", "2048",
                             "-y", "Say hello.")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip(), "the model said nothing"
    assert calls == [], calls[:10]


def test_a_turn_that_runs_code_makes_no_network_call(tmp_path) -> None:
    profile = write_scripted_profile(tmp_path)
    run, calls = traced_turn(tmp_path, "--profile", str(profile), "-y", "hello there")
    assert run.returncode == 0, run.stderr
    assert "hello from code 42" in run.stdout  # the code ran, in its session, and its output came back
    assert calls == [], calls[:10]
