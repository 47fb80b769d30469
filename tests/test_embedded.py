"""EmbeddedBackend with real GGUF models in a real worker process (no mocks)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Iterator

import psutil
import pytest

from oi_local.llm.backends.base import LLMError
from oi_local.llm.backends.embedded import EmbeddedBackend

pytestmark = pytest.mark.model
ROOT = Path(__file__).resolve().parent.parent

SYSTEM = "You are a helpful assistant."
CODE_SYSTEM = "You are a Python expert. Answer with one fenced ```python code block and nothing else."
STORY = [{"role": "system", "content": SYSTEM},
         {"role": "user", "content": "Write a very long story about a dragon who learns to bake bread."}]


def text_of(chunks: list[dict[str, Any]]) -> str:
    return "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if "choices" in c)


def finish_of(chunks: list[dict[str, Any]]) -> str | None:
    return next((c["choices"][0]["finish_reason"] for c in chunks
                 if "choices" in c and c["choices"][0]["finish_reason"]), None)


def usage_of(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    return next(c["usage"] for c in chunks if "usage" in c)


def chatml(messages: list[dict[str, str]]) -> str:
    """ChatML as both models' GGUF templates render it (system message first, no tools)."""
    return "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages) + "<|im_start|>assistant\n"


def first_deltas(stream: Iterator[dict[str, Any]], n: int) -> int:
    got = 0
    for chunk in stream:
        if "choices" in chunk and chunk["choices"][0]["delta"].get("content"):
            got += 1
            if got >= n:
                break
    return got


@pytest.fixture(scope="module")
def smol(smollm2_path: Path) -> Iterator[EmbeddedBackend]:
    b = EmbeddedBackend(smollm2_path)
    yield b
    b.close()


@pytest.fixture(scope="module")
def qwen(qwen_path: Path) -> Iterator[EmbeddedBackend]:
    b = EmbeddedBackend(qwen_path)
    yield b
    b.close()


@pytest.mark.timeout(120)
def test_smollm2_streams_deltas(smol: EmbeddedBackend) -> None:
    msgs = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Say hello in one short sentence."}]
    chunks = list(smol.completions(messages=msgs, max_tokens=40, temperature=0))
    deltas = [c for c in chunks if "choices" in c and c["choices"][0]["delta"].get("content")]
    assert len(deltas) >= 2, "tokens must arrive as separate deltas"
    assert text_of(chunks).strip()
    assert finish_of(chunks) in ("stop", "length")
    usage = usage_of(chunks)
    assert usage["prompt_tokens"] == smol.count_tokens(msgs)
    assert 1 <= usage["completion_tokens"] <= 40
    assert "usage" in chunks[-1]


@pytest.mark.timeout(240)
def test_qwen_writes_a_code_block(qwen: EmbeddedBackend) -> None:
    msgs = [{"role": "system", "content": CODE_SYSTEM},
            {"role": "user", "content": "Write Python code that prints the result of 2+2."}]
    chunks = list(qwen.completions(messages=msgs, max_tokens=80, temperature=0, seed=1))
    text = text_of(chunks)
    assert "```" in text and "print" in text, text
    assert finish_of(chunks) == "stop"
    info = qwen.info()
    assert info["template_family"] == "chatml" and info["n_ctx_train"] >= 32768
    assert "qwen2" in info["description"]


def test_a_reply_prefix_is_continued_by_the_model(qwen: EmbeddedBackend) -> None:
    # Asked for words, the model still goes on from the fence it is given: the loop's way to get
    # code from a small model that keeps explaining instead.
    msgs = [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": "What is 2 to the power of 20? Answer in words, no code."}]
    plain = text_of(list(qwen.completions(messages=msgs, max_tokens=60, temperature=0, seed=1)))
    assert not plain.startswith("```"), plain
    chunks = list(qwen.completions(messages=msgs, max_tokens=60, temperature=0, seed=1, reply_prefix="```python\n"))
    text = text_of(chunks)
    assert text.startswith("```python\n") and len(text) > len("```python\n") + 3, text
    assert "2" in text[len("```python\n"):], text
    # The prefix counts as prompt, not as generated text.
    assert usage_of(chunks)["prompt_tokens"] > qwen.count_tokens(msgs)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("which", ["smollm2_path", "qwen_path"])
def test_count_tokens_is_exact(which: str, request: pytest.FixtureRequest) -> None:
    from llama_cpp import Llama  # vocab only: no compute in the test process

    path = request.getfixturevalue(which)
    vocab = Llama(str(path), vocab_only=True, verbose=False)
    b = EmbeddedBackend(path)
    try:
        msgs = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "How many legs does a spider have?"}]
        want = len(vocab.tokenize(chatml(msgs).encode(), add_bos=False, special=True))
        assert b.count_tokens(msgs) == want
        longer = msgs + [{"role": "assistant", "content": "Eight."}, {"role": "user", "content": "And an ant? 🐜"}]
        want_longer = len(vocab.tokenize(chatml(longer).encode(), add_bos=False, special=True))
        assert b.count_tokens(longer) == want_longer > want
        assert b.count_tokens(msgs) == want  # cached answer is the same
        assert b.count_text_tokens("hello world") == len(vocab.tokenize(b"hello world", add_bos=False))
    finally:
        b.close()
        vocab.close()


@pytest.mark.timeout(180)
def test_prefix_is_reused_across_turns(smol: EmbeddedBackend) -> None:
    facts = " ".join(f"Fact {i}: the number {i} squared is {i * i}." for i in range(60))
    msgs = [{"role": "system", "content": SYSTEM + " " + facts}, {"role": "user", "content": "What is fact 3?"}]
    first = usage_of(list(smol.completions(messages=msgs, max_tokens=8, temperature=0)))
    assert first["prompt_tokens"] > 500
    msgs2 = [msgs[0], {"role": "user", "content": "What is fact 7?"}]
    second = usage_of(list(smol.completions(messages=msgs2, max_tokens=8, temperature=0)))
    # Only the tail after the shared system prompt is evaluated again.
    assert second["cached_tokens"] >= second["prompt_tokens"] - 15
    assert second["prompt_eval_tokens"] < first["prompt_eval_tokens"] / 10
    assert second["prompt_eval_ms"] < first["prompt_eval_ms"] / 2  # loose: the CPU may be shared


@pytest.mark.timeout(180)
def test_closing_the_stream_cancels_fast(qwen: EmbeddedBackend) -> None:
    stream = qwen.completions(messages=STORY, max_tokens=500, temperature=0)
    t_start = time.monotonic()
    assert first_deltas(stream, 4) == 4
    per_token = (time.monotonic() - t_start) / 4  # this machine's pace right now (it may be busy)
    t0 = time.monotonic()
    stream.close()  # sends cancel and waits for the worker's done
    closed_in = time.monotonic() - t0
    assert closed_in < max(1.0, 3 * per_token), (closed_in, per_token)
    short = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Say OK."}]
    t1 = time.monotonic()
    nxt = qwen.completions(messages=short, max_tokens=3, temperature=0)
    first_deltas(nxt, 1)
    started_in = time.monotonic() - t1
    usage = usage_of(list(nxt))
    # Time to the first token minus the worker's own prompt evaluation = waiting on leftovers.
    assert started_in - usage["prompt_eval_ms"] / 1000 < 1.0, (started_in, usage)


@pytest.mark.timeout(60)
def test_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    b = EmbeddedBackend(missing)
    with pytest.raises(LLMError) as e:
        list(b.completions(messages=STORY))
    assert str(e.value) == f"Model file not found: {missing}"
    assert b.pid is None  # nothing was started
    with pytest.raises(LLMError, match="^Model file not found"):
        b.count_tokens(STORY)


@pytest.mark.timeout(60)
def test_random_bytes_are_not_a_model(tmp_path: Path) -> None:
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(os.urandom(4096))
    with pytest.raises(LLMError) as e:
        EmbeddedBackend(junk).load()
    msg = str(e.value)
    assert msg.startswith(f"Cannot load {junk}: not a valid GGUF model (") and "\n" not in msg


@pytest.mark.timeout(60)
def test_truncated_gguf_fails_cleanly(tmp_path: Path, smollm2_path: Path) -> None:
    cut = tmp_path / "cut.gguf"
    with open(smollm2_path, "rb") as f:
        cut.write_bytes(f.read(1 << 20))
    b = EmbeddedBackend(cut)
    with pytest.raises(LLMError) as e:
        list(b.completions(messages=STORY, max_tokens=4))
    msg = str(e.value)
    # Told by the GGUF tensor table before a worker is started.
    assert msg == "cut.gguf is truncated or corrupt: its GGUF header ends early. Copy or download it again."
    assert b.pid is None  # no worker was left behind
    b.close()


@pytest.mark.timeout(180)
def test_sigsegv_in_worker_then_next_call_works(smollm2_path: Path) -> None:
    b = EmbeddedBackend(smollm2_path)
    try:
        assert b.load()["extra_bufts_off"] in (True, False)
        pid = b.pid
        assert pid
        stream = b.completions(messages=STORY, max_tokens=400, temperature=0)
        with pytest.raises(LLMError) as e:
            for i, _ in enumerate(stream):
                if i == 3:
                    os.kill(pid, signal.SIGSEGV)
        assert str(e.value) == ("The embedded model crashed (SIGSEGV); it restarts on the next message "
                                "with llama.cpp's extra CPU buffers turned off.")
        assert not psutil.pid_exists(pid)
        chunks = list(b.completions(messages=STORY, max_tokens=8, temperature=0))
        assert text_of(chunks).strip() and finish_of(chunks)
        assert b.pid not in (None, pid)
        assert b.info()["extra_bufts_off"] is True  # the restart used the AMX workaround
    finally:
        b.close()


@pytest.mark.timeout(60)
def test_worker_error_keeps_the_worker(smollm2_path: Path) -> None:
    b = EmbeddedBackend(smollm2_path, n_ctx=128)
    try:
        b.load()
        pid = b.pid
        too_long = [{"role": "user", "content": "word " * 400}]
        with pytest.raises(LLMError, match="exceed context window"):
            list(b.completions(messages=too_long, max_tokens=4))
        chunks = list(b.completions(messages=[{"role": "user", "content": "Hi"}], max_tokens=4, temperature=0))
        assert finish_of(chunks) and b.pid == pid
    finally:
        b.close()


@pytest.mark.timeout(60)
def test_close_leaves_no_process(smollm2_path: Path) -> None:
    b = EmbeddedBackend(smollm2_path)
    b.load()
    pid = b.pid
    assert pid and psutil.pid_exists(pid)
    assert pid in [c.pid for c in psutil.Process().children()]
    b.close()
    b.close()  # idempotent
    assert not psutil.pid_exists(pid)
    assert b.pid is None


@pytest.mark.timeout(120)
@pytest.mark.parametrize("ending", ["normal exit", "SIGKILL"])
def test_no_orphan_after_the_parent_ends(smollm2_path: Path, ending: str) -> None:
    """atexit covers a normal exit; the worker's EOF-on-stdin rule covers a killed parent."""
    code = textwrap.dedent(f"""
        import os, signal, sys
        from oi_local.llm.backends.embedded import EmbeddedBackend
        b = EmbeddedBackend({str(smollm2_path)!r})
        b.load()
        print(b.pid, flush=True)
        if {ending == "SIGKILL"!r}:
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail(f"worker {pid} outlived its parent ({ending})")


@pytest.mark.timeout(300)
def test_two_backends_are_independent(smollm2_path: Path, qwen_path: Path) -> None:
    a, b = EmbeddedBackend(smollm2_path), EmbeddedBackend(qwen_path)
    try:
        stream_a = a.completions(messages=STORY, max_tokens=30, temperature=0)
        assert first_deltas(stream_a, 2) == 2  # a is mid-generation while b answers in full
        msgs = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Say hi."}]
        chunks_b = list(b.completions(messages=msgs, max_tokens=8, temperature=0))
        assert text_of(chunks_b).strip()
        rest_a = list(stream_a)
        assert finish_of(rest_a) in ("stop", "length")
        assert a.pid != b.pid and a.info()["path"] != b.info()["path"]
    finally:
        a.close()
        pid_b = b.pid
        assert pid_b and psutil.pid_exists(pid_b)  # closing a leaves b alone
        b.close()
