"""HTTP back ends against a real llama_cpp.server running SmolLM2 on 127.0.0.1 (no mocks).

A few error cases need answers llama_cpp.server never gives (a 404 for an unknown model, as Ollama
and LM Studio send; a server that never answers): those use tiny real servers on local sockets.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import psutil
import pytest
from servers import shared_server, stop_shared_servers

from oi_local.llm.backends.base import LLMError
from oi_local.llm.backends.litellm_backend import LiteLLMBackend
from oi_local.llm.backends.openai_compat import (
    OpenAICompatibleBackend,
    normalize_api_base,
    strip_provider_prefix,
)
from oi_local.local.llama_server import RunningServer, free_port, start_llama_server

pytestmark = [pytest.mark.model]

REPO = Path(__file__).resolve().parent.parent
MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant. Answer briefly."},
    {"role": "user", "content": "What is the capital of France?"},
]


@pytest.fixture(scope="session")
def server(smollm2_path: Path) -> Iterator[RunningServer]:
    yield shared_server(smollm2_path)
    stop_shared_servers()


def _plain(obj: Any) -> bool:
    """Only dicts, lists and JSON scalars all the way down (no pydantic objects)."""
    if type(obj) is dict:
        return all(type(k) is str and _plain(v) for k, v in obj.items())
    if type(obj) is list:
        return all(_plain(v) for v in obj)
    return obj is None or type(obj) in (str, int, float, bool)


def _text(chunks: list[dict[str, Any]]) -> str:
    return "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c.get("choices"))


def _finish(chunks: list[dict[str, Any]]) -> str | None:
    reasons = [c["choices"][0]["finish_reason"] for c in chunks if c.get("choices") and c["choices"][0]["finish_reason"]]
    return reasons[-1] if reasons else None


# -- OpenAICompatibleBackend -------------------------------------------------------------------


def test_streams_text_and_finish_reason(server: RunningServer) -> None:
    backend = OpenAICompatibleBackend(server.api_base)
    chunks = list(backend.completions(messages=MESSAGES, max_tokens=16, temperature=0))
    assert all(_plain(c) for c in chunks)
    assert len(chunks) > 3, "expected a stream of deltas, not one blob"
    assert _text(chunks).strip()
    assert _finish(chunks) in ("stop", "length")
    assert chunks[-1]["choices"][0]["delta"] == {}
    backend.close()
    backend.close()  # idempotent


def test_max_tokens_gives_length(server: RunningServer) -> None:
    backend = OpenAICompatibleBackend(server.api_base)
    chunks = list(backend.completions(messages=[{"role": "user", "content": "Tell me a long story."}],
                                      max_tokens=3, temperature=0))
    assert _finish(chunks) == "length"


def test_non_streaming_request_is_converted_to_chunks(server: RunningServer) -> None:
    backend = OpenAICompatibleBackend(server.api_base)
    chunks = list(backend.completions(messages=MESSAGES, max_tokens=8, temperature=0, stream=False))
    assert all(_plain(c) for c in chunks)
    assert _text(chunks).strip()
    assert _finish(chunks) in ("stop", "length")
    assert any("usage" in c for c in chunks)


def test_provider_prefixed_model_and_bare_api_base(server: RunningServer) -> None:
    assert strip_provider_prefix("openai/x") == "x"
    assert strip_provider_prefix("ollama/llama3:8b") == "llama3:8b"
    assert strip_provider_prefix("lm_studio/qwen") == "qwen"
    assert strip_provider_prefix("gpt-4o") == "gpt-4o"
    assert normalize_api_base("localhost:1234") == "http://localhost:1234/v1"
    assert normalize_api_base("http://localhost:1337/v1 ") == "http://localhost:1337/v1"

    bare = f"http://{server.host}:{server.port}"  # the spec's Ollama-style api_base, no /v1
    backend = OpenAICompatibleBackend(bare, api_key="fake_key", model="openai/x")
    assert backend.model == "x" and backend.api_base == server.api_base
    chunks = list(backend.completions(messages=MESSAGES, max_tokens=4, temperature=0))
    assert _text(chunks).strip()
    chunks = list(backend.completions(messages=MESSAGES, model="openai/another", max_tokens=2))
    assert _finish(chunks) in ("stop", "length")


def _embedded_prompt_tokens(model_path: Path, messages: list[dict[str, str]]) -> int:
    """The truth: the model's own chat template rendered and tokenized in-process by llama.cpp."""
    from oi_local.local.llama_safety import apply_cpu_workarounds

    apply_cpu_workarounds()
    import llama_cpp
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    llm = llama_cpp.Llama(str(model_path), vocab_only=True, verbose=False)
    try:
        formatter = Jinja2ChatFormatter(template=llm.metadata["tokenizer.chat_template"], eos_token="", bos_token="")
        rendered = formatter(messages=messages)
        return len(llm.tokenize(rendered.prompt.encode(), add_bos=not rendered.added_special, special=True))
    finally:
        llm.close()


def test_count_tokens_uses_server_tokenizer(server: RunningServer, smollm2_path: Path) -> None:
    conversation = MESSAGES + [
        {"role": "assistant", "content": "The capital of France is Paris."},
        {"role": "user", "content": "And of Italy? Also print it with:\n```python\nprint('Rome')\n```"},
    ]
    backend = OpenAICompatibleBackend(server.api_base)
    counted = backend.count_tokens(conversation)
    assert backend._tokenize and backend._tokenize[0].endswith("/extras/tokenize")  # the server's, not a guess
    truth = _embedded_prompt_tokens(smollm2_path, conversation)
    assert counted is not None
    assert abs(counted - truth) <= 2 * len(conversation), (counted, truth)
    assert backend.count_tokens(conversation) == counted  # cached, stable
    assert backend.count_tokens([]) == 3


def test_unreachable_server_fails_fast_with_one_line(tmp_path: Path) -> None:
    port = free_port()  # bound then closed: nothing listens there
    backend = OpenAICompatibleBackend(f"http://127.0.0.1:{port}/v1")
    start = time.monotonic()
    with pytest.raises(LLMError) as info:
        list(backend.completions(messages=MESSAGES))
    assert time.monotonic() - start < 5
    msg = str(info.value)
    assert msg == f"Cannot reach the model server at http://127.0.0.1:{port}/v1 (connection refused). Is it running?"
    assert backend.count_tokens(MESSAGES) is None


def test_closing_early_stops_generation_and_server_keeps_serving(server: RunningServer) -> None:
    def disconnects() -> int:
        return server.log_path.read_text(errors="replace").count("Disconnected from client")

    before = disconnects()
    backend = OpenAICompatibleBackend(server.api_base)
    stream = backend.completions(messages=[{"role": "user", "content": "Write a very long story about a dragon."}],
                                 max_tokens=1500, temperature=0)
    for _ in range(3):
        next(stream)
    stream.close()
    # llama_cpp.server logs when it notices the client went away and stops generating; without
    # that it would go on for ~1500 tokens (minutes on a busy CPU) before serving anyone else.
    deadline = time.monotonic() + 60
    while disconnects() == before:
        assert time.monotonic() < deadline, "the server did not notice the closed stream"
        time.sleep(0.2)
    chunks = list(backend.completions(messages=MESSAGES, max_tokens=3, temperature=0))
    assert _finish(chunks) in ("stop", "length")
    assert server.running()


def test_wrong_api_key_is_reported(smollm2_path: Path) -> None:
    with start_llama_server(smollm2_path, extra_args=["--api_key", "right-key"], timeout=120) as guarded:
        with pytest.raises(LLMError, match="refused the API key"):
            list(OpenAICompatibleBackend(guarded.api_base, api_key="wrong").completions(messages=MESSAGES))
        ok = list(OpenAICompatibleBackend(guarded.api_base, api_key="right-key").completions(messages=MESSAGES, max_tokens=3))
        assert _finish(ok) in ("stop", "length")


class _OllamaLike(BaseHTTPRequestHandler):
    """Answers like Ollama/LM Studio for a model they do not have."""

    def _json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/v1/models"):
            self._json(200, {"object": "list", "data": [{"id": "llama3.2", "object": "model"},
                                                        {"id": "qwen2.5-coder:0.5b", "object": "model"}]})
        else:
            self._json(404, {"error": "not found"})

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._json(404, {"error": {"message": "model \"nope\" not found, try pulling it first", "type": "api_error"}})

    def log_message(self, *args: Any) -> None:
        pass


def test_unknown_model_lists_served_models() -> None:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _OllamaLike)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        backend = OpenAICompatibleBackend(f"http://127.0.0.1:{httpd.server_address[1]}", model="ollama/nope")
        with pytest.raises(LLMError) as info:
            list(backend.completions(messages=MESSAGES))
        msg = str(info.value)
        assert "'nope' is not served" in msg and "llama3.2, qwen2.5-coder:0.5b" in msg
        assert "\n" not in msg
        assert backend.count_tokens(MESSAGES) is None  # no tokenizer endpoint there
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_server_that_never_answers_times_out() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes connections; nobody ever reads or answers
        backend = OpenAICompatibleBackend(f"http://127.0.0.1:{silent.getsockname()[1]}/v1", timeout=0.5)
        start = time.monotonic()
        with pytest.raises(LLMError, match="did not answer in time"):
            list(backend.completions(messages=MESSAGES))
        assert time.monotonic() - start < 5


# -- LiteLLMBackend ------------------------------------------------------------------------------


@pytest.mark.timeout(180)
def test_litellm_openai_prefix_streams_from_local_server(server: RunningServer) -> None:
    backend = LiteLLMBackend("openai/x", api_key="fake_key", api_base=server.api_base, timeout=60)
    start = time.monotonic()
    chunks = list(backend.completions(messages=MESSAGES, max_tokens=8, temperature=0))
    assert all(_plain(c) for c in chunks)
    assert _text(chunks).strip()
    assert _finish(chunks) in ("stop", "length")
    assert time.monotonic() - start < 90  # no stall on network look-ups
    assert os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP") == "True"
    assert backend.count_tokens(MESSAGES) is None
    assert backend.cost(1000, 1000) is None  # a local model has no price
    assert LiteLLMBackend("gpt-4o").cost(1000, 1000) > 0


def test_litellm_missing_key_names_the_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMError) as info:
        list(LiteLLMBackend("gpt-4o", timeout=10).completions(messages=MESSAGES))
    assert "OPENAI_API_KEY" in str(info.value) and "\n" not in str(info.value)


# -- start_llama_server ---------------------------------------------------------------------------


def test_corrupt_model_fails_with_log_lines(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.gguf"
    garbage.write_bytes(b"GGUF" + os.urandom(4096))
    with pytest.raises(LLMError, match=r"^garbage.gguf is (corrupt|truncated).*Copy or download it again\.$"):
        start_llama_server(garbage, timeout=60)  # refused by the structural check, before any server starts
    # Well-formed, but not a model llama.cpp knows: the server itself fails, and says why.
    bad = tmp_path / "broken.gguf"

    def text(value: str) -> bytes:
        return struct.pack("<Q", len(value.encode())) + value.encode()

    bad.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + text("general.architecture") + struct.pack("<I", 8)
                    + text("no-such-architecture"))
    start = time.monotonic()
    with pytest.raises(LLMError) as info:
        start_llama_server(bad, timeout=60)
    msg = str(info.value)
    assert "broken.gguf failed to start (it exited" in msg and "Last log lines:" in msg
    assert "llama" in msg.split("Last log lines:", 1)[1].lower()  # the server's own words
    assert time.monotonic() - start < 60


def test_missing_model_file(tmp_path: Path) -> None:
    with pytest.raises(LLMError, match="Model file not found"):
        start_llama_server(tmp_path / "nope.gguf")


def _server_procs() -> list[psutil.Process]:
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        cmd = p.info["cmdline"] or []
        if "oi_local.local.llama_server" in cmd and p.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(p)
    return found


def test_stop_leaves_no_orphans(smollm2_path: Path) -> None:
    before = {p.pid for p in _server_procs()}
    server = start_llama_server(smollm2_path, timeout=120)
    assert server.pid in {p.pid for p in _server_procs()}
    server.stop()
    server.stop()  # idempotent
    assert not psutil.pid_exists(server.pid)
    with pytest.raises(ProcessLookupError):
        os.killpg(server.pid, 0)  # the whole group is gone
    assert {p.pid for p in _server_procs()} <= before
    assert not server.log_path.exists()


def test_server_exits_when_its_parent_is_killed(smollm2_path: Path) -> None:
    script = ("import sys, time\n"
              "from oi_local.local.llama_server import start_llama_server\n"
              "s = start_llama_server(sys.argv[1], timeout=120)\n"
              "print(s.pid, s.log_path, flush=True)\n"
              "time.sleep(300)\n")
    parent = subprocess.Popen([sys.executable, "-c", script, str(smollm2_path)], cwd=REPO,
                              stdout=subprocess.PIPE, text=True)
    try:
        line = parent.stdout.readline().split()  # type: ignore[union-attr]
        assert line and line[0].isdigit(), "parent did not start a server"
        server_pid, log_path = int(line[0]), Path(line[1])
        assert log_path.is_file()
        parent.send_signal(signal.SIGKILL)  # no atexit, no cleanup: only the watchdog can act
        parent.wait()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if psutil.Process(server_pid).status() == psutil.STATUS_ZOMBIE:
                    break
            except psutil.NoSuchProcess:
                break
            time.sleep(0.2)
        else:
            os.killpg(server_pid, signal.SIGKILL)
            pytest.fail("the llama server outlived its killed parent")
        assert not log_path.exists(), "the orphaned server left its log behind"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
