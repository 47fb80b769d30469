"""Run tasks: seed a fresh folder, drive the interpreter in a worker subprocess under a time limit,
then check the outcome and collect figures."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import checks
import metrics
import sandbox
from taskspec import Task

WORKER = Path(__file__).resolve().parent / "worker.py"
REPO = Path(__file__).resolve().parents[2]
OI043_PYTHON = REPO / ".cache" / "oi043" / "bin" / "python"


def code_version() -> dict[str, Any]:
    """Which code "ours" runs: this checkout (a worktree of another commit included), its commit, and
    whether the package's files differ from it."""
    def git(*args: str) -> str:
        r = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, timeout=30)
        return r.stdout.strip() if r.returncode == 0 else ""
    return {"repo": str(REPO), "commit": git("rev-parse", "--short", "HEAD") or "?",
            "dirty": bool(git("status", "--porcelain", "--", "oi_local", "interpreter", "templates"))}


def ours_env(env: dict[str, str]) -> None:
    """The worker imports this checkout's package. The venv's editable install points at the checkout
    it was made from, so without this an eval run from a worktree of an older commit ran the main
    checkout's code (found in the thirty-second session)."""
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])


@dataclass
class Config:
    target: str  # "ours" | "oi043"
    model: dict[str, Any]  # {"kind": oracle|canned|embedded|server|api, ...}
    out: Path
    timeout: float = 240.0
    context_window: int | None = 8192  # None: the product's defaults (--model default)
    max_tokens: int | None = 1024
    sandbox: bool = True
    keep: bool = False
    python: str = ""  # the interpreter for the worker; default by target
    counter: metrics.Counter | None = None
    prompt_cache: Path | None = None  # shared across tasks: a user's warm prompt-prefix cache (see --prompt-cache)

    def worker_python(self) -> str:
        if self.python:
            return self.python
        return str(OI043_PYTHON) if self.target == "oi043" else sys.executable

    def needs_network(self) -> bool:
        return self.model["kind"] in ("server", "api")


def run_task(task: Task, cfg: Config) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix=f"oi-eval-{task.name}-"))
    logs = cfg.out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"{task.name}.log"
    t0 = time.monotonic()
    try:
        return _run(task, cfg, root, log, t0)
    finally:
        if cfg.keep:
            print(f"  kept task folder {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


def _run(task: Task, cfg: Config, root: Path, log: Path, t0: float) -> dict[str, Any]:
    sandbox.seed(root, task.files)
    env = sandbox.task_env(root, task.env, clear_pythonpath=cfg.target == "oi043")
    if cfg.target == "ours":
        ours_env(env)
    if cfg.model.get("models_dir"):  # --model default: the user's models folder holds the default GGUF
        env["OI_LOCAL_MODELS_DIR"] = cfg.model["models_dir"]
    result: dict[str, Any] = {"name": task.name, "category": task.category, "passed": False, "reason": ""}
    if task.setup:
        r = sandbox.run(["bash", "-c", task.setup], root, env, 60, sandbox=cfg.sandbox, network=False, log=log)
        if r.returncode != 0:
            result.update(reason=f"harness: setup failed ({r.returncode}), see {log.name}", wall_s=round(time.monotonic() - t0, 2))
            return result
    transcript_path = root / "transcript.json"
    job = {**task.to_job(), "target": cfg.target, "model": cfg.model, "transcript": str(transcript_path),
           "settings": {"context_window": cfg.context_window, "max_tokens": cfg.max_tokens}}
    job_path = root / "job.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    cache = root / "home" / ".oi-local" / "prompt_cache"
    if cfg.prompt_cache is not None and cfg.prompt_cache.is_dir():  # as a user who has chatted before has it
        shutil.copytree(cfg.prompt_cache, cache, dirs_exist_ok=True)
    r = sandbox.run([cfg.worker_python(), str(WORKER), str(job_path)], root, env, cfg.timeout,
                    sandbox=cfg.sandbox, network=cfg.needs_network(), log=log)
    if cfg.prompt_cache is not None and cache.is_dir():  # what this task saved serves the next ones
        shutil.copytree(cache, cfg.prompt_cache, dirs_exist_ok=True)
    tr = _load(transcript_path)
    tr["returncode"], tr["timed_out"] = r.returncode, r.timed_out

    # Check the outcome even after a timeout: the report tells "did the work but never stopped" apart.
    failures: list[str] = []
    turns = tr.get("turns") or []
    all_output = "\n".join(str(m.get("content") or "") for t in turns for m in metrics.console_outputs(t.get("messages") or []))
    for i, expected in enumerate(task.turn_answers):
        if expected:
            text = metrics.final_text(turns[i].get("messages") or []) if i < len(turns) else ""
            failures += checks.answer_failures(text, expected, all_output, None if i == len(task.prompts) - 1 else i)
    failures += checks.file_failures(root, task.check.get("file") or [])
    failures += checks.not_exists_failures(root, task.check.get("not_exists") or [])

    def run_command(cmd: str) -> tuple[int | None, str]:
        c = sandbox.run(["bash", "-c", cmd], root, env, 30, sandbox=cfg.sandbox, network=False, capture=True)
        return c.returncode, c.stdout

    if (root / "work").is_dir():
        failures += checks.command_failures(task.check.get("command") or [], run_command)
    else:  # the model deleted its own working folder (seen with real models on refusal tasks)
        failures.append("the task folder itself was deleted")

    crash = _crash_reason(tr, r)
    if r.timed_out:
        reason = f"timeout after {cfg.timeout:.0f}s" + (" (checks would have passed)" if not failures else "")
    elif crash:
        reason = crash + (f"; {failures[0]}" if failures else "")
    else:
        reason = "; ".join(failures)
    result.update(passed=not r.timed_out and not crash and not failures, reason=reason, failures=failures,
                  wall_s=round(time.monotonic() - t0, 2), final_answer=metrics.final_text(turns[-1].get("messages") or []) if turns else "")
    result.update(metrics.transcript_metrics(tr, cfg.counter))
    tr["result"] = result
    tdir = cfg.out / "transcripts"
    tdir.mkdir(parents=True, exist_ok=True)
    (tdir / f"{task.name}.json").write_text(json.dumps(tr, indent=1, default=str), encoding="utf-8")
    return result


def _load(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"turns": [], "calls": [], "error": "no transcript written"}


def _crash_reason(tr: dict[str, Any], r: sandbox.RunResult) -> str:
    if r.timed_out:
        return ""
    if tr.get("error"):
        return f"harness/target error: {tr['error']}"[:300]
    for t in tr.get("turns") or []:
        if t.get("error"):
            return f"crashed: {t['error']}"[:300]
    if r.returncode != 0:
        return f"worker exited {r.returncode} (see logs)"
    if not tr.get("finished"):
        return "worker ended without finishing"
    return ""
