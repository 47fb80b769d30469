"""Tables for the terminal, summary.json, and the side-by-side comparison of two runs."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

NUMERIC = ("turns", "model_calls", "code_blocks", "code_errors", "format_failures", "prompt_tokens", "completion_tokens", "wall_s")


def summarize(results: list[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    cats: dict[str, dict[str, Any]] = defaultdict(lambda: {"tasks": 0, "passed": 0})
    for r in results:
        c = cats[r["category"]]
        c["tasks"] += 1
        c["passed"] += int(r["passed"])
    for c in cats.values():
        c["pass_rate"] = round(c["passed"] / c["tasks"], 3) if c["tasks"] else 0.0
    n = len(results)
    totals: dict[str, Any] = {"tasks": n, "passed": sum(int(r["passed"]) for r in results)}
    totals["pass_rate"] = round(totals["passed"] / n, 3) if n else 0.0
    totals["timeouts"] = sum(1 for r in results if str(r.get("reason", "")).startswith("timeout"))
    for k in NUMERIC:
        totals[k] = round(sum(float(r.get(k) or 0) for r in results), 2)
    return {"meta": meta, "totals": totals, "categories": dict(sorted(cats.items())), "tasks": results}


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _cut(s: str, n: int) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= n else s[: n - 1] + "…"


def format_table(summary: dict[str, Any]) -> str:
    rows = [("task", "category", "result", "turns", "code", "err", "fmt", "tokens p/c", "wall s", "reason")]
    for r in summary["tasks"]:
        rows.append((r["name"], r["category"], "PASS" if r["passed"] else "FAIL", str(r.get("turns", "")),
                     str(r.get("code_blocks", "")), str(r.get("code_errors", "")), str(r.get("format_failures", "")),
                     f"{r.get('prompt_tokens', 0)}/{r.get('completion_tokens', 0)}", f"{float(r.get('wall_s') or 0):.1f}",
                     _cut(r.get("reason", ""), 70)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row[:-1], widths)) + "  " + row[-1] for row in rows]
    lines.insert(1, "-" * min(160, len(lines[0])))
    t = summary["totals"]
    lines += ["", "category      tasks  passed  rate"]
    for name, c in summary["categories"].items():
        lines.append(f"{name:<13} {c['tasks']:>5}  {c['passed']:>6}  {_pct(c['pass_rate'])}")
    lines.append(f"{'ALL':<13} {t['tasks']:>5}  {t['passed']:>6}  {_pct(t['pass_rate'])}")
    m = summary["meta"]
    lines.append(f"\ntarget={m.get('target')} model={m.get('model_label')} timeouts={t['timeouts']} "
                 f"code blocks={t['code_blocks']:.0f} code errors={t['code_errors']:.0f} format failures={t['format_failures']:.0f} "
                 f"tokens={t['prompt_tokens']:.0f}/{t['completion_tokens']:.0f} ({m.get('tokens_source', '?')}) "
                 f"wall={t['wall_s']:.0f}s")
    return "\n".join(lines)


def write_summary(out: Path, summary: dict[str, Any]) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    p = out / "summary.json"
    p.write_text(json.dumps(summary, indent=1, default=str), encoding="utf-8")
    return p


def load_summary(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if p.is_dir():
        p = p / "summary.json"
    return json.loads(p.read_text(encoding="utf-8"))


def format_compare(a: dict[str, Any], b: dict[str, Any]) -> str:
    la = f"{a['meta'].get('target')}:{a['meta'].get('model_label')}"
    lb = f"{b['meta'].get('target')}:{b['meta'].get('model_label')}"
    w = max(len(la), len(lb), 16)
    lines = [f"{'category':<13} {'A ' + la:>{w + 2}}   {'B ' + lb:>{w + 2}}"]
    for cat in sorted(set(a["categories"]) | set(b["categories"])):
        cells = []
        for s in (a, b):
            c = s["categories"].get(cat)
            cells.append(f"{c['passed']}/{c['tasks']} {_pct(c['pass_rate'])}" if c else "-")
        lines.append(f"{cat:<13} {cells[0]:>{w + 2}}   {cells[1]:>{w + 2}}")
    ta, tb = a["totals"], b["totals"]
    lines.append(f"{'ALL':<13} {str(ta['passed']) + '/' + str(ta['tasks']) + ' ' + _pct(ta['pass_rate']):>{w + 2}}   "
                 f"{str(tb['passed']) + '/' + str(tb['tasks']) + ' ' + _pct(tb['pass_rate']):>{w + 2}}")
    lines.append("")
    for k in ("timeouts",) + NUMERIC:
        lines.append(f"{k:<18} {ta.get(k, 0):>12}   {tb.get(k, 0):>12}")
    ra = {r["name"]: r for r in a["tasks"]}
    rb = {r["name"]: r for r in b["tasks"]}
    diff = [n for n in sorted(set(ra) & set(rb)) if ra[n]["passed"] != rb[n]["passed"]]
    if diff:
        lines += ["", "tasks with different outcomes:"]
        for n in diff:
            x, y = ra[n], rb[n]
            lines.append(f"  {n:<28} A {'PASS' if x['passed'] else 'FAIL'}  B {'PASS' if y['passed'] else 'FAIL'}  "
                         f"{_cut(x['reason'] or y['reason'], 80)}")
    return "\n".join(lines)


def merge_runs(dirs: list[Path], order: list[str]) -> dict[str, Any]:
    """One summary from the per-task results kept in each run's transcripts (a stopped run has no
    final summary.json, but every finished task's transcript holds its result)."""
    results: dict[str, dict[str, Any]] = {}
    metas = []
    for d in dirs:
        for f in sorted((d / "transcripts").glob("*.json")):
            tr = json.loads(f.read_text(encoding="utf-8"))
            if tr.get("result"):
                results[tr["result"]["name"]] = tr["result"]
        if (d / "summary.json").is_file():
            metas.append(load_summary(d)["meta"])
    rank = {n: i for i, n in enumerate(order)}
    rows = sorted((r for r in results.values() if r["name"] in rank), key=lambda r: rank[r["name"]])
    meta = dict(metas[-1]) if metas else {}
    meta.update(merged_from=[str(d) for d in dirs], wall_s=round(sum(float(r.get("wall_s") or 0) for r in rows), 1))
    meta.pop("partial", None)
    sources = {r.get("tokens_source") for r in rows if r.get("tokens_source")}
    meta["tokens_source"] = sources.pop() if len(sources) == 1 else "mixed"
    return summarize(rows, meta)
