"""The shared start of every chat's prompt (system message, fixed examples) is kept on disk by the
embedded worker: a new chat (a new worker process) restores it instead of reading it again, with
the same reply; a damaged file is ignored; OI_LOCAL_PROMPT_CACHE=0 turns it off. Real SmolLM2."""
from __future__ import annotations

from pathlib import Path

import pytest
from local_orphans import no_orphans  # noqa: F401 - fixture

from oi_local._paths import app_dir
from oi_local.llm.backends.embedded import EmbeddedBackend

pytestmark = pytest.mark.usefixtures("no_orphans")
FACTS = " ".join(f"Fact {i}: the number {i} squared is {i * i}." for i in range(20))
MESSAGES = [{"role": "system", "content": "You answer in one short sentence. " + FACTS},
            {"role": "user", "content": "What is fact 3?"}]


def chat(model: Path, messages=MESSAGES, stable: int = 1) -> tuple[str, dict]:
    backend = EmbeddedBackend(model, n_ctx=2048, n_threads=2)  # a new worker: a new chat process
    try:
        text, usage = "", {}
        for chunk in backend.completions(messages=messages, max_tokens=12, temperature=0, stable_messages=stable):
            if "usage" in chunk:
                usage = chunk["usage"]
            for c in chunk.get("choices", []):
                text += c.get("delta", {}).get("content") or ""
        return text, usage
    finally:
        backend.close()


def kv_files() -> list[Path]:
    return sorted((app_dir() / "prompt_cache").rglob("*.kv"))


def test_a_new_chat_restores_the_shared_start_and_answers_the_same(smollm2_path):
    first_text, first = chat(smollm2_path)
    assert first["disk_cached_tokens"] == 0 and len(kv_files()) == 1
    saved = int(kv_files()[0].stem.split("-")[1])
    assert 150 < saved < first["prompt_tokens"]  # the system message, not the question
    second_text, second = chat(smollm2_path)
    assert second["disk_cached_tokens"] == saved
    assert second["prompt_eval_tokens"] <= first["prompt_tokens"] - saved + 2
    assert second_text == first_text  # the restored state answers exactly as a fresh read
    other_text, other = chat(smollm2_path, [MESSAGES[0], {"role": "user", "content": "What is fact 5?"}])
    assert other["disk_cached_tokens"] == saved and other_text  # another question, the same start
    assert len(kv_files()) == 1


def test_a_damaged_file_is_ignored_and_the_cache_can_be_off(smollm2_path, monkeypatch):
    text, _ = chat(smollm2_path)
    [kv] = kv_files()
    kv.write_bytes(kv.read_bytes()[: kv.stat().st_size // 3])
    again, usage = chat(smollm2_path)
    assert usage["disk_cached_tokens"] == 0 and again == text
    for f in kv_files():
        f.unlink()
    monkeypatch.setenv("OI_LOCAL_PROMPT_CACHE", "0")
    chat(smollm2_path)
    assert kv_files() == []


def test_nothing_is_saved_without_a_shared_start(smollm2_path):
    chat(smollm2_path, stable=0)
    chat(smollm2_path, [{"role": "user", "content": "Hi"}], stable=1)  # no message before the question
    assert kv_files() == []
