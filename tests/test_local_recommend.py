"""Hardware detection on this machine, the recommender and context choice on described machines,
and per-family templates applied by the engine."""
from __future__ import annotations

import os
import platform
from pathlib import Path

import psutil
import pytest
from local_orphans import no_orphans  # noqa: F401 - fixture

from oi_local.local import families, hardware, recommend
from oi_local.local.models import get_entry

GIB = 1024 ** 3
pytestmark = pytest.mark.usefixtures("no_orphans")


def machine(ram_gib: float, cores: int = 2, gpus: list | None = None) -> hardware.Hardware:
    return hardware.Hardware(os="Linux", arch="x86_64", cpu_name="test", cores_physical=cores, cores_logical=cores,
                             cpu_flags=["avx2"], ram_total=int(ram_gib * GIB), ram_available=int(ram_gib * 0.9 * GIB),
                             disk_free=100 * GIB, disk_path="/x", gpus=gpus or [])


def test_detects_this_machine():
    hw = hardware.detect()
    assert hw.os == platform.system() and hw.arch == platform.machine()
    assert hw.cores_logical == psutil.cpu_count() and hw.ram_total == psutil.virtual_memory().total
    assert 0 < hw.ram_available <= hw.ram_total and hw.disk_free > 0
    if platform.system() == "Linux":
        flags = Path("/proc/cpuinfo").read_text().split()
        assert ("avx2" in flags) == ("avx2" in hw.cpu_flags)
        assert any(f.startswith("amx") for f in flags) == hw.has_amx
    assert hw.accelerator() in ("cpu", "cuda", "rocm", "metal", "vulkan")
    text = "\n".join(hw.summary())
    assert "RAM" in text and "GiB" in text


def test_small_cpu_machine_gets_a_small_code_model():
    best = recommend.recommend(machine(8, cores=2))[0]
    assert best.entry.has("code") and best.entry.size_bytes < 1.5 * GIB
    assert best.device == "cpu" and 2048 <= best.context <= recommend.CPU_CONTEXT_CAP


def test_big_gpu_gets_a_big_code_model_with_long_context():
    gpu = hardware.Gpu("nvidia", "RTX", 24 * GIB)
    best = recommend.recommend(machine(64, cores=16, gpus=[gpu]))[0]
    assert best.device == "gpu" and best.entry.has("code")
    assert best.entry.size_bytes > 4 * GIB and best.context == 32768


def test_nothing_that_does_not_fit_is_offered():
    plans = recommend.recommend(machine(2))
    assert plans, "a 2 GiB machine still runs the smallest models"
    for p in plans:
        assert p.memory <= recommend.usable_ram(machine(2))
    assert "qwen2.5-coder-14b" not in {p.entry.id for p in plans}


def test_context_follows_memory_and_trained_length():
    e = get_entry("qwen2.5-coder-7b")
    roomy = recommend.choose_context(e.size_bytes, e.kv_bytes_per_token, e.context_length, 64 * GIB, gpu=True)
    tight = recommend.choose_context(e.size_bytes, e.kv_bytes_per_token, e.context_length, e.memory_needed(5000), gpu=True)
    assert roomy == 32768 and tight == 4096
    assert recommend.choose_context(e.size_bytes, e.kv_bytes_per_token, e.context_length, GIB, gpu=False) == 0
    gemma = get_entry("gemma-2-2b")  # trained on 8k: never more, however much RAM
    assert recommend.choose_context(gemma.size_bytes, gemma.kv_bytes_per_token, gemma.context_length, 64 * GIB, True) == 8192
    assert recommend.max_tokens_for(8192) == 2048 and recommend.max_tokens_for(2048) == 512


@pytest.mark.parametrize("name,family", [
    ("qwen2.5-coder-0.5b", "chatml"), ("smollm2-135m", "chatml"), ("llama-3.1-8b", "llama3"),
    ("phi-3.5-mini", "phi3"), ("phi-4-mini", "phi4"), ("gemma-3-4b", "gemma"), ("codestral-22b", "mistral"),
    ("deepseek-coder-v2-lite", "deepseek2"), ("ollama/llama3.2:3b", "llama3"), ("openai/mistral-nemo", "mistral"),
    ("something-else", None)])
def test_family_detection(name, family):
    assert families.family_for(name) == family


@pytest.mark.model
def test_family_from_a_gguf_header(smollm2_path, tmp_path):
    renamed = tmp_path / "model.gguf"  # a name that says nothing: the header has to
    os.symlink(smollm2_path, renamed)
    assert families.family_for(str(renamed)) == "chatml"


def test_engine_applies_family_templates(tmp_path, monkeypatch):
    """A family file's prompt keys reach the engine for that family's models only."""
    from oi_local.core.prompts import load_template_set
    from oi_local.interpreter import OpenInterpreter

    fam_dir = tmp_path / "templates" / "families"
    fam_dir.mkdir(parents=True)
    (fam_dir / "mistral.yaml").write_text("name: mistral\nmatch: ['mistral']\nstop: ['[INST]']\n"
                                          "prompt:\n  code_output_template: 'MISTRAL SAW: {content}'\n")
    monkeypatch.setattr(families, "bundled", lambda name: tmp_path / name)
    families.load_families.cache_clear()
    families.family_for.cache_clear()
    try:
        interp = OpenInterpreter()
        interp.llm.api_base = "http://127.0.0.1:1234/v1"
        interp.llm.model = "openai/mistral-7b"
        assert interp.code_output_template == "MISTRAL SAW: {content}"
        assert interp.system_message == load_template_set("small")["system_message"]  # the rest: small set
        interp.llm.model = "openai/qwen2.5-coder"
        assert interp.code_output_template == load_template_set("small")["code_output_template"]
        interp.llm.model = "openai/mistral-7b"
        interp.template = "small"  # a set the user names is used as is
        assert interp.template_set() == load_template_set("small")
    finally:
        families.load_families.cache_clear()
        families.family_for.cache_clear()


def test_every_family_file_is_valid():
    fams = families.load_families()
    assert set(fams) == {"chatml", "llama3", "phi3", "phi4", "gemma", "mistral", "deepseek2", "smolvlm"}
    for f in fams.values():
        assert f["stop"] and all(isinstance(s, str) and s for s in f["stop"])


def _tool(folder: Path, name: str, output: str) -> None:
    script = folder / name
    script.write_text(f"#!/bin/sh\ncat <<'OUT'\n{output}\nOUT\n")
    script.chmod(0o755)


def test_gpus_from_vendor_tools(tmp_path, monkeypatch):
    """nvidia-smi and rocm-smi stand-ins printing what the real tools print for these queries."""
    _tool(tmp_path, "nvidia-smi", "NVIDIA GeForce RTX 4090, 24564")
    _tool(tmp_path, "rocm-smi", '{"card0": {"Card series": "Radeon RX 7900 XTX", "VRAM Total Memory (B)": "25753026560"}}')
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    hw = hardware.detect()
    assert [(g.vendor, g.name) for g in hw.gpus] == [("nvidia", "NVIDIA GeForce RTX 4090"), ("amd", "Radeon RX 7900 XTX")]
    assert hw.gpus[0].vram_bytes == 24564 * 1024 * 1024 and hw.gpus[1].vram_bytes == 25753026560
    assert hw.accelerator() == "cuda"
    assert "GPU NVIDIA GeForce RTX 4090 (cuda: 24.0 GiB)" in hw.summary()
    best = recommend.recommend(hw)[0]
    assert best.device == "gpu" and best.entry.size_bytes > 4 * GIB


def test_broken_vendor_tool_is_ignored(tmp_path, monkeypatch):
    script = tmp_path / "nvidia-smi"
    script.write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed because it could not communicate with the driver' >&2\nexit 9\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert [g for g in hardware.detect().gpus if g.vendor == "nvidia"] == []
