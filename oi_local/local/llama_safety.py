"""Keep llama.cpp off code paths known to crash on some CPUs.

On CPUs with AMX (new Xeons, many cloud VMs) llama.cpp's extra CPU buffer types route matrix
multiplications to `ggml_backend_amx_mul_mat`, which segfaults in llama-cpp-python 0.3.x builds.
Turning the extra buffer types off avoids it. `Llama` does not expose the field, so we wrap the
function it builds its model params from. Set OI_LOCAL_EXTRA_BUFTS=1/0 to force either way.
"""
from __future__ import annotations

import os
from functools import lru_cache


@lru_cache(maxsize=1)
def cpu_has_amx() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return " amx" in line
    except OSError:
        pass
    return False


def extra_bufts_wanted(force_off: bool = False) -> bool:
    env = os.environ.get("OI_LOCAL_EXTRA_BUFTS")
    if env is not None:
        return env.strip().lower() not in ("0", "false", "no", "off")
    return not (force_off or cpu_has_amx())


def apply_cpu_workarounds(force_off: bool = False) -> bool:
    """Patch llama_cpp so every model it loads gets `use_extra_bufts` as wanted.

    Returns True when extra buffer types were turned off. Safe to call more than once.
    """
    import llama_cpp.llama_cpp as lc

    want = extra_bufts_wanted(force_off)
    # Not `__wrapped__`: llama_cpp's own decorator sets that to a Python stub returning None.
    original = getattr(lc.llama_model_default_params, "_oi_original", lc.llama_model_default_params)

    def default_params():  # type: ignore[no-untyped-def]
        params = original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = want
        return params

    default_params._oi_original = original  # type: ignore[attr-defined]
    lc.llama_model_default_params = default_params
    return not want
