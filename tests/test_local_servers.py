"""Servers we start: real llama_cpp.server processes on SmolLM2. Detected on LM Studio's and
Jan's ports, reused, stopped with no orphans (also when the parent is killed or interrupted),
and clear errors for a taken port, a corrupt model and a server that dies while starting."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from local_orphans import no_orphans, our_servers, wait_gone  # noqa: F401 - fixture

from oi_local.llm.backends.base import LLMError
from oi_local.local import providers
from oi_local.local.llama_server import (
    free_port,
    llamafile_command,
    port_in_use,
    reuse_or_start,
    start_llama_server,
    start_llamafile,
)

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.model, pytest.mark.usefixtures("no_orphans")]


@pytest.mark.parametrize("key,port", [("lmstudio", providers.LM_STUDIO_PORT), ("jan", providers.JAN_PORT)])
def test_llama_cpp_server_is_detected_on_the_default_ports(smollm2_path, key, port):
    if port_in_use(port):
        pytest.skip(f"port {port} is busy on this machine")
    with start_llama_server(smollm2_path, port=port, n_ctx=512, model_alias="smollm2", timeout=120) as server:
        start = time.monotonic()
        found = {p.key: p for p in providers.detect(timeout=1.0)}
        took = time.monotonic() - start
        assert found[key].running and found[key].url == f"http://127.0.0.1:{port}/v1"
        assert found[key].models == ["smollm2"]
        assert took < 3.0  # probes run at once, with short timeouts
        settings = __import__("oi_local.local.wizard", fromlist=["x"]).remote_settings(key, found[key].url, "smollm2")
        assert settings["llm.api_base"] == found[key].url and settings["llm.context_window"] == 4096
    assert not server.running()


def test_reuse_and_stop(smollm2_path):
    a = reuse_or_start(smollm2_path, 512, timeout=120)
    b = reuse_or_start(smollm2_path, 512, timeout=120)
    assert a is b and a.running()
    assert providers.openai_models(a.api_base, timeout=2.0)
    a.stop()
    assert not a.running()
    c = reuse_or_start(smollm2_path, 512, timeout=120)  # the stopped one is not reused
    assert c is not a and c.running()
    c.stop()


def test_port_already_taken(smollm2_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(LLMError, match=f"Port {port} on 127.0.0.1 is already in use by another program"):
            start_llama_server(smollm2_path, port=port)


def test_cut_gguf_is_refused_before_a_server_starts(smollm2_path, tmp_path):
    broken = tmp_path / "cut.gguf"
    with open(smollm2_path, "rb") as f:
        broken.write_bytes(f.read(5_000_000))  # a download cut short: the header is fine, the tensors are not
    with pytest.raises(LLMError) as err:
        start_llama_server(broken, timeout=120)
    assert str(err.value) == ("cut.gguf is truncated: its tensors need 98362432 bytes, the file has 5000000. "
                              "Copy or download it again.")


def test_corrupt_gguf_server_dies_while_starting(smollm2_path, tmp_path):
    broken = tmp_path / "alien.gguf"  # well-formed, so it passes our checks; llama.cpp knows no such architecture
    data = smollm2_path.read_bytes()
    key = b"general.architecture" + (8).to_bytes(4, "little") + (5).to_bytes(8, "little") + b"llama"
    assert key in data
    broken.write_bytes(data.replace(key, key[:-5] + b"xxxxx", 1))
    with pytest.raises(LLMError) as err:
        start_llama_server(broken, timeout=120)
    msg = str(err.value)
    assert "alien.gguf failed to start (it exited with code" in msg and "while starting" in msg
    assert "Last log lines:" in msg and len(msg.splitlines()) > 1


def test_start_timeout_shows_the_log_and_cleans_up(tmp_path):
    """A server that never becomes healthy: stopped after the timeout, log tail shown."""
    from oi_local.local.llama_server import launch

    port = free_port()
    script = tmp_path / "slow.py"
    script.write_text("import time, sys\nprint('loading weights (fake.llamafile)', flush=True)\ntime.sleep(60)\n")
    before = our_servers()
    with pytest.raises(LLMError, match=r"not ready after 1\.5 s\)\. Last log lines:\nloading weights"):
        launch([sys.executable, str(script), "fake.llamafile"], host="127.0.0.1", port=port, model_path=script,
               timeout=1.5, label="test server")
    assert not wait_gone(our_servers() - before, 5)


def _parent_script(model: Path) -> str:
    return (
        "import signal, sys, time\n"
        # A suite started in the background (`cmd &` in a script) passes SIGINT on ignored, and
        # Python keeps it so; a person's Ctrl-C is what this stands for.
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from oi_local.local.llama_server import start_llama_server\n"
        f"s = start_llama_server({str(model)!r}, n_ctx=512, timeout=120)\n"
        "print(s.pid, flush=True)\n"
        "time.sleep(600)\n"
    )


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGINT"])
def test_no_orphans_when_the_parent_dies(smollm2_path, how):
    """Killed (no cleanup possible: the server notices its parent is gone), terminated or
    interrupted (atexit stops it): the server never outlives us."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-c", _parent_script(smollm2_path)], env=env, stdout=subprocess.PIPE,
                              text=True)
    try:
        line = parent.stdout.readline()
        assert line.strip().isdigit(), line
        server_pid = int(line)
        assert server_pid in our_servers()
        parent.send_signal(getattr(signal, how))
        parent.wait(30)
        assert not wait_gone({server_pid}, 15), f"server {server_pid} outlived its parent ({how})"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_llamafile_is_started_with_server_flags(smollm2_path, tmp_path, monkeypatch):
    """A stand-in llamafile (a shell script that, like a server llamafile, takes --server
    --nobrowser --host --port -c) that serves SmolLM2 with llama_cpp.server: checks the flags we
    pass and the lifecycle around a llamafile."""
    fake = tmp_path / "smollm2.llamafile"
    fake.write_text(f"""#!/bin/sh
# fake.llamafile
[ "$1" = "--server" ] && [ "$2" = "--nobrowser" ] || {{ echo "expected --server --nobrowser, got: $*"; exit 2; }}
shift 2
while [ $# -gt 0 ]; do
  case "$1" in
    --host) HOST=$2; shift 2;;
    --port) PORT=$2; shift 2;;
    -c) CTX=$2; shift 2;;
    *) echo "unknown flag $1"; exit 2;;
  esac
done
exec {sys.executable} -m oi_local.local.llama_server --model {smollm2_path} --host $HOST --port $PORT --n_ctx $CTX
""")
    fake.chmod(0o755)
    assert llamafile_command(fake, "127.0.0.1", 9, 2048)[1:] == [str(fake), "--server", "--nobrowser", "--host",
                                                                 "127.0.0.1", "--port", "9", "-c", "2048"]
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    with start_llamafile(fake, n_ctx=1024, timeout=120) as server:
        assert providers.openai_models(server.api_base, timeout=2.0)
    assert not server.running()
