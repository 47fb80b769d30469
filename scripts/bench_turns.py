#!/usr/bin/env python3
"""A conversation of several turns on the embedded default model, two checkouts side by side: how
many prompt tokens each turn's first request makes llama.cpp read (the rest of the prompt comes from
its cache) and how long until its first token. Issue 18 item 4: a cached prompt prefix across turns.

    python scripts/bench_turns.py OLD_TREE NEW_TREE [--runs 2] [--models-dir .cache]

Each run is a new process per tree (PYTHONPATH set to the tree), the trees alternating, in a fresh
folder holding a small CSV and a text file; the same requests in the same order. The models' replies
may differ between the trees (their prompts do): the figures are per turn, medians over the runs.
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

from bench_newchat import RECORDED  # scripts/ is on the path when this runs

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = [
    "How many rows of data are in sales.csv?",
    "What is the total of the amount column?",
    "Which product has the highest single amount?",
    "How many lines of notes.txt mention 'urgent'?",
    "Write the total amount into total.txt.",
]
CHILD = RECORDED + r"""
turns = []
for request in json.loads(sys.argv[1]):
    calls.clear()
    t = time.perf_counter()
    oi.chat(request, display=False)
    turns.append({"wall_s": time.perf_counter() - t, "calls": list(calls)})
print(json.dumps(turns))
oi.close()
"""


def run(tree: str, models: str, home: str) -> list[dict]:
    env = dict(os.environ, OI_LOCAL_HOME=home, OI_LOCAL_MODELS_DIR=models, PYTHONPATH=tree)
    with tempfile.TemporaryDirectory() as work:
        Path(work, "sales.csv").write_text("date,product,amount\n" + "".join(
            f"2025-01-{d:02d},{p},{a}\n" for d, p, a in
            [(2, "widget", 12.5), (3, "gadget", 40), (5, "widget", 7.25), (8, "gizmo", 19.9), (9, "gadget", 3)]))
        Path(work, "notes.txt").write_text("urgent: call the bank\nbuy bread\nrenew passport (urgent)\nwater plants\n")
        out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(REQUESTS)], env=env, cwd=work,
                             capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--models-dir", default=str(ROOT / ".cache"))
    args = ap.parse_args()
    trees = {"old": str(Path(args.old).resolve()), "new": str(Path(args.new).resolve())}
    results: dict[str, list[list[dict]]] = {"old": [], "new": []}
    home = tempfile.mkdtemp(prefix="oi-bench-turns-")  # shared: both read the system prompt from disk
    run(trees["new"], args.models_dir, home)  # fills the prompt-prefix cache (not counted)
    for i in range(args.runs):
        for name in (("old", "new") if i % 2 == 0 else ("new", "old")):
            results[name].append(run(trees[name], args.models_dir, home))
    print(f"{'turn':5} {'tokens read, 1st call':>22} {'TTFT, 1st call':>16} {'turn wall':>12}   (old -> new, medians)")
    totals = {"old": 0.0, "new": 0.0}
    for t in range(len(REQUESTS)):
        row = {}
        for name, runs in results.items():
            first = [r[t]["calls"][0] for r in runs if r[t]["calls"]]
            row[name] = (statistics.median(c.get("prompt_eval_tokens", 0) for c in first),
                         statistics.median(c["first_token_s"] for c in first),
                         statistics.median(r[t]["wall_s"] for r in runs))
            totals[name] += row[name][2]
        o, n = row["old"], row["new"]
        print(f"{t + 1:<5} {o[0]:>10.0f} -> {n[0]:<9.0f} {o[1]:>7.2f} -> {n[1]:<6.2f}s {o[2]:>5.1f} -> {n[2]:.1f}s")
    print(f"whole conversation: {totals['old']:.1f} s -> {totals['new']:.1f} s")


if __name__ == "__main__":
    main()
