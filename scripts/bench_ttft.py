#!/usr/bin/env python3
"""Time to first token of the embedded model, request by request, in a real two-turn chat, beside
llama-cpp-python alone on the same prompts.

1. oi-local: `interpreter.chat()` twice (auto-run on) on the default model; every request the chat
   makes to the embedded back end is recorded: prompt tokens, tokens reused from the KV cache,
   tokens evaluated, and the time from the request to its first token (the model is loaded first,
   so the figures are prompt reading, not loading).
2. llama-cpp-python alone, the same prompts (the exact messages recorded above, formatted by the
   same chat template): (a) every request from an empty cache, as a fresh server would;
   (b) one `Llama` kept across the requests (its own longest-prefix reuse).

    python scripts/bench_ttft.py [--model PATH] [--threads N]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

TURNS = ["What is 12345 * 6789? Use python.", "Now divide that result by 3."]


def default_model() -> Path:
    from conftest import qwen_file  # assembles the test suite's copy once

    p = qwen_file()
    if p is None:
        raise SystemExit("the default model is not here: run scripts/test once, or pass --model")
    return p


def run_oi_local(model: Path, threads: int) -> list[dict[str, Any]]:
    from oi_local import OpenInterpreter
    from oi_local.llm.backends import embedded

    records: list[dict[str, Any]] = []
    original = embedded.EmbeddedBackend.completions

    def recording(self, **kw):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        first = None
        for chunk in original(self, **kw):
            if first is None and (chunk.get("choices") or [{}])[0].get("delta", {}).get("content"):
                first = time.perf_counter() - start
            if "usage" in chunk:
                u = chunk["usage"]
                records.append({"messages": kw["messages"], "ttft": first or 0.0, "prompt": u.get("prompt_tokens"),
                                "cached": u.get("cached_tokens"), "evaluated": u.get("prompt_eval_tokens")})
            yield chunk

    embedded.EmbeddedBackend.completions = recording
    try:
        interp = OpenInterpreter()
        interp.llm.model = str(model)
        interp.llm.n_threads = threads
        interp.auto_run = True
        t0 = time.perf_counter()
        interp.llm.backend().load()
        load = time.perf_counter() - t0
        for i, text in enumerate(TURNS, 1):
            n = len(records)
            interp.chat(text, display=False)
            for r in records[n:]:
                r["turn"] = i
        interp.llm.close()
    finally:
        embedded.EmbeddedBackend.completions = original
    print(f"oi-local: model loaded in {load:.2f} s (not counted below)")
    return records


def run_llama_alone(model: Path, threads: int, records: list[dict[str, Any]], n_ctx: int) -> tuple[list[float], list[float]]:
    from oi_local.llm.backends.llama_safety import apply_cpu_workarounds

    apply_cpu_workarounds()
    import llama_cpp
    from llama_cpp import Llama

    from oi_local.llm.backends._embedded_worker import _closure_var, _normalise

    llm = Llama(model_path=str(model), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads, verbose=False)
    handler = llm.chat_handler or llm._chat_handlers.get(llm.chat_format) or \
        llama_cpp.llama_chat_format.get_chat_completion_handler(llm.chat_format)
    formatter = _closure_var(handler, "chat_formatter")

    def tokens_of(messages):  # type: ignore[no-untyped-def]
        res = formatter(messages=_normalise(messages))
        return llm.tokenize(res.prompt.encode(), add_bos=not res.added_special, special=True)

    def ttft(tokens: list[int]) -> float:
        start = time.perf_counter()
        for _ in llm.create_completion(prompt=tokens, max_tokens=1, temperature=0.0, stream=True):
            return time.perf_counter() - start
        return time.perf_counter() - start

    cold, kept = [], []
    for r in records:
        toks = tokens_of(r["messages"])
        llm.reset()  # n_tokens = 0: nothing is reused, the whole prompt is read
        cold.append(ttft(toks))
    llm.reset()
    for r in records:
        kept.append(ttft(tokens_of(r["messages"])))
    llm.close()
    return cold, kept


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--n-ctx", type=int, default=8192)
    args = ap.parse_args()
    model = args.model or default_model()
    os.environ.setdefault("OI_LOCAL_HOME", tempfile.mkdtemp(prefix="oi-bench-"))  # no history in the user's folder
    records = run_oi_local(model, args.threads)
    cold, kept = run_llama_alone(model, args.threads, records, args.n_ctx)
    print(f"model {model.name}, {args.threads} threads; {len(records)} requests over {len(TURNS)} turns\n")
    print("| request | turn | prompt tokens | reused | read | oi-local TTFT | llama-cpp-python, empty cache | llama-cpp-python, one Llama kept |")
    print("|---|---|---|---|---|---|---|---|")
    for i, (r, c, k) in enumerate(zip(records, cold, kept), 1):
        print(f"| {i} | {r['turn']} | {r['prompt']} | {r['cached']} | {r['evaluated']} | {r['ttft'] * 1000:.0f} ms "
              f"| {c * 1000:.0f} ms | {k * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
