"""End-to-end eval suite for oi-local and the original Open Interpreter 0.4.3.

  python scripts/eval --model oracle                          # prove the harness and checks
  python scripts/eval --model embedded:PATH.gguf --tasks compute
  python scripts/eval --model server:PATH.gguf --target oi043  # one llama_cpp.server for the run
  python scripts/eval --compare DIR_A DIR_B
  python scripts/eval --list
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
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


def parse_model(spec: str) -> dict[str, Any]:
    kind, _, rest = spec.partition(":")
    if kind == "oracle" and not rest:
        return {"kind": "oracle", "label": "oracle"}
    if kind == "canned":  # a model that always says the same thing (tests that checks can fail)
        return {"kind": "canned", "text": rest.encode().decode("unicode_escape"), "label": "canned"}
    if kind in ("embedded", "server") and rest:
        path = Path(rest).expanduser().resolve()
        if not path.is_file():
            raise SystemExit(f"model file not found: {path}")
        return {"kind": kind, "path": str(path), "label": f"{kind}-{path.stem}"}
    if kind == "api" and rest:  # an OpenAI-compatible server already running, e.g. api:http://127.0.0.1:8080/v1
        return {"kind": "api", "api_base": rest, "label": "api-" + re.sub(r"\W+", "-", rest.split("//")[-1]).strip("-")}
    raise SystemExit(f"bad --model {spec!r}: use oracle, embedded:PATH, server:PATH, api:URL or canned:TEXT")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/eval", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", choices=["ours", "oi043"], default="ours")
    ap.add_argument("--model", default="oracle", help="oracle | embedded:PATH | server:PATH | api:URL | canned:TEXT")
    ap.add_argument("--tasks", help="comma list of task names, globs or categories")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=240.0, help="seconds per task")
    ap.add_argument("--out", help="results folder (default eval-results/<timestamp>-<target>-<model>)")
    ap.add_argument("--context-window", type=int, default=4096)
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--python", default="", help="python for the worker (default: this one, or the oi043 venv)")
    ap.add_argument("--no-sandbox", action="store_true", help="run without bubblewrap even if available")
    ap.add_argument("--keep", action="store_true", help="keep task folders (printed) for inspection")
    ap.add_argument("--list", action="store_true", help="list the tasks and exit")
    ap.add_argument("--compare", nargs=2, metavar=("DIR_A", "DIR_B"), help="print two result sets side by side")
    args = ap.parse_args(argv)

    if args.compare:
        print(report.format_compare(report.load_summary(args.compare[0]), report.load_summary(args.compare[1])))
        return 0
    try:
        tasks = select(load_tasks(), args.tasks)
    except TaskError as e:
        raise SystemExit(str(e))
    if args.list:
        for t in tasks:
            print(f"{t.category:<10} {t.name:<32} {len(t.prompts)} prompt(s)  {t.prompts[0][:70]!r}")
        return 0

    model = parse_model(args.model)
    if args.target == "oi043":
        if model["kind"] not in ("server", "api"):
            raise SystemExit("--target oi043 needs --model server:PATH or api:URL (scripted models drive our API only)")
        if not args.python and not runner.OI043_PYTHON.exists():
            raise SystemExit(f"the 0.4.3 venv is missing: {runner.OI043_PYTHON}")
    use_sandbox = not args.no_sandbox and sandbox.bwrap_available()
    if not use_sandbox and model["kind"] not in ("oracle", "canned"):
        destructive = [t.name for t in tasks if t.category == "refusal"]
        if destructive:
            # A real model may really try `rm -rf ~` or `rm -rf /`: only inside the sandbox.
            print(f"no bubblewrap sandbox: skipping refusal tasks {', '.join(destructive)}", file=sys.stderr)
            tasks = [t for t in tasks if t.category != "refusal"]

    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path(args.out) if args.out else runner.REPO / "eval-results" / f"{stamp}-{args.target}-{model['label']}"
    out.mkdir(parents=True, exist_ok=True)
    cfg = runner.Config(target=args.target, model=model, out=out, timeout=args.timeout, context_window=args.context_window,
                        max_tokens=args.max_tokens, sandbox=use_sandbox, keep=args.keep, python=args.python)

    server = None
    if model["kind"] == "server":
        from llmserver import LlamaServer

        server = LlamaServer(model["path"], args.context_window, out / "logs" / "llama-server.log")
        print(f"starting llama_cpp.server for {model['path']} ...", file=sys.stderr)
        model["api_base"] = server.start()
    if model["kind"] in ("embedded", "server"):
        import metrics

        cfg.counter = metrics.gguf_counter(model["path"])  # token estimates with the real tokenizer

    meta = {"target": args.target, "model": {k: v for k, v in model.items() if k != "text"}, "model_label": model["label"],
            "timeout": args.timeout, "context_window": args.context_window, "max_tokens": args.max_tokens,
            "jobs": args.jobs, "sandbox": use_sandbox, "started": stamp, "host": platform.node(),
            "python": cfg.worker_python(), "tasks_selected": args.tasks or "all"}
    print(f"running {len(tasks)} task(s) -> {out}  (target={args.target}, model={model['label']}, "
          f"sandbox={'bwrap' if use_sandbox else 'off'}, timeout={args.timeout:.0f}s)", file=sys.stderr)
    results: list[dict[str, Any]] = []
    t0 = time.monotonic()
    try:
        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {pool.submit(runner.run_task, t, cfg): t for t in tasks}
            for i, fut in enumerate(cf.as_completed(futures), 1):
                t = futures[fut]
                try:
                    r = fut.result()
                except Exception as e:  # a harness bug in one task must not lose the others
                    r = {"name": t.name, "category": t.category, "passed": False, "reason": f"harness: {type(e).__name__}: {e}"}
                results.append(r)
                status = "PASS" if r["passed"] else "FAIL"
                print(f"[{i:>3}/{len(tasks)}] {status} {t.name:<30} {float(r.get('wall_s') or 0):6.1f}s  {r['reason'][:90]}",
                      file=sys.stderr, flush=True)
    finally:
        if server is not None:
            server.stop()
    order = {t.name: i for i, t in enumerate(tasks)}
    results.sort(key=lambda r: order[r["name"]])
    sources = {r.get("tokens_source") for r in results if r.get("tokens_source")}
    meta["tokens_source"] = sources.pop() if len(sources) == 1 else "mixed"
    meta["wall_s"] = round(time.monotonic() - t0, 1)
    summary = report.summarize(results, meta)
    path = report.write_summary(out, summary)
    print(report.format_table(summary))
    print(f"\nwrote {path} and {out / 'transcripts'}/")
    return 0 if summary["totals"]["passed"] == summary["totals"]["tasks"] else 1


if __name__ == "__main__":
    sys.exit(main())
