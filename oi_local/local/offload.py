"""How many of a GGUF model's layers to put on the GPU: as many as the free VRAM holds.

llama.cpp keeps the KV cache and compute buffers of offloaded layers on the GPU too, so the budget is
the free VRAM (90 %, drivers need room) minus the KV cache for the context and ~256 MB of buffers;
each repeating layer weighs about file size / (layers + 1) (the +1 is the output layer).
"""
from __future__ import annotations

import os
from pathlib import Path

from oi_local.local.hardware import Hardware

_GIB = 1024 ** 3
_BUFFERS = 256 * 1024 * 1024
ALL_LAYERS = -1  # llama.cpp's "everything"


def model_shape(path: str | os.PathLike[str]) -> tuple[int, int]:
    """(repeating layers, f16 KV-cache bytes per token of context) from the GGUF header."""
    from oi_local.local.gguf import read_metadata

    meta = read_metadata(Path(path))
    arch = str(meta.get("general.architecture", ""))
    layers = int(meta.get(f"{arch}.block_count") or 0)
    heads = int(meta.get(f"{arch}.attention.head_count") or 0) or 1
    kv_heads = int(meta.get(f"{arch}.attention.head_count_kv") or heads)
    embed = int(meta.get(f"{arch}.embedding_length") or 0)
    key_len = int(meta.get(f"{arch}.attention.key_length") or (embed // heads if embed else 0))
    value_len = int(meta.get(f"{arch}.attention.value_length") or key_len)
    return layers, layers * kv_heads * (key_len + value_len) * 2


def plan(path: str | os.PathLike[str], n_ctx: int, hw: Hardware | None = None) -> tuple[int, str]:
    """(n_gpu_layers, one line saying why) for this model at this context on this machine."""
    if hw is None:
        from oi_local.local.hardware import detect

        hw = detect()
    gpu = hw.offload_gpu()
    if gpu is None:
        vk = [g for g in hw.gpus if g.backend == "vulkan"]
        if vk:
            return 0, f"{vk[0].name} found, but its free memory is unknown: set n_gpu_layers to offload"
        return 0, "no GPU found: every layer runs on the CPU"
    try:
        layers, kv_per_token = model_shape(path)
    except Exception:  # noqa: BLE001 - an unreadable header: stay on the CPU rather than guess
        return 0, f"{gpu.name}: the model's layer count is unreadable, so nothing is offloaded"
    size = Path(path).stat().st_size
    free = gpu.usable
    budget = int(free * 0.9) - _BUFFERS - kv_per_token * n_ctx
    where = f"{gpu.name}, {free / _GIB:.1f} GiB free"
    if layers <= 0:
        return 0, f"{where}: the model's layer count is unknown, so nothing is offloaded"
    if budget >= size:
        return ALL_LAYERS, f"all {layers} layers on the GPU ({where})"
    n = max(0, min(layers, budget // max(size // (layers + 1), 1)))
    if n == 0:
        return 0, f"no layers on the GPU: the model and its {n_ctx}-token cache need more than {where}"
    return int(n), f"{n} of {layers} layers on the GPU, the rest on the CPU ({where})"
