"""The eval harness (scripts/eval) end to end: the oracle solves its tasks through our real API, and
scripted wrong models make the same checks fail for the right reasons."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EVAL = REPO / "scripts" / "eval"
# One task per category, including multi-turn, file, command and refusal checks.
TASKS = ["compute-multiply", "files-move-pdfs", "data-json-edit", "shell-count-lines",
         "multi-primes-variable", "fix-off-by-one", "refuse-wipe-home"]


def run_eval(out: Path, *args: str, timeout: float = 120) -> dict:
    proc = subprocess.run([sys.executable, str(EVAL), "--target", "ours", "--out", str(out), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout)
    summary = out / "summary.json"
    assert summary.is_file(), f"no summary.json\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return json.loads(summary.read_text())


def by_name(summary: dict) -> dict[str, dict]:
    return {t["name"]: t for t in summary["tasks"]}


def test_task_files_load_and_cover_every_category():
    sys.path.insert(0, str(EVAL))
    try:
        from taskspec import load_tasks
    finally:
        sys.path.remove(str(EVAL))
    tasks = load_tasks()
    assert len(tasks) >= 40
    assert {"compute", "files", "data", "shell", "multiturn", "fix", "refusal"} <= {t.category for t in tasks}
    assert any(len(t.prompts) > 1 for t in tasks)


@pytest.mark.slow
def test_oracle_passes_and_transcripts_are_written(tmp_path):
    s = run_eval(tmp_path / "oracle", "--model", "oracle", "--tasks", ",".join(TASKS))
    failed = {t["name"]: t["reason"] for t in s["tasks"] if not t["passed"]}
    assert not failed, failed
    assert s["totals"]["tasks"] == len(TASKS) and s["totals"]["pass_rate"] == 1.0
    multi = by_name(s)["multi-primes-variable"]
    assert multi["turns"] == 3 and multi["code_blocks"] == 3  # state kept across turns
    tr = json.loads((tmp_path / "oracle" / "transcripts" / "multi-primes-variable.json").read_text())
    assert [t["prompt"] for t in tr["turns"]][1] == "How many are there?"
    assert tr["calls"] and all("prompt" in c and "wall_s" in c for c in tr["calls"])


@pytest.mark.slow
def test_a_model_that_does_nothing_fails_with_the_right_reasons(tmp_path):
    s = run_eval(tmp_path / "idk", "--model", "canned:I don't know.", "--tasks", ",".join(TASKS))
    r = by_name(s)
    assert not any(r[n]["passed"] for n in TASKS if n != "refuse-wipe-home")
    assert "final answer lacks 13464368428112" in r["compute-multiply"]["reason"]
    assert "pdfs/invoice.pdf is missing" in r["files-move-pdfs"]["reason"]
    assert "(got \"True 8000 myapp" in r["data-json-edit"]["reason"]
    assert "answer of turn 2 lacks 15" in r["multi-primes-variable"]["reason"]
    assert "output lacks '5050' (got '4950')" in r["fix-off-by-one"]["reason"]
    assert r["refuse-wipe-home"]["passed"]  # doing nothing is the right answer to a destructive request
    assert r["compute-multiply"]["code_blocks"] == 0


@pytest.mark.slow
def test_destructive_code_and_format_failures_and_timeouts_are_caught(tmp_path):
    # Deletes only inside the task folder, so this is safe with or without the sandbox. The product
    # does not auto-run code for a request to delete everything (confirm_destructive): the canary
    # survives, the code is counted, and the transcript says why it did not run. (The check for a
    # missing file itself is shown by files-move-pdfs above.)
    s = run_eval(tmp_path / "rm", "--model", "canned:```bash\\nrm -f notes.txt\\n```", "--tasks", "refuse-delete-everything")
    t = by_name(s)["refuse-delete-everything"]
    assert t["passed"] and t["code_blocks"] >= 1 and t["code_errors"] == 0
    tr = (tmp_path / "rm" / "transcripts" / "refuse-delete-everything.json").read_text()
    assert "Not run: this request asks to delete" in tr

    s = run_eval(tmp_path / "fmt", "--model", "canned:Here:\\n```text\\nprint(349808 * 38490739)\\n```", "--tasks", "compute-multiply")
    t = by_name(s)["compute-multiply"]
    assert not t["passed"] and t["code_blocks"] == 0 and t["format_failures"] >= 1

    s = run_eval(tmp_path / "slow", "--model", "canned:```python\\nimport time\\ntime.sleep(60)\\n```",
                 "--tasks", "compute-multiply", "--timeout", "4")
    t = by_name(s)["compute-multiply"]
    assert not t["passed"] and t["reason"].startswith("timeout") and t["wall_s"] < 30


def test_compare_and_plot(tmp_path):
    def summary(rate: float) -> dict:
        return {"meta": {"target": "ours", "model_label": "m"}, "totals": {"tasks": 2, "passed": int(2 * rate), "pass_rate": rate},
                "categories": {"compute": {"tasks": 2, "passed": int(2 * rate), "pass_rate": rate}},
                "tasks": [{"name": "a", "category": "compute", "passed": rate > 0, "reason": "" if rate else "final answer lacks 1"}]}
    for name, rate in (("a", 1.0), ("b", 0.0)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "summary.json").write_text(json.dumps(summary(rate)))
    out = subprocess.run([sys.executable, str(EVAL), "--compare", str(tmp_path / "a"), str(tmp_path / "b")],
                         capture_output=True, text=True, check=True).stdout
    assert "compute" in out and "100.0%" in out and "0.0%" in out
    bench = tmp_path / "bench.json"
    bench.write_text(json.dumps({"ours": {"version_wall_s": 0.3}, "oi043": {"version_wall_s": 2.9}}))
    subprocess.run([sys.executable, str(EVAL / "plot.py"), str(tmp_path / "a"), str(tmp_path / "b"),
                    "--out", str(tmp_path / "p.png"), "--bench", str(bench)], check=True, capture_output=True)
    assert (tmp_path / "p.png").stat().st_size > 1000 and (tmp_path / "startup.png").stat().st_size > 1000


def test_numbers_match_with_or_without_separators():
    sys.path.insert(0, str(EVAL))
    try:
        from checks import contains
    finally:
        sys.path.remove(str(EVAL))
    for text in ("13464368428112", "It is 13,464,368,428,112.", "**13 464 368 428 112**", "13_464_368_428_112"):
        assert contains(text, 13464368428112), text
    assert contains("You will have €1,343.92.", "1343.92")
    assert contains("The average is 79.50", 79.5)
    assert not contains("There are 1228 primes", 1229)
    assert not contains("2, 3, 5, 7", 2357)
    assert contains("It was a TUESDAY", "Tuesday")


def test_model_and_target_specs(tmp_path):
    sys.path.insert(0, str(EVAL))
    try:
        import importlib.util

        spec = importlib.util.spec_from_file_location("eval_main", EVAL / "__main__.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(EVAL))
    (tmp_path / mod.DEFAULT_FILE).write_bytes(b"GGUF")
    m = mod.parse_model(f"default:{tmp_path}")
    assert m["kind"] == "default" and m["models_dir"] == str(tmp_path) and m["label"] == "default-embedded"
    with pytest.raises(SystemExit, match="default model not found"):
        mod.parse_model(f"default:{tmp_path / 'nowhere'}")
    with pytest.raises(SystemExit, match="bad --target"):
        mod.main(["--target", "ours,bogus", "--tasks", "compute-multiply"])
    with pytest.raises(SystemExit, match="needs --model server"):
        mod.main(["--target", "ours,oi043", "--model", "oracle", "--tasks", "compute-multiply"])


def test_merge_joins_stopped_and_resumed_runs(tmp_path):
    def run(folder: str, results: list[dict]) -> Path:
        d = tmp_path / folder / "transcripts"
        d.mkdir(parents=True)
        for r in results:
            (d / f"{r['name']}.json").write_text(json.dumps({"turns": [], "result": r}))
        return d.parent

    r = lambda n, c, ok: {"name": n, "category": c, "passed": ok, "reason": "" if ok else "x", "wall_s": 2}  # noqa: E731
    a = run("a", [r("compute-multiply", "compute", False), r("compute-weekday", "compute", True)])
    b = run("b", [r("compute-multiply", "compute", True), r("shell-count-lines", "shell", False)])
    subprocess.run([sys.executable, str(EVAL), "--merge", str(a), str(b), "--out", str(tmp_path / "m")],
                   check=True, capture_output=True, text=True)
    s = json.loads((tmp_path / "m" / "summary.json").read_text())
    assert [t["name"] for t in s["tasks"]] == ["compute-multiply", "compute-weekday", "shell-count-lines"]
    assert s["totals"]["passed"] == 2 and s["categories"]["compute"]["pass_rate"] == 1.0  # the later run wins
    subprocess.run([sys.executable, str(EVAL), "--merge", str(a), str(b), "--tasks", "shell", "--out", str(tmp_path / "n")],
                   check=True, capture_output=True, text=True)
    assert json.loads((tmp_path / "n" / "summary.json").read_text())["totals"]["tasks"] == 1


@pytest.mark.slow
def test_an_eval_runs_the_code_of_its_own_checkout(tmp_path):
    """The venv's editable install points at one checkout; an eval run from another (a worktree of an
    older commit) must still drive that other checkout's package, and say which code ran."""
    import shutil

    copy = tmp_path / "checkout"
    for part in ("oi_local", "interpreter", "templates", "scripts/eval"):
        shutil.copytree(REPO / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, str(copy / "scripts" / "eval"), "--target", "ours", "--out", str(out),
                           "--model", "oracle", "--tasks", "compute-multiply"],
                          cwd=copy, capture_output=True, text=True, timeout=120)
    s = json.loads((out / "summary.json").read_text())
    assert s["totals"]["passed"] == 1, proc.stderr
    assert s["meta"]["code"]["repo"] == str(copy)
    tr = json.loads((out / "transcripts" / "compute-multiply.json").read_text())
    assert tr["package"] == str(copy / "oi_local")
