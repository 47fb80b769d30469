"""End-to-end eval suite for oi-local and the original Open Interpreter 0.4.3.

  python scripts/eval --model oracle                          # prove the harness and checks
  python scripts/eval --model embedded:PATH.gguf --tasks compute
  python scripts/eval --model default --tasks compute           # ours, embedded default model, product defaults
  python scripts/eval --model server:PATH.gguf --target ours,oi043  # both on one llama_cpp.server
  python scripts/eval --compare DIR_A DIR_B
  python scripts/eval --list
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import platform
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402
import runner  # noqa: E402
import sandbox  # noqa: E402
from taskspec import TaskError, load_tasks, select  # noqa: E402

DEFAULT_FILE = "qwen2.5-coder-0.5b-instruct.gguf"  # the catalog's default entry (model_catalog/models.yaml)


def parse_model(spec: str) -> dict[str, Any]:
    kind, _, rest = spec.partition(":")
    if kind == "oracle" and not rest:
        return {"kind": "oracle", "label": "oracle"}
    if kind == "default":  # the embedded default model exactly as a user gets it: no model or size settings
        folder = Path(rest or runner.REPO / ".cache").expanduser().resolve()
        if not (folder / DEFAULT_FILE).is_file():
            raise SystemExit(f"default model not found: {folder / DEFAULT_FILE} (give default:MODELS_DIR)")
        return {"kind": "default", "models_dir": str(folder), "path": str(folder / DEFAULT_FILE), "label": "default-embedded"}
    if kind == "canned":  # a model that always says the same thing (tests that checks can fail)
        return {"kind": "canned", "text": rest.encode().decode("unicode_escape"), "label": "canned"}
    if kind in ("embedded", "server") and rest:
        path = Path(rest).expanduser().resolve()
        if not path.is_file():
            raise SystemExit(f"model file not found: {path}")
        return {"kind": kind, "path": str(path), "label": f"{kind}-{path.stem}"}
    if kind == "api" and rest:  # an OpenAI-compatible server already running, e.g. api:http://127.0.0.1:8080/v1
        return {"kind": "api", "api_base": rest, "label": "api-" + re.sub(r"\W+", "-", rest.split("//")[-1]).strip("-")}
    raise SystemExit(f"bad --model {spec!r}: use oracle, default[:DIR], embedded:PATH, server:PATH, api:URL or canned:TEXT")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/eval", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", default="ours", help="ours | oi043 | ours,oi043 (both in one run, one shared server)")
    ap.add_argument("--model", default="oracle", help="oracle | default[:DIR] | embedded:PATH | server:PATH | api:URL | canned:TEXT")
    ap.add_argument("--tasks", help="comma list of task names, globs or categories")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=240.0, help="seconds per task")
    ap.add_argument("--out", help="results folder (default eval-results/<timestamp>-<target>-<model>)")
    ap.add_argument("--context-window", type=int, default=8192, help="ignored by --model default (product defaults)")
    ap.add_argument("--max-tokens", type=int, default=1024, help="ignored by --model default (product defaults)")
    ap.add_argument("--python", default="", help="python for the worker (default: this one, or the oi043 venv)")
    ap.add_argument("--no-sandbox", action="store_true", help="run without bubblewrap even if available")
    ap.add_argument("--prompt-cache", metavar="DIR", help="share the embedded model's prompt-prefix cache across "
                    "tasks through DIR (as a user who has chatted before); default: every task starts cold")
    ap.add_argument("--keep", action="store_true", help="keep task folders (printed) for inspection")
    ap.add_argument("--list", action="store_true", help="list the tasks and exit")
    ap.add_argument("--compare", nargs=2, metavar=("DIR_A", "DIR_B"), help="print two result sets side by side")
    ap.add_argument("--merge", nargs="+", metavar="DIR", help="rebuild one summary (in --out) from the transcripts of "
                    "runs that were stopped and resumed with the remaining --tasks; later folders win")
    args = ap.parse_args(argv)
    if args.merge and not args.out:
        raise SystemExit("--merge needs --out")

    if args.compare:
        print(report.format_compare(report.load_summary(args.compare[0]), report.load_summary(args.compare[1])))
        return 0
    try:
        tasks = select(load_tasks(), args.tasks)
    except TaskError as e:
        raise SystemExit(str(e))
    if args.merge:
        keep = [t.name for t in tasks]  # --tasks narrows the merge, e.g. to the tasks two runs share
        summary = report.merge_runs([Path(d) for d in args.merge], keep)
        path = report.write_summary(Path(args.out), summary)
        print(report.format_table(summary))
        print(f"\nwrote {path}")
        return 0
    if args.list:
        for t in tasks:
            print(f"{t.category:<10} {t.name:<32} {len(t.prompts)} prompt(s)  {t.prompts[0][:70]!r}")
        return 0

    targets = [t.strip() for t in args.target.split(",") if t.strip()]
    if not targets or any(t not in ("ours", "oi043") for t in targets) or len(set(targets)) != len(targets):
        raise SystemExit(f"bad --target {args.target!r}: use ours, oi043 or ours,oi043")
    model = parse_model(args.model)
    if "oi043" in targets:
        if model["kind"] not in ("server", "api"):
            raise SystemExit("--target oi043 needs --model server:PATH or api:URL (scripted models drive our API only)")
        if not args.python and not runner.OI043_PYTHON.exists():
            raise SystemExit(f"the 0.4.3 venv is missing: {runner.OI043_PYTHON} (run scripts/setup_oi043)")
    use_sandbox = not args.no_sandbox and sandbox.bwrap_available()
    if not use_sandbox and model["kind"] not in ("oracle", "canned"):
        destructive = [t.name for t in tasks if t.category == "refusal"]
        if destructive:
            # A real model may really try `rm -rf ~` or `rm -rf /`: only inside the sandbox.
            print(f"no bubblewrap sandbox: skipping refusal tasks {', '.join(destructive)}", file=sys.stderr)
            tasks = [t for t in tasks if t.category != "refusal"]

    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = Path(args.out) if args.out else runner.REPO / "eval-results" / f"{stamp}-{'+'.join(targets)}-{model['label']}"
    # "default" means the product's own defaults: the harness sets no context or reply size.
    size = (None, None) if model["kind"] == "default" else (args.context_window, args.max_tokens)

    server = None
    if model["kind"] == "server":
        from llmserver import LlamaServer

        base.mkdir(parents=True, exist_ok=True)
        server = LlamaServer(model["path"], args.context_window, base / "llama-server.log")
        print(f"starting llama_cpp.server for {model['path']} ...", file=sys.stderr)
        model["api_base"] = server.start()
    counter = None
    if model["kind"] in ("embedded", "server", "default"):
        import metrics

        counter = metrics.gguf_counter(model["path"])  # token estimates with the real tokenizer

    summaries = []
    code = 0
    try:
        for target in targets:
            out = base / target if len(targets) > 1 else base
            out.mkdir(parents=True, exist_ok=True)
            cfg = runner.Config(target=target, model=model, out=out, timeout=args.timeout, context_window=size[0],
                                max_tokens=size[1], sandbox=use_sandbox, keep=args.keep, python=args.python)
            cfg.counter = counter
            if args.prompt_cache:
                cfg.prompt_cache = Path(args.prompt_cache).resolve()
                cfg.prompt_cache.mkdir(parents=True, exist_ok=True)
            meta = {"target": target, "model": {k: v for k, v in model.items() if k != "text"}, "model_label": model["label"],
                    "timeout": args.timeout, "context_window": size[0], "max_tokens": size[1],
                    "jobs": args.jobs, "sandbox": use_sandbox, "started": time.strftime("%Y%m%d-%H%M%S"),
                    "host": platform.node(), "machine": machine(), "python": cfg.worker_python(),
                    "tasks_selected": args.tasks or "all", "prompt_cache": bool(args.prompt_cache)}
            if target == "ours":
                meta["code"] = runner.code_version()
            summary = run_all(tasks, cfg, meta, args.jobs)
            summaries.append((out, summary))
            code |= 0 if summary["totals"]["passed"] == summary["totals"]["tasks"] else 1
    finally:
        if server is not None:
            server.stop()
    if len(summaries) == 2:
        print("\n" + report.format_compare(summaries[0][1], summaries[1][1]))
        print(f"\nboth: {base}")
    return code


def machine() -> str:
    """CPU model and core count, for the figures' provenance."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def run_all(tasks: list, cfg: runner.Config, meta: dict[str, Any], jobs: int) -> dict[str, Any]:
    print(f"running {len(tasks)} task(s) -> {cfg.out}  (target={cfg.target}, model={cfg.model['label']}, "
          f"sandbox={'bwrap' if cfg.sandbox else 'off'}, timeout={cfg.timeout:.0f}s)", file=sys.stderr)
    if meta.get("code"):
        c = meta["code"]
        print(f"code: {c['repo']} at {c['commit']}{' with uncommitted changes' if c['dirty'] else ''}", file=sys.stderr)
    results: list[dict[str, Any]] = []
    t0 = time.monotonic()
    with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(runner.run_task, t, cfg): t for t in tasks}
        for i, fut in enumerate(cf.as_completed(futures), 1):
            t = futures[fut]
            try:
                r = fut.result()
            except Exception as e:  # a harness bug in one task must not lose the others
                r = {"name": t.name, "category": t.category, "passed": False, "reason": f"harness: {type(e).__name__}: {e}"}
            results.append(r)
            # A partial summary after every task: a run stopped early still has its figures.
            report.write_summary(cfg.out, report.summarize(results, {**meta, "partial": f"{len(results)}/{len(tasks)}"}))
            status = "PASS" if r["passed"] else "FAIL"
            print(f"[{i:>3}/{len(tasks)}] {cfg.target:<5} {status} {t.name:<30} {float(r.get('wall_s') or 0):6.1f}s  {r['reason'][:90]}",
                  file=sys.stderr, flush=True)
    order = {t.name: i for i, t in enumerate(tasks)}
    results.sort(key=lambda r: order[r["name"]])
    sources = {r.get("tokens_source") for r in results if r.get("tokens_source")}
    meta["tokens_source"] = sources.pop() if len(sources) == 1 else "mixed"
    meta["wall_s"] = round(time.monotonic() - t0, 1)
    summary = report.summarize(results, meta)
    path = report.write_summary(cfg.out, summary)
    print(report.format_table(summary))
    print(f"\nwrote {path} and {cfg.out / 'transcripts'}/")
    return summary


if __name__ == "__main__":
    sys.exit(main())
