#!/usr/bin/env python3
"""A new chat's first request on the embedded default model, with the prompt-prefix cache on disk
(llm/backends/_prefix_cache.py) and without it, interleaved in one run: each sample is a new process
(a new `interpreter`), as a user starting a chat gets it.

    python scripts/bench_newchat.py [--runs 3] [--models-dir .cache]

Prints, per mode, the median time to the first token of the first request, the tokens that request
read, and the whole one-question chat's wall time.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A new interpreter whose every model call is recorded in `calls` (time to first token, usage);
# scripts/bench_turns.py starts its child the same way.
RECORDED = r"""
import json, sys, time
from oi_local.interpreter import OpenInterpreter
oi = OpenInterpreter(conversation_history=False)
oi.auto_run = True
calls = []
original = oi.llm.stream_text
def stream_text(*a, **k):
    t = time.perf_counter(); first = None
    for d in original(*a, **k):
        if first is None:
            first = time.perf_counter() - t
        yield d
    calls.append({"first_token_s": first, **oi.llm.last_usage})
oi.llm.stream_text = stream_text
"""
CHILD = RECORDED + r"""
t = time.perf_counter()
oi.chat(sys.argv[1], display=False)
print(json.dumps({"wall_s": time.perf_counter() - t, "calls": calls}))
oi.close()
"""


def sample(home: str, cache: bool, models: str, request: str) -> dict:
    env = dict(os.environ, OI_LOCAL_HOME=home, OI_LOCAL_MODELS_DIR=models,
               OI_LOCAL_PROMPT_CACHE="1" if cache else "0", PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as work:
        out = subprocess.run([sys.executable, "-c", CHILD, request], env=env, cwd=work, capture_output=True,
                             text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--models-dir", default=str(ROOT / ".cache"))
    ap.add_argument("--request", default="What is 2**20? Use python.")
    args = ap.parse_args()
    home = tempfile.mkdtemp(prefix="oi-bench-newchat-")
    sample(home, True, args.models_dir, args.request)  # writes the cache once (not counted)
    results: dict[str, list[dict]] = {"off": [], "on": []}
    for _ in range(args.runs):
        for mode in ("off", "on"):
            results[mode].append(sample(home, mode == "on", args.models_dir, args.request))
    print(f"{'prompt cache':14} {'1st request TTFT':>17} {'tokens read':>12} {'from disk':>10} {'chat wall':>10}")
    for mode, runs in results.items():
        first = [r["calls"][0] for r in runs]
        ttft = statistics.median(c["first_token_s"] for c in first)
        read = statistics.median(c.get("prompt_eval_tokens", 0) for c in first)
        disk = statistics.median(c.get("disk_cached_tokens", 0) for c in first)
        wall = statistics.median(r["wall_s"] for r in runs)
        print(f"{mode:14} {ttft:>16.2f}s {read:>12.0f} {disk:>10.0f} {wall:>9.2f}s")


if __name__ == "__main__":
    main()
