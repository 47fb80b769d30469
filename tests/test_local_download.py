"""Hub downloads against a protocol-faithful hub on 127.0.0.1 (HF_ENDPOINT), serving the real
SmolLM2 GGUF: download + verification, a killed download resumed with Range, a cut connection,
a corrupted byte rejected, HF_HUB_OFFLINE, and the disk-space check."""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import namedtuple
from pathlib import Path

import pytest
from fakes_hub import HubServer
from local_orphans import no_orphans  # noqa: F401 - fixture

from oi_local._paths import models_dir
from oi_local.llm.backends.base import LLMError
from oi_local.local import manage, models, store

REPO = "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF"
FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.usefixtures("no_orphans")


@pytest.fixture
def hub_catalog(tmp_path, monkeypatch):
    """An extra catalog entry whose only source is the hub and whose checksum is unknown (null):
    the hub's own sha256 must be the check."""
    cat = tmp_path / "extra.yaml"
    cat.write_text(f"""
- id: smollm2-hub
  name: SmolLM2 135M from the hub
  family: llama
  parameters: 135M
  quantization: Q4_1
  file: smollm2-hub.gguf
  size_bytes: 98000000
  sha256: null
  context_length: 8192
  chat_template: chatml
  kv_cache: {{layers: 30, kv_heads: 3, head_dim: 64}}
  capabilities: [chat]
  license: Apache-2.0
  sources:
    - {{type: huggingface, repo: {REPO}, filename: {FILE}}}
""")
    monkeypatch.setenv("OI_LOCAL_CATALOG", str(cat))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return models.get_entry("smollm2-hub")


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_download_verifies_against_the_hub_sha256(smollm2_path, hub_catalog, monkeypatch):
    with HubServer({f"{REPO}/{FILE}": smollm2_path}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        seen = []
        path = models.fetch(hub_catalog, progress=lambda s, d, t: seen.append((s, d, t)))
    assert path == models_dir() / "smollm2-hub.gguf"
    assert _sha(path) == _sha(smollm2_path)
    assert models.is_installed(hub_catalog) and models.verify(hub_catalog)
    rec = store.load()["smollm2-hub.gguf"]
    assert rec["source"] == f"hf:{REPO}/{FILE}" and rec["sha256"] == _sha(smollm2_path)
    dones = [d for s, d, _ in seen if s.startswith("downloading")]
    assert dones and dones == sorted(dones) and dones[-1] == smollm2_path.stat().st_size
    assert ("HEAD", f"/{REPO}/resolve/main/{FILE}", None) in hub.requests
    assert manage.verify("smollm2-hub") == {"smollm2-hub.gguf": "ok"}
    assert [r["source"] for r in manage.list_models()] == [f"hf:{REPO}/{FILE}"]
    assert manage.prune_candidates() == []


def test_cut_connection_is_resumed_with_a_range_request(smollm2_path, hub_catalog, monkeypatch):
    with HubServer({f"{REPO}/{FILE}": smollm2_path}, cut_after=30_000_000) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        path = models.fetch(hub_catalog)
    ranges = [r for m, _, r in hub.requests if m == "GET" and r]
    # It resumes from what reached the disk (huggingface_hub writes in 10 MB chunks), not from 0.
    assert ranges and 0 < int(ranges[0].split("=")[1].rstrip("-")) <= 30_000_000, hub.requests
    assert _sha(path) == _sha(smollm2_path)


@pytest.mark.slow
def test_killed_download_resumes_next_time(smollm2_path, hub_catalog, monkeypatch, tmp_path):
    size = smollm2_path.stat().st_size
    with HubServer({f"{REPO}/{FILE}": smollm2_path}, throttle=8_000_000) as hub:
        env = dict(os.environ, HF_ENDPOINT=hub.url, PYTHONPATH=str(ROOT))
        proc = subprocess.Popen([sys.executable, "-m", "oi_local.local.manage", "download", "smollm2-hub"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while hub.bytes_sent < 20_000_000 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGKILL)  # no chance to clean up: like a crash or a pulled plug
        proc.wait()
        partial = manage.prune_candidates()
        assert len(partial) == 1 and 0 < partial[0].stat().st_size < size, partial
        assert not models.is_installed(hub_catalog)
        kept = partial[0].stat().st_size
        hub.throttle = None
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        path = models.fetch(hub_catalog)
    last_get = [r for m, _, r in hub.requests if m == "GET"][-1]
    assert last_get == f"bytes={kept}-", hub.requests
    assert _sha(path) == _sha(smollm2_path)
    assert manage.prune_candidates() == []


def test_a_corrupted_byte_is_rejected(smollm2_path, hub_catalog, monkeypatch):
    with HubServer({f"{REPO}/{FILE}": smollm2_path}, corrupt_at=12_345_678) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(LLMError, match=r"is corrupt \(sha256 .*expected.*It was deleted") as err:
            models.fetch(hub_catalog)
    assert "\n" not in str(err.value)
    assert not models.is_installed(hub_catalog)
    assert not (models_dir() / "smollm2-hub.gguf").exists()
    assert not list((models_dir() / ".hub").glob("*.gguf"))


def test_catalog_checksum_mismatch_with_the_hub_downloads_nothing(smollm2_path, hub_catalog, monkeypatch):
    import dataclasses

    wrong = dataclasses.replace(hub_catalog, sha256="0" * 64)
    with HubServer({f"{REPO}/{FILE}": smollm2_path}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(LLMError, match="not the build the catalog lists"):
            models.fetch(wrong)
    assert not [r for r in hub.requests if r[0] == "GET"]


def test_offline_mode_is_respected(smollm2_path, hub_catalog, monkeypatch):
    with HubServer({f"{REPO}/{FILE}": smollm2_path}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        with pytest.raises(LLMError, match="HF_HUB_OFFLINE is set.*--local_models import"):
            models.fetch(hub_catalog)
    assert hub.requests == []


def test_missing_file_on_the_hub(smollm2_path, hub_catalog, monkeypatch):
    with HubServer({}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(LLMError, match="does not exist on the hub"):
            models.fetch(hub_catalog)


def test_hub_unreachable(hub_catalog, monkeypatch):
    from oi_local.local.llama_server import free_port

    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{free_port()}")
    with pytest.raises(LLMError, match="Cannot reach the hub at http://127.0.0.1"):
        models.fetch(hub_catalog)


def test_no_disk_space_is_found_before_downloading(smollm2_path, hub_catalog, monkeypatch):
    usage = namedtuple("usage", "total used free")
    real = shutil.disk_usage
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10 << 30, (10 << 30) - 50_000_000, 50_000_000)
                        if str(p).startswith(str(models_dir())) else real(p))
    with HubServer({f"{REPO}/{FILE}": smollm2_path}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(LLMError, match=r"Not enough disk space in .*: the model needs \d+ MB, only 50 MB free"):
            models.fetch(hub_catalog)
    assert not [r for r in hub.requests if r[0] == "GET"]
