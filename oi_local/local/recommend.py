"""Which catalog models run well on this machine, and with how much context.

A model fits when its weights, the KV cache for the chosen context and llama.cpp's buffers fit
in the memory it will run from (the free VRAM of the GPU llama.cpp offloads to when it can hold it, else RAM we may use without pushing
the rest of the machine into swap). Among the ones that fit, code models come first, then the
expected speed on this machine decides how large a model is still pleasant to use.
"""
from __future__ import annotations

from dataclasses import dataclass

from oi_local.local.hardware import Hardware
from oi_local.local.models import ModelEntry, is_installed, load_catalog
from oi_local.local.sizes import size

_GIB = 1024 ** 3
MIN_CONTEXT = 2048
# Prompt reading on a CPU costs seconds per thousand tokens: past this the wait hurts more than
# the extra room helps. With a GPU the model's trained length is the only cap.
CPU_CONTEXT_CAP = 16384
GPU_CONTEXT_CAP = 32768
# Decode speed on CPU is memory bound: measured ~19 tokens/s for a 0.49 GB model on 2 cores here,
# i.e. ~4.7 GB·tok/s per core; a machine's memory bandwidth caps it (~50 GB/s typical desktop).
_CPU_GB_TOKENS_PER_CORE = 4.7
_CPU_BANDWIDTH_GB = 50.0
_GPU_BANDWIDTH_GB = {"cuda": 400.0, "rocm": 300.0, "metal": 150.0, "vulkan": 200.0}
PLEASANT_TOKENS_PER_SECOND = 8.0


@dataclass
class Plan:
    entry: ModelEntry
    device: str  # "gpu" or "cpu"
    context: int
    max_tokens: int
    memory: int  # bytes at that context
    tokens_per_second: float  # rough estimate
    installed: bool
    score: float
    why: str

    def line(self) -> str:
        mark = "✓ " if self.installed else ""
        return (f"{mark}{self.entry.name} — {size(self.entry.size_bytes)}, {self.context // 1024}k context, "
                f"~{self.tokens_per_second:.0f} tok/s on {self.device.upper()}{', code' if self.entry.has('code') else ''}"
                f"{', sees images' if self.entry.has('vision') else ''}")


def usable_ram(hw: Hardware) -> int:
    """RAM a model may take: most of what is available now, never more than 3/4 of the total."""
    return int(min(hw.ram_available * 0.85, hw.ram_total * 0.75))


def choose_context(entry_size: int, kv_per_token: int, trained: int, memory: int, gpu: bool) -> int:
    """The largest context (a multiple of 1024) that fits in `memory` with the weights, capped by
    what the model was trained on and by what is still fast on this device. 0 if even the
    minimum does not fit."""
    from oi_local.local.models import memory_needed

    cap = min(trained or CPU_CONTEXT_CAP, GPU_CONTEXT_CAP if gpu else CPU_CONTEXT_CAP)
    if memory_needed(entry_size, kv_per_token, MIN_CONTEXT) > memory:
        return 0
    if kv_per_token <= 0:
        return cap
    spare = memory - memory_needed(entry_size, kv_per_token, 0)
    ctx = min(cap, spare // kv_per_token)
    return max(MIN_CONTEXT, int(ctx) // 1024 * 1024)


def max_tokens_for(context: int) -> int:
    """Room for the reply: a quarter of the window, at most 2048, at least 256."""
    return max(256, min(2048, context // 4))


def speed(entry: ModelEntry, hw: Hardware, device: str) -> float:
    gb = max(entry.size_bytes / 1e9, 0.05)
    if device == "gpu":
        return _GPU_BANDWIDTH_GB.get(hw.accelerator(), 100.0) / gb
    return min(_CPU_GB_TOKENS_PER_CORE * max(hw.cores_physical, 1), _CPU_BANDWIDTH_GB) / gb


def plan(entry: ModelEntry, hw: Hardware, vision: bool = False) -> Plan | None:
    """How `entry` would run here, or None if it does not fit at the minimum context. `vision`:
    the user wants a model that sees images (--os, --vision), so those come first."""
    options = []
    gpu = hw.offload_gpu()
    if gpu is not None:
        options.append(("gpu", int(gpu.usable * 0.9)))
    options.append(("cpu", usable_ram(hw)))
    for device, memory in options:
        weights = entry.size_bytes + (entry.projector.size_bytes if entry.projector is not None else 0)
        ctx = choose_context(weights, entry.kv_bytes_per_token, entry.context_length, memory, device == "gpu")
        if ctx:
            tps = speed(entry, hw, device)
            installed = is_installed(entry)
            score = 0.0
            reasons = []
            if entry.has("code"):
                score += 30
                reasons.append("code model")
            if vision and entry.has("vision"):
                score += 100
                reasons.append("sees images")
            # Bigger is better while it stays pleasant; past that each halving of speed costs.
            params_gb = entry.size_bytes / _GIB
            score += min(params_gb, 10) * 4
            if tps < PLEASANT_TOKENS_PER_SECOND:
                score -= (PLEASANT_TOKENS_PER_SECOND / tps) * 15
                reasons.append("slow here")
            if installed:
                score += 12
                reasons.append("already downloaded")
            if ctx < 8192:
                score -= 8
            return Plan(entry, device, ctx, max_tokens_for(ctx), entry.memory_needed(ctx), tps, installed, score,
                        ", ".join(reasons))
    return None


def recommend(hw: Hardware, catalog: list[ModelEntry] | None = None, limit: int | None = None,
              vision: bool = False) -> list[Plan]:
    """The models that fit, best first (with `vision`, the ones that see images first)."""
    plans = [p for p in (plan(e, hw, vision) for e in (catalog or load_catalog())) if p is not None]
    plans.sort(key=lambda p: (-p.score, p.entry.size_bytes))
    return plans[:limit] if limit else plans


def context_for_file(size: int, kv_per_token: int, trained: int, hw: Hardware) -> tuple[int, int]:
    """(context, max_tokens) for a model that is not in the catalog (an imported GGUF, a server)."""
    gpu = hw.offload_gpu()
    memory = int(gpu.usable * 0.9) if gpu else usable_ram(hw)
    ctx = choose_context(size, kv_per_token, trained, memory, gpu is not None) or MIN_CONTEXT
    return ctx, max_tokens_for(ctx)
