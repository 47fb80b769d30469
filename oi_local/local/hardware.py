"""What this machine can run: CPU, instruction sets, RAM, disk, GPUs, OS.

psutil for the portable facts; vendor tools (nvidia-smi, rocm-smi, system_profiler) only when they
are on PATH, each with a short timeout so a hung driver cannot stall `--local`.
"""
from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path

_GIB = 1024 ** 3


@dataclass
class Gpu:
    vendor: str  # nvidia, amd, apple
    name: str
    vram_bytes: int  # for Apple: the unified memory Metal may use


@dataclass
class Hardware:
    os: str
    arch: str
    cpu_name: str
    cores_physical: int
    cores_logical: int
    cpu_flags: list[str]  # the ones that matter for llama.cpp: avx, avx2, avx512*, amx*, neon, f16c, fma
    ram_total: int
    ram_available: int
    disk_free: int
    disk_path: str
    gpus: list[Gpu] = field(default_factory=list)

    @property
    def vram_total(self) -> int:
        return sum(g.vram_bytes for g in self.gpus)

    @property
    def has_avx512(self) -> bool:
        return any(f.startswith("avx512") for f in self.cpu_flags)

    @property
    def has_amx(self) -> bool:
        return any(f.startswith("amx") for f in self.cpu_flags)

    def accelerator(self) -> str:
        """The llama.cpp back end worth building for: cuda, rocm, metal or cpu."""
        vendors = {g.vendor for g in self.gpus}
        for vendor, backend in (("nvidia", "cuda"), ("amd", "rocm"), ("apple", "metal")):
            if vendor in vendors:
                return backend
        return "cpu"

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> list[str]:
        """Short lines for the user."""
        flags = [f for f in ("avx2", "avx512f", "amx_tile", "neon") if f in self.cpu_flags]
        lines = [
            f"{self.os} {self.arch}, {self.cpu_name or 'CPU'}: {self.cores_physical} cores "
            f"({self.cores_logical} threads){', ' + ' '.join(flags) if flags else ''}",
            f"RAM {self.ram_total / _GIB:.1f} GiB ({self.ram_available / _GIB:.1f} GiB available), "
            f"disk {self.disk_free / 1e9:.1f} GB free in {self.disk_path}",
        ]
        if self.gpus:
            lines += [f"GPU {g.name} ({g.vendor}, {g.vram_bytes / _GIB:.1f} GiB)" for g in self.gpus]
        else:
            lines.append("No GPU found: models run on the CPU.")
        return lines


_INTERESTING = re.compile(r"^(avx|avx2|avx_vnni|avx512\w*|amx\w*|fma|f16c|neon|asimd\w*|sve\w*|i8mm|dotprod)$")


def cpu_flags() -> tuple[str, list[str]]:
    """(cpu model name, the instruction-set flags llama.cpp cares about)."""
    system = platform.system()
    name, flags = "", set()
    if system == "Linux":
        try:
            text = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            text = ""
        for line in text.splitlines():
            key, _, value = line.partition(":")
            key = key.strip().lower()
            if key in ("model name", "hardware") and not name:
                name = value.strip()
            elif key in ("flags", "features"):
                flags.update(value.split())
    elif system == "Darwin":
        name = _run(["sysctl", "-n", "machdep.cpu.brand_string"]).strip()
        feats = _run(["sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"]).lower()
        flags.update(feats.replace(".", "_").split())
        if platform.machine() == "arm64":
            flags.update({"neon", "asimd", "dotprod"})
    else:  # Windows: no cheap portable source of CPUID flags without extra packages
        name = platform.processor()
    return name, sorted(f for f in flags if _INTERESTING.match(f))


def _run(cmd: list[str], timeout: float = 3.0) -> str:
    if not shutil.which(cmd[0]):
        return ""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout if proc.returncode == 0 else ""


def nvidia_gpus() -> list[Gpu]:
    out = _run(["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader,nounits"])
    gpus = []
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 2 and parts[1].isdigit():
            gpus.append(Gpu("nvidia", parts[0], int(parts[1]) * 1024 * 1024))
    return gpus


def amd_gpus() -> list[Gpu]:
    out = _run(["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--json"])
    try:
        data = json.loads(out) if out else {}
    except ValueError:
        return []
    gpus = []
    for card, info in data.items():
        if not isinstance(info, dict):
            continue
        total = next((v for k, v in info.items() if "total" in k.lower() and "vram" in k.lower()), None)
        name = info.get("Card series") or info.get("Card model") or card
        if total and str(total).isdigit():
            gpus.append(Gpu("amd", str(name), int(total)))
    return gpus


def apple_gpus(ram_total: int) -> list[Gpu]:
    if platform.system() != "Darwin" or platform.machine() != "arm64":
        return []
    out = _run(["system_profiler", "SPDisplaysDataType", "-json"], timeout=5.0)
    name = "Apple GPU"
    try:
        displays = json.loads(out).get("SPDisplaysDataType", []) if out else []
        if displays:
            name = displays[0].get("sppci_model") or name
    except ValueError:
        pass
    # Metal may wire about 2/3 of unified memory on small Macs, 3/4 on larger ones.
    share = 0.75 if ram_total > 36 * _GIB else 0.66
    return [Gpu("apple", name, int(ram_total * share))]


def detect(models_path: Path | None = None) -> Hardware:
    import psutil

    from oi_local._paths import models_dir

    where = Path(models_path or models_dir())
    probe = where
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent  # the folder may not exist yet: measure the disk it will be on
    mem = psutil.virtual_memory()
    name, flags = cpu_flags()
    gpus = nvidia_gpus() + amd_gpus() + apple_gpus(mem.total)
    return Hardware(
        os=platform.system(),
        arch=platform.machine(),
        cpu_name=name,
        cores_physical=psutil.cpu_count(logical=False) or os.cpu_count() or 1,
        cores_logical=psutil.cpu_count(logical=True) or os.cpu_count() or 1,
        cpu_flags=flags,
        ram_total=mem.total,
        ram_available=mem.available,
        disk_free=shutil.disk_usage(probe).free,
        disk_path=str(where),
        gpus=gpus,
    )
