"""What this machine can run: CPU, instruction sets, RAM, disk, GPUs, OS.

psutil for the portable facts; vendor tools (nvidia-smi, rocm-smi, system_profiler, vulkaninfo) only
when they are on PATH, each with a short timeout so a hung driver cannot stall `--local`. Each
tool's output has a parse_* function of its own, tested with recorded outputs (tests/fixtures/gpu).
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
    vendor: str  # nvidia, amd, apple, intel, or the Vulkan vendor id
    name: str
    vram_bytes: int  # for Apple: the unified memory Metal may use; 0 = not reported (Vulkan summary)
    backend: str = ""  # the llama.cpp back end that drives it: cuda, rocm, metal, vulkan
    driver: str = ""
    vram_free: int | None = None  # None: the tool does not report it

    def __post_init__(self) -> None:
        if not self.backend:
            self.backend = {"nvidia": "cuda", "amd": "rocm", "apple": "metal"}.get(self.vendor, "vulkan")

    @property
    def usable(self) -> int:
        """VRAM a model may take now: the free memory when reported, else the total."""
        return self.vram_free if self.vram_free is not None else self.vram_bytes


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
        """The llama.cpp back end worth building for: cuda, rocm, metal, vulkan or cpu."""
        backends = {g.backend for g in self.gpus}
        for backend in ("cuda", "rocm", "metal", "vulkan"):
            if backend in backends:
                return backend
        return "cpu"

    def offload_gpu(self) -> Gpu | None:
        """The GPU llama.cpp would offload to (the accelerator's largest), if its memory is known."""
        acc = self.accelerator()
        gpus = [g for g in self.gpus if g.backend == acc and g.vram_bytes > 0]
        return max(gpus, key=lambda g: g.usable) if gpus else None

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
        for g in self.gpus:
            mem = f"{g.vram_bytes / _GIB:.1f} GiB" if g.vram_bytes else "memory not reported"
            if g.vram_free is not None:
                mem += f", {g.vram_free / _GIB:.1f} GiB free"
            driver = f", driver {g.driver}" if g.driver else ""
            lines.append(f"GPU {g.name} ({g.backend or g.vendor}: {mem}{driver})")
        if not self.gpus:
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


def _int(text: str) -> int | None:
    text = str(text).strip()
    return int(text) if text.isdigit() else None


# -- NVIDIA: nvidia-smi's CSV query interface (stable across driver versions) --------------------
NVIDIA_QUERY = ["nvidia-smi", "--query-gpu=name,memory.total,memory.free,driver_version",
                "--format=csv,noheader,nounits"]


def parse_nvidia_smi(out: str) -> list[Gpu]:
    gpus = []
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) < 2 or _int(parts[1]) is None:
            continue
        free = _int(parts[2]) if len(parts) > 2 else None  # "[N/A]" on some laptop GPUs
        gpus.append(Gpu("nvidia", parts[0], _int(parts[1]) * 1024 * 1024, "cuda",
                        parts[3] if len(parts) > 3 else "", free * 1024 * 1024 if free is not None else None))
    return gpus


def nvidia_gpus() -> list[Gpu]:
    return parse_nvidia_smi(_run(NVIDIA_QUERY))


# -- AMD: rocm-smi --json (keys in bytes; "Card Series" was "Card series" in older releases) -------
ROCM_QUERY = ["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--showdriverversion", "--json"]


def parse_rocm_smi(out: str) -> list[Gpu]:
    try:
        data = json.loads(out) if out.strip() else {}
    except ValueError:
        return []
    driver = ""
    for info in data.values():
        if isinstance(info, dict):
            driver = driver or next((str(v) for k, v in info.items() if k.lower() == "driver version"), "")
    gpus = []
    for card, info in data.items():
        if not isinstance(info, dict) or not str(card).startswith("card"):
            continue
        low = {k.lower(): v for k, v in info.items()}
        total = _int(low.get("vram total memory (b)", ""))
        used = _int(low.get("vram total used memory (b)", ""))
        if not total:
            continue
        name = low.get("card series") or low.get("card model") or card
        gpus.append(Gpu("amd", str(name), total, "rocm", driver, total - used if used is not None else None))
    return gpus


def amd_gpus() -> list[Gpu]:
    return parse_rocm_smi(_run(ROCM_QUERY))


# -- Apple: system_profiler SPDisplaysDataType -json ------------------------------------------------
def parse_system_profiler(out: str, ram_total: int) -> list[Gpu]:
    try:
        displays = json.loads(out).get("SPDisplaysDataType", []) if out.strip() else []
    except (ValueError, AttributeError):
        displays = []
    gpus = []
    for d in displays:
        if not isinstance(d, dict):
            continue
        name = d.get("sppci_model") or d.get("_name") or "GPU"
        metal = str(d.get("spdisplays_mtlgpufamilysupport") or d.get("spdisplays_metal") or "")
        cores = d.get("sppci_cores")
        label = f"{name} ({cores} GPU cores)" if cores else name
        version = metal.replace("spdisplays_", "").replace("metal", "Metal ").strip()
        vram_text = str(d.get("spdisplays_vram") or d.get("spdisplays_vram_shared") or "")
        if "apple" in str(d.get("spdisplays_vendor", "")).lower() or name.startswith("Apple"):
            # Unified memory: Metal may wire about 2/3 of it on small Macs, 3/4 on larger ones.
            share = 0.75 if ram_total > 36 * _GIB else 0.66
            gpus.append(Gpu("apple", label, int(ram_total * share), "metal", version))
        elif metal:  # an Intel Mac's discrete GPU: "8 GB" of its own
            m = re.match(r"(\d+)\s*(GB|MB)", vram_text)
            vram = int(m[1]) * (_GIB if m[2] == "GB" else 1024 * 1024) if m else 0
            vendor = "amd" if "amd" in str(d.get("spdisplays_vendor", "")).lower() else "other"
            gpus.append(Gpu(vendor, label, vram, "metal", version))
    if not gpus and platform.machine() == "arm64":
        share = 0.75 if ram_total > 36 * _GIB else 0.66
        gpus.append(Gpu("apple", "Apple GPU", int(ram_total * share), "metal"))
    return gpus


def apple_gpus(ram_total: int) -> list[Gpu]:
    if platform.system() != "Darwin":
        return []
    return parse_system_profiler(_run(["system_profiler", "SPDisplaysDataType", "-json"], timeout=8.0), ram_total)


# -- Vulkan: vulkaninfo --summary (devices any vendor's driver exposes; no memory sizes there) ------
_VK_VENDORS = {"0x10de": "nvidia", "0x1002": "amd", "0x8086": "intel", "0x106b": "apple", "0x13b5": "arm",
               "0x5143": "qualcomm"}


def parse_vulkaninfo(out: str) -> list[Gpu]:
    gpus, cur = [], None
    for line in out.splitlines():
        if re.match(r"^GPU\d+:\s*$", line.strip()):
            cur = {}
            gpus.append(cur)
        elif cur is not None and "=" in line:
            key, _, value = line.partition("=")
            cur[key.strip()] = value.strip()
    out_gpus, seen = [], set()
    for d in gpus:
        kind = d.get("deviceType", "")
        if "GPU" not in kind or "VIRTUAL" in kind:  # llvmpipe / lavapipe are CPU devices
            continue
        key = (d.get("deviceName"), d.get("deviceUUID"))
        if key in seen:  # some loaders list a device twice
            continue
        seen.add(key)
        vendor = _VK_VENDORS.get(d.get("vendorID", "").lower(), d.get("vendorID", ""))
        integrated = " (integrated)" if "INTEGRATED" in kind else ""
        out_gpus.append(Gpu(vendor, d.get("deviceName", "GPU") + integrated, 0, "vulkan",
                            d.get("driverInfo") or d.get("driverVersion", "")))
    return out_gpus


def vulkan_gpus() -> list[Gpu]:
    return parse_vulkaninfo(_run(["vulkaninfo", "--summary"], timeout=5.0))


def all_gpus(ram_total: int) -> list[Gpu]:
    """Every GPU the vendor tools report; a Vulkan device is listed only when no vendor tool
    already covers that vendor (the CUDA/ROCm/Metal path is the faster one there)."""
    gpus = nvidia_gpus() + amd_gpus() + apple_gpus(ram_total)
    covered = {g.vendor for g in gpus}
    return gpus + [g for g in vulkan_gpus() if g.vendor not in covered]


def detect(models_path: Path | None = None) -> Hardware:
    import psutil

    from oi_local._paths import models_dir

    where = Path(models_path or models_dir())
    probe = where
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent  # the folder may not exist yet: measure the disk it will be on
    mem = psutil.virtual_memory()
    name, flags = cpu_flags()
    gpus = all_gpus(mem.total)
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
