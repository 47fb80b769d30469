"""`interpreter --local`: the questionary picker driven in a real terminal (tmux), remembered
choices that start with no questions, the no-terminal fallback, and the family templates."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from local_orphans import no_orphans, our_servers, wait_gone  # noqa: F401 - fixture

from oi_local._paths import models_dir
from oi_local.local import manage, wizard

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/test installs it)"),
              pytest.mark.usefixtures("no_orphans")]


class Tmux:
    """One private tmux server running one command in a 160x50 terminal."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.socket = f"oi-test-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={_q(v)}" for k, v in env.items())
        subprocess.run(["tmux", "-L", self.socket, "new-session", "-d", "-s", "t", "-x", "160", "-y", "50",
                        f"env {exports} {command}"], check=True)

    def screen(self) -> str:
        r = subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-p", "-t", "t"], capture_output=True, text=True)
        return r.stdout

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "t", *keys], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def _q(v: str) -> str:
    return "'" + v.replace("'", "'\\''") + "'"


def _run_wizard(tmp_path: Path, remembered: dict | None = None, pick: bool = True,
                ollama: str = "http://127.0.0.1:9") -> tuple[Tmux, Path]:
    out = tmp_path / "result.json"
    code = (f"import json; from oi_local.local.wizard import choose; r = choose({remembered!r}, {pick!r}); "
            f"open({str(out)!r}, 'w').write(json.dumps(r)); import time; time.sleep(0.5)")
    env = {"OI_LOCAL_HOME": os.environ["OI_LOCAL_HOME"], "PYTHONPATH": str(ROOT), "TERM": "xterm-256color",
           "OLLAMA_HOST": ollama, "PATH": os.environ["PATH"],
           "OI_TEST_ORPHAN_TAG": os.environ.get("OI_TEST_ORPHAN_TAG", "")}
    return Tmux(f"{sys.executable} -c {_q(code)}", env), out


def _result(out: Path, timeout: float = 120.0) -> dict | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if out.exists() and out.read_text():
            return json.loads(out.read_text())
        time.sleep(0.2)
    raise AssertionError("the wizard did not finish")


@pytest.mark.model
def test_picker_embedded_in_a_real_terminal(smollm2_path, tmp_path):
    manage.import_model(smollm2_path, check=False)
    t, out = _run_wizard(tmp_path)
    try:
        screen = t.wait_for("How should the model run?")
        assert "This machine:" in screen and "RAM" in screen and "Built-in llama.cpp" in screen
        t.keys("Enter")
        screen = t.wait_for("Which model?")
        assert "✓ SmolLM2 135M Instruct" in screen and "Qwen2.5 Coder" in screen
        t.keys("Enter")  # the default is the model that is already here
        result = _result(out)
    finally:
        t.close()
    assert result["provider"] == "embedded"
    assert result["llm.model"] == str(models_dir() / smollm2_path.name)
    assert result["llm.context_window"] == 8192  # the model's trained length; RAM allows more
    assert result["llm.max_tokens"] == 2048 and result["llm.api_base"] is None
    assert result["llm.stop"][0] == "<|im_end|>"
    # Remembered: the same settings come back with no questions.
    assert wizard.choose(result, pick_again=False) == result
    assert manage.list_models()[0]["last_used"] is not None


@pytest.mark.model
def test_picker_starts_a_llama_cpp_server_and_stops_it_on_exit(smollm2_path, tmp_path):
    manage.import_model(smollm2_path, check=False)
    before = our_servers()
    t, out = _run_wizard(tmp_path)
    try:
        t.wait_for("How should the model run?")
        t.keys("Down", "Enter")
        t.wait_for("Which model?")
        t.keys("Enter")
        t.wait_for("Starting llama.cpp server for SmolLM2-135M-Instruct.Q4_1.gguf")
        result = _result(out)
        assert result["provider"] == "llama-server" and result["llm.api_base"].startswith("http://127.0.0.1:")
        assert result["local_path"] == str(models_dir() / smollm2_path.name)
    finally:
        t.close()
    assert not wait_gone(our_servers() - before, 15), "the server outlived the wizard's process"


def test_ctrl_c_cancels(tmp_path):
    t, out = _run_wizard(tmp_path)
    try:
        t.wait_for("How should the model run?")
        t.keys("C-c")
        assert _result_raw(out) == "null"
    finally:
        t.close()


def _result_raw(out: Path, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if out.exists() and out.read_text():
            return out.read_text()
        time.sleep(0.2)
    raise AssertionError("the wizard did not finish")


@pytest.mark.model
def test_without_a_terminal_the_best_installed_model_is_used(smollm2_path, capsys):
    manage.import_model(smollm2_path, check=False)
    result = wizard.choose(None, pick_again=False)  # pytest's stdin is not a terminal
    assert result["provider"] == "embedded" and result["llm.model"].endswith(smollm2_path.name)
    assert "no terminal to ask" in capsys.readouterr().err


def test_remembered_model_that_is_gone(capsys):
    gone = {"provider": "embedded", "llm.model": "/nonexistent/x.gguf", "local_path": "/nonexistent/x.gguf"}
    assert wizard.choose(gone, pick_again=False) is None
    assert "The remembered local model cannot be used now: /nonexistent/x.gguf is gone" in capsys.readouterr().err


def test_picker_lists_a_running_ollama_and_its_models(tmp_path):
    from fakes_ollama import OllamaServer

    with OllamaServer({"qwen2.5-coder:7b": {"arch": "qwen2", "context_length": 32768}}) as ollama:
        t, out = _run_wizard(tmp_path, ollama=ollama.url)
        try:
            screen = t.wait_for("How should the model run?")
            assert f"Ollama running at {ollama.url}/v1 (1 models)" in screen
            t.keys("Down", "Down", "Enter")
            screen = t.wait_for("Which Ollama model?")
            assert "qwen2.5-coder:7b" in screen and "Pull another model" in screen
            t.keys("Enter")
            result = _result(out)
        finally:
            t.close()
    assert result["provider"] == "ollama" and result["llm.api_base"] == ollama.url + "/v1"
    assert result["llm.model"] == f"ollama/oi-qwen2.5-coder-7b:ctx{result['llm.context_window']}"
    assert "POST /api/create" in ollama.calls
