"""The seeds' API in a real terminal (tmux): input() in generated code asks the person, and a
hosted model without a key asks for it once."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from terminal_support import ROOT, SCRIPTED_PROFILE, Tmux, interpreter_argv

pytestmark = pytest.mark.slow
PROMPT = r"(?m)^> ?$"


@pytest.fixture
def tmux_ok():
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: scripts/test installs it (apt-get install tmux)")


def _start(tmp_path: Path, *args: str) -> Tmux:
    return Tmux(interpreter_argv(*args), {"OI_LOCAL_HOME": os.environ["OI_LOCAL_HOME"], "PYTHONPATH": str(ROOT)}, tmp_path)


def test_input_in_generated_code_asks_the_person_at_the_terminal(tmux_ok, tmp_path: Path) -> None:
    reply = '"ask me": "```python\\nname = input(\'What is your name? \')\\nprint(\'Hello,\', name.upper())\\n```\\n",\n'
    profile = tmp_path / "asking.py"
    profile.write_text(SCRIPTED_PROFILE.replace("REPLIES = {\n", "REPLIES = {\n    " + reply, 1))
    t = _start(tmp_path, "--profile", str(profile), "-y")
    try:
        t.wait_for(PROMPT)
        t.send("ask me something")
        t.wait_for(r"(?m)^What is your name\? *$", timeout=30)
        t.send("ada lovelace")
        screen = t.wait_for(r"Hello, ADA LOVELACE", timeout=30)
        assert "EOFError" not in screen
        t.wait_for(r"Done: the code printed", timeout=30)
    finally:
        t.close()


class _Echo:
    """An Azure-style model endpoint on 127.0.0.1 that answers with the api-key it was sent."""

    def __init__(self):
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                said = f"Your key ends in {str(self.headers.get('api-key'))[-4:]}."
                base = {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o"}
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                chunk = {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": said}, "finish_reason": None}]}
                done = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


def test_a_hosted_model_without_a_key_asks_once_and_can_save_it(tmux_ok, tmp_path: Path) -> None:
    server = _Echo()
    profile = tmp_path / "azure.yaml"
    profile.write_text(f"llm:\n  model: azure/my-deploy\n  api_base: {server.url}\n  api_version: '2024-06-01'\n")
    env_keys = [k for k in os.environ if k.startswith("AZURE")]
    assert not env_keys, f"the test needs no Azure key in the environment: {env_keys}"
    t = _start(tmp_path, "--profile", str(profile))
    try:
        t.wait_for(r"needs an API key \(AZURE_API_KEY\)", timeout=60)
        t.send("secret-abcd")
        t.wait_for(r"Save the key in .*\? \[y/N\]", timeout=30)
        t.send("y")
        t.wait_for(PROMPT, timeout=30)
        t.send("hello")
        screen = t.wait_for(r"Your key ends in abcd\.", timeout=60)
        assert "secret-abcd" not in screen  # typed hidden
    finally:
        t.close()
        server.httpd.shutdown()
    assert "api_key: secret-abcd" in profile.read_text()
    # The next start finds the saved key and asks nothing.
    t = _start(tmp_path, "--profile", str(profile))
    try:
        t.wait_for(PROMPT, timeout=60)
        assert "needs an API key" not in t.screen()
    finally:
        t.close()


def test_without_a_terminal_a_missing_key_is_one_line(tmp_path: Path) -> None:
    import subprocess

    profile = tmp_path / "hosted.yaml"
    profile.write_text("llm:\n  model: azure/my-deploy\n  api_base: http://127.0.0.1:9\n")
    out = subprocess.run(interpreter_argv("--profile", str(profile), "hello"), capture_output=True, text=True,
                         timeout=120, cwd=ROOT, env={k: v for k, v in os.environ.items() if not k.startswith("AZURE")},
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 1
    assert out.stderr.strip().splitlines()[-1] == \
        "Error: azure/my-deploy needs an API key: set AZURE_API_KEY or pass --api_key KEY."
