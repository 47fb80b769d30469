"""Drill: a GGUF damaged inside its tensor data (it still "loads" in llama.cpp and then answers with
nothing) is refused at import and before use, with one line that says what to do; a cut, padded
or misplaced file fails the structural check of the header and tensor table in milliseconds."""
from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from drill_support import cli_env

from oi_local.llm.backends.base import LLMError
from oi_local.local import gguf, manage, models


def flip(path: Path, at: int, n: int = 4096) -> None:
    with open(path, "r+b") as f:
        f.seek(at)
        data = f.read(n)
        f.seek(at)
        f.write(bytes(b ^ 0xFF for b in data))


def table_end(path: Path) -> int:
    """Where the tensor table ends (its last 8 bytes are the last tensor's data offset)."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        gguf._header(f, path.name, size)
        for _ in range(gguf.read_metadata(path)["gguf.tensor_count"]):
            gguf._string(f)
            (dims,) = struct.unpack("<I", f.read(4))
            f.seek(8 * dims + 12, 1)
        return f.tell()


def data_start(path: Path) -> int:
    return -(-table_end(path) // 32) * 32


def test_real_models_pass_the_structural_check(smollm2_path, qwen_path) -> None:
    for p in (smollm2_path, qwen_path):
        start = time.perf_counter()
        meta = gguf.check_structure(p)
        assert meta["gguf.tensor_count"] > 100
        assert time.perf_counter() - start < 2


def test_cut_padded_and_misplaced_files_fail_the_structural_check(smollm2_path, tmp_path) -> None:
    cut = tmp_path / "cut.gguf"
    with open(smollm2_path, "rb") as src, open(cut, "wb") as out:
        out.write(src.read(smollm2_path.stat().st_size - 1_000_000))
    with pytest.raises(LLMError, match=r"cut.gguf is truncated: its tensors need 98362432 bytes, the file has 97362432"):
        gguf.check_structure(cut)
    padded = tmp_path / "padded.gguf"
    shutil.copyfile(smollm2_path, padded)
    with open(padded, "ab") as f:
        f.write(b"\0" * 4096)
    with pytest.raises(LLMError, match="4096 unexpected bytes after its last tensor"):
        gguf.check_structure(padded)
    moved = tmp_path / "moved.gguf"
    shutil.copyfile(smollm2_path, moved)
    flip(moved, table_end(moved) - 8, 8)  # the last tensor's data offset
    with pytest.raises(LLMError, match="moved.gguf is corrupt: tensor .* is misplaced in the file"):
        gguf.check_structure(moved)


def test_import_refuses_a_flipped_copy_of_a_catalog_model_even_renamed(smollm2_path, tmp_path, capsys) -> None:
    bad = tmp_path / "my-model.gguf"  # not the catalog's name: recognised by size and architecture
    shutil.copyfile(smollm2_path, bad)
    flip(bad, data_start(bad) + 20_000_000)
    gguf.check_structure(bad)  # still well-formed: only the checksum can tell
    assert manage.main(["import", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("Error: my-model.gguf does not match the published sha256 of smollm2-135m")
    assert "\n" not in err and "--local_models download smollm2-135m" in err
    assert manage.list_models() == [] and manage.prune_candidates() == []


def test_damaged_after_install_is_caught_before_use_and_the_check_is_cached(smollm2_path) -> None:
    target = manage.import_model(smollm2_path, check=False)
    start = time.perf_counter()
    models.check_before_use(target)  # verified at import: not hashed again
    assert time.perf_counter() - start < 0.05
    flip(target, data_start(target) + 50_000_000)
    with pytest.raises(LLMError) as info:
        models.check_before_use(target)
    msg = str(info.value)
    assert msg.startswith(f"{target.name} is damaged: its sha256 is ") and "\n" not in msg
    assert f"--local_models remove {target.name}" in msg
    flip(target, data_start(target) + 50_000_000)  # put it back: the same bytes, a new mtime
    models.check_before_use(target)  # hashed again (changed mtime), passes, cached
    start = time.perf_counter()
    models.check_before_use(target)
    assert time.perf_counter() - start < 0.05


@pytest.mark.model
def test_damaged_model_in_a_real_turn_is_one_line_with_what_to_do(smollm2_path) -> None:
    target = manage.import_model(smollm2_path, check=False)
    flip(target, data_start(target) + 30_000_000)
    run = subprocess.run([sys.executable, "-m", "oi_local.terminal.cli", "--model", str(target), "-y", "hello"],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, env=cli_env())
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr
    errors = [ln for ln in run.stderr.splitlines() if "damaged" in ln]
    assert len(errors) == 1 and "--local_models remove" in errors[0], run.stderr
    # The same file behind a llama.cpp server is refused before the server starts.
    from oi_local.local.llama_server import start_llama_server

    with pytest.raises(LLMError, match="is damaged"):
        start_llama_server(target, timeout=30)
