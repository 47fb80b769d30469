"""Ollama through the real `ollama` client library, against a protocol-faithful Ollama on
127.0.0.1: detection, list, show (context length), pull with streamed progress, and a chat
through the product's back end whose num_ctx is our context budget."""
from __future__ import annotations

import pytest
from fakes_ollama import DEFAULT_NUM_CTX, OllamaServer
from local_orphans import no_orphans  # noqa: F401 - fixture

from oi_local.llm.backends.base import LLMError
from oi_local.local import providers, wizard

INSTALLED = {"qwen2.5-coder:1.5b": {"arch": "qwen2", "context_length": 32768, "size": 986_000_000},
             "llama3.2:1b": {"arch": "llama", "context_length": 131072, "size": 807_000_000}}
LIBRARY = {"smollm2:135m": {"arch": "llama", "context_length": 8192, "size": 271_000_000}}
pytestmark = pytest.mark.usefixtures("no_orphans")


@pytest.fixture
def ollama(monkeypatch):
    with OllamaServer(INSTALLED, LIBRARY) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        yield server


def test_detected_with_its_models(ollama):
    found = {p.key: p for p in providers.detect(timeout=1.0)}
    assert found["ollama"].running and found["ollama"].url == ollama.url + "/v1"
    assert found["ollama"].models == ["qwen2.5-coder:1.5b", "llama3.2:1b"]
    assert "GET /api/tags" in ollama.calls


def test_not_running_is_reported_not_raised(monkeypatch):
    from oi_local.local.llama_server import free_port

    monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{free_port()}")
    assert providers.ollama_models(timeout=0.5) is None
    with pytest.raises(LLMError, match="Ollama is not running at http://127.0.0.1:.*ollama serve"):
        providers.ollama_context_length("qwen2.5-coder:1.5b")


def test_show_gives_the_trained_context(ollama):
    assert providers.ollama_context_length("llama3.2:1b") == 131072
    with pytest.raises(LLMError, match="not found"):
        providers.ollama_context_length("nope:7b")


def test_pull_streams_progress(ollama):
    seen = []
    providers.ollama_pull("smollm2:135m", lambda stage, done, total: seen.append((stage, done, total)))
    totals = [(d, t) for s, d, t in seen if t]
    assert [d for d, _ in totals] == [t * i // 4 for i, (_, t) in enumerate(totals, 1)]
    assert seen[-1][0] == "success smollm2:135m"
    assert "smollm2:135m" in providers.ollama_models()
    with pytest.raises(LLMError, match="Ollama could not pull nope:1b: .*file does not exist"):
        providers.ollama_pull("nope:1b")


def test_chat_runs_with_our_context_budget(ollama):
    """Ollama's /v1 API cannot take num_ctx, so the wizard makes a variant with num_ctx set; the
    chat back end then talks to /v1 and Ollama runs the model with exactly our budget."""
    from oi_local.interpreter import OpenInterpreter

    settings = wizard.ollama_settings("qwen2.5-coder:1.5b")
    ctx = settings["llm.context_window"]
    assert settings["provider"] == "ollama" and settings["llm.api_base"] == ollama.url + "/v1"
    assert ctx != DEFAULT_NUM_CTX and 2048 <= ctx <= 32768
    assert settings["llm.model"] == f"ollama/oi-qwen2.5-coder-1.5b:ctx{ctx}"
    assert settings["llm.stop"][0] == "<|im_end|>"  # the ChatML family's stop strings
    interp = OpenInterpreter(auto_run=True)
    for key, value in settings.items():
        ns, _, attr = key.partition(".")
        if ns == "llm":
            setattr(interp.llm, attr, value)
    interp.max_code_steps = 1
    chunks = list(interp.chat("what is 6*7?", display=False, stream=True))
    assert ollama.chats, "no chat reached Ollama"
    assert {c["path"] for c in ollama.chats} == {"/v1/chat/completions"}
    assert all(c["num_ctx"] == ctx for c in ollama.chats), ollama.chats
    assert any(c.get("type") == "console" and "42" in str(c.get("content", "")) for c in chunks)
    interp.close()  # the Python session too: the no-orphans check waits only 15 s for it


def test_remembered_ollama_choice_recreates_the_variant(ollama):
    settings = wizard.ollama_settings("llama3.2:1b")
    del ollama.models[settings["llm.model"].removeprefix("ollama/")]  # e.g. the user pruned it
    again = wizard.choose(settings, pick_again=False)
    assert again == settings
    assert settings["llm.model"].removeprefix("ollama/") in ollama.models


def test_plain_ollama_model_flag_also_gets_num_ctx(ollama):
    """`--model ollama/NAME --api_base URL` without the wizard: the back end makes the variant."""
    from oi_local.llm.llm import Llm

    llm = Llm()
    llm.model = "ollama/llama3.2:1b"
    llm.api_base = ollama.url
    llm.context_window = 6144
    text = "".join(d.get("content", "") for d in llm.stream_text([{"role": "user", "content": "hi"}]))
    assert "print(6 * 7)" in text
    assert ollama.chats[-1]["model"] == "oi-llama3.2-1b:ctx6144" and ollama.chats[-1]["num_ctx"] == 6144
    llm.close()


def test_unknown_ollama_model_still_reports_ollamas_error(ollama, capsys):
    from oi_local.llm.llm import Llm

    llm = Llm()
    llm.model = "ollama/nope:1b"
    llm.api_base = ollama.url + "/v1"
    with pytest.raises(LLMError, match="nope:1b"):
        list(llm.stream_text([{"role": "user", "content": "hi"}]))
    assert "Ollama will use its default context length" in capsys.readouterr().err
    llm.close()
