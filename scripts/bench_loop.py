#!/usr/bin/env python3
"""The loop's own cost, two checkouts side by side (issue 14: the rules refactor must not be slower).

    python scripts/bench_loop.py OLD_TREE NEW_TREE [--runs 7] [--turns 20]

OLD_TREE and NEW_TREE are git worktrees (`git worktree add --detach /tmp/old ed7e531`). Each figure
is measured in new processes with PYTHONPATH set to the tree, the two trees alternating run by run:
`import interpreter`, `interpreter --version`, and a turn of a scripted model (tests/scripted.py of
that tree: one Python block, then an answer; no language model), median per turn after a warm-up.
Prints medians and the ratio NEW/OLD.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TURNS = r"""
import json, sys, tempfile, time, os
sys.path.insert(0, os.environ["TREE"])
os.chdir(tempfile.mkdtemp())
from tests.scripted import scripted_interpreter
n = int(sys.argv[1])
replies = []
for i in range(n + 1):
    replies += [f"```python\nprint({i} * 2)\n```", f"It is {i * 2}."]
interp, model = scripted_interpreter(replies)
times = []
for i in range(n + 1):
    t = time.perf_counter()
    interp.chat(f"What is {i} times 2?", display=False)
    times.append(time.perf_counter() - t)
interp.close()
print(json.dumps(times[1:]))  # the first turn starts the Python session
"""


def _env(tree: str) -> dict:
    env = dict(os.environ, PYTHONPATH=tree, OI_LOCAL_PROMPT_CACHE="0")
    env.pop("OPENAI_API_KEY", None)
    return env


def _wall(cmd: list[str], tree: str) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, env=_env(tree), cwd=tempfile.gettempdir(), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def _turns(tree: str, n: int) -> float:
    out = subprocess.run([sys.executable, "-c", TURNS, str(n)], env=_env(tree) | {"TREE": tree},
                         capture_output=True, text=True, check=True).stdout
    return statistics.median(json.loads(out.strip().splitlines()[-1]))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--turns", type=int, default=20)
    a = ap.parse_args()
    trees = {"old": str(Path(a.old).resolve()), "new": str(Path(a.new).resolve())}
    figures: dict[str, dict[str, list[float]]] = {k: {"import": [], "version": [], "turn": []} for k in trees}
    version = [sys.executable, "-c", "import sys; from oi_local.terminal.cli import main; sys.argv=['interpreter','--version']; main()"]
    for i in range(a.runs):
        for name in (("old", "new") if i % 2 == 0 else ("new", "old")):
            tree = trees[name]
            figures[name]["import"].append(_wall([sys.executable, "-c", "import interpreter"], tree))
            figures[name]["version"].append(_wall(version, tree))
            figures[name]["turn"].append(_turns(tree, a.turns))
    print(f"{'figure':<34}{'old':>10}{'new':>10}{'new/old':>9}")
    for key, label in (("import", "import interpreter"), ("version", "interpreter --version"),
                       ("turn", "scripted turn (code + answer)")):
        old, new = statistics.median(figures["old"][key]), statistics.median(figures["new"][key])
        print(f"{label:<34}{old * 1000:>8.1f}ms{new * 1000:>8.1f}ms{new / old:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
