"""Charts for the README: pass rate per category (ours vs the original) and start-up time.

  python scripts/eval/plot.py OURS_DIR_OR_SUMMARY OI043_DIR_OR_SUMMARY --out eval-results/passrate.png \
      [--bench bench-results/startup.json --bench-out eval-results/startup.png]

The bench file (from scripts/bench) looks like {"ours": {"version_wall_s": 0.4, ...}, "oi043": {...}};
every numeric key ending in "_s" becomes a group of bars. Without --bench that chart is skipped.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display on servers and in CI
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import load_summary  # noqa: E402

COLORS = ("#2b7bba", "#7fb3e0", "#d9822b", "#999999")


def _label(s: dict[str, Any]) -> str:
    m = s.get("meta", {})
    name = {"ours": "oi-local", "oi043": "open-interpreter 0.4.3"}.get(m.get("target"), str(m.get("target")))
    return f"{name} ({m.get('model_label', '?')})"


def _color(s: dict[str, Any], i: int) -> str:
    """Ours in blues, the original in orange, whatever the order."""
    if s.get("meta", {}).get("target") == "oi043":
        return COLORS[2]
    return COLORS[0] if i == 0 else COLORS[1]


def plot_pass_rates(summaries: list[dict[str, Any]], out: Path) -> Path:
    cats = sorted({c for s in summaries for c in s["categories"]}) + ["ALL"]
    width = 0.8 / len(summaries)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(cats) + 2), 4.2))
    for i, s in enumerate(summaries):
        rates = [100 * (s["totals"]["pass_rate"] if c == "ALL" else s["categories"].get(c, {}).get("pass_rate", 0.0)) for c in cats]
        xs = [j + (i - (len(summaries) - 1) / 2) * width for j in range(len(cats))]
        bars = ax.bar(xs, rates, width, label=_label(s), color=_color(s, i))
        ax.bar_label(bars, fmt="%.0f", fontsize=7, padding=1)
    ax.set_xticks(range(len(cats)), cats, rotation=20)
    ax.set_ylabel("tasks passed (%)")
    ax.set_ylim(0, 125)  # room for the legend above the bars
    n = summaries[0]["totals"]["tasks"]
    ax.set_title(f"End-to-end eval: pass rate per category ({n} tasks)")
    ax.legend(fontsize=8, loc="upper center", ncol=2, frameon=False)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def plot_bench(bench: dict[str, Any], out: Path) -> Path | None:
    targets = [t for t in ("ours", "oi043") if isinstance(bench.get(t), dict)] or [k for k, v in bench.items() if isinstance(v, dict)]
    keys = sorted({k for t in targets for k, v in bench[t].items() if k.endswith("_s") and isinstance(v, (int, float))})
    if not targets or not keys:
        return None
    width = 0.8 / len(targets)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(keys) + 2), 3.8))
    for i, t in enumerate(targets):
        vals = [float(bench[t].get(k) or 0) for k in keys]
        xs = [j + (i - (len(targets) - 1) / 2) * width for j in range(len(keys))]
        bars = ax.bar(xs, vals, width, label={"ours": "oi-local", "oi043": "open-interpreter 0.4.3"}.get(t, t),
                      color=COLORS[2] if t == "oi043" else COLORS[0])
        ax.bar_label(bars, fmt="%.2f", fontsize=7, padding=1)
    ax.set_xticks(range(len(keys)), [k[:-2].replace("_", " ") for k in keys], rotation=15)
    ax.set_ylabel("seconds (lower is better)")
    ax.set_title("Start-up time")
    ax.legend(fontsize=8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("summaries", nargs="+", help="result folders or summary.json files (ours first)")
    ap.add_argument("--out", default="eval-results/passrate.png")
    ap.add_argument("--bench", help="bench JSON with start-up times; skipped if absent")
    ap.add_argument("--bench-out", default="", help="default: startup.png next to --out")
    args = ap.parse_args(argv)
    p = plot_pass_rates([load_summary(s) for s in args.summaries], Path(args.out))
    print(f"wrote {p}")
    if args.bench:
        bp = Path(args.bench)
        if not bp.is_file():
            print(f"no bench file at {bp}: skipping the start-up chart")
            return 0
        out = Path(args.bench_out) if args.bench_out else Path(args.out).with_name("startup.png")
        written = plot_bench(json.loads(bp.read_text(encoding="utf-8")), out)
        print(f"wrote {written}" if written else "bench file has no *_s numbers: skipping the start-up chart")
    return 0


if __name__ == "__main__":
    sys.exit(main())
