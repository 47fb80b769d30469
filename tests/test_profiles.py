"""Profiles: YAML and Python, nested and dotted keys, migration, typos, bundled ones, flags over profiles."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from terminal_support import ROOT, interpreter_argv, write_scripted_profile

from oi_local.interpreter import OpenInterpreter
from oi_local.terminal import profiles


def run_cli(*args: str, stdin: str = "", env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(interpreter_argv(*args), input=stdin, capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ, **(env or {})})


def test_default_profile_is_created_on_first_run_and_loads() -> None:
    d = profiles.profiles_dir()
    assert not (d / "default.yaml").exists()
    out = run_cli("--profiles")
    assert out.returncode == 0, out.stderr
    assert str(d) in out.stdout  # no file manager here: the path is printed
    default = d / "default.yaml"
    assert default.is_file()
    interp = OpenInterpreter()
    path, meta = profiles.load(interp, "default")
    assert path == default and interp.safe_mode == "off" and interp.auto_run is False
    assert yaml.safe_load(default.read_text())["version"] == profiles.PROFILE_VERSION


def test_nested_and_dotted_keys_both_work(tmp_path: Path) -> None:
    nested = tmp_path / "nested.yaml"
    nested.write_text("llm:\n  model: my-model\n  context_window: 2048\ncomputer:\n  max_output: 1234\nauto_run: true\nversion: 0.2.5\n")
    dotted = tmp_path / "dotted.yaml"
    dotted.write_text("llm.model: my-model\nllm.context_window: 2048\ncomputer.max_output: 1234\nauto_run: true\n")
    for p in (nested, dotted):
        interp = OpenInterpreter()
        profiles.load(interp, str(p))
        assert (interp.llm.model, interp.llm.context_window, interp.computer.max_output, interp.auto_run) == ("my-model", 2048, 1234, True)


def test_spec_style_flat_keys_are_understood(tmp_path: Path) -> None:
    p = tmp_path / "flat.yaml"
    p.write_text("model: gpt-4\ntemperature: 0.5\nsafe_mode: ask\nllm_supports_functions: false\n")
    interp = OpenInterpreter()
    profiles.load(interp, str(p))
    assert interp.llm.model == "gpt-4" and interp.llm.temperature == 0.5 and interp.safe_mode == "ask"
    assert interp.llm.supports_functions is False
    assert p.read_text().startswith("model: gpt-4")  # no version field: the file is left alone


def test_typo_names_key_file_and_nearest_valid_key(tmp_path: Path) -> None:
    p = tmp_path / "typo.yaml"
    p.write_text("llm:\n  modle: x\n")
    with pytest.raises(profiles.ProfileError) as e:
        profiles.load(OpenInterpreter(), str(p))
    msg = str(e.value)
    assert "'llm.modle'" in msg and str(p) in msg and "'llm.model'" in msg
    p.write_text("auto_runn: true\n")
    with pytest.raises(profiles.ProfileError, match="Did you mean 'auto_run'"):
        profiles.load(OpenInterpreter(), str(p))
    p.write_text("safe_mode: sometimes\n")
    with pytest.raises(profiles.ProfileError, match="off, ask, auto"):
        profiles.load(OpenInterpreter(), str(p))


def test_cli_reports_a_typo_in_one_line_and_keeps_the_file(tmp_path: Path) -> None:
    p = tmp_path / "typo.yaml"
    text = "temprature: 0.3\n"
    p.write_text(text)
    out = run_cli("--profile", str(p), "hello")
    assert out.returncode == 2
    lines = [l for l in out.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "'temprature'" in lines[0] and "'temperature'" in lines[0] and str(p) in lines[0]
    assert p.read_text() == text


def test_old_version_is_migrated_without_asking(tmp_path: Path) -> None:
    p = tmp_path / "old.yaml"
    p.write_text("# my old profile\nversion: 0.2.0\nmodel: some-model\ncontext_window: 3000\nllm_supports_vision: true\nauto_run: true\n")
    interp = OpenInterpreter()
    profiles.load(interp, str(p))
    assert interp.llm.model == "some-model" and interp.llm.context_window == 3000 and interp.llm.supports_vision is True
    data = yaml.safe_load(p.read_text())
    assert data["version"] == profiles.PROFILE_VERSION
    assert data["llm"] == {"model": "some-model", "context_window": 3000, "supports_vision": True}
    backups = list(tmp_path.glob("old.yaml.v0.2.0.bak"))
    assert len(backups) == 1 and "version: 0.2.0" in backups[0].read_text()
    again = OpenInterpreter()
    profiles.load(again, str(p))  # the migrated file loads as it is
    assert again.llm.model == "some-model"


def test_python_profile_sets_the_running_instance(tmp_path: Path) -> None:
    p = tmp_path / "mine.py"
    p.write_text("from interpreter import interpreter\ninterpreter.llm.context_window = 1111\ninterpreter.loop = True\n")
    interp = OpenInterpreter()
    profiles.load(interp, str(p))
    assert interp.llm.context_window == 1111 and interp.loop is True


def test_profiles_are_never_fetched_from_urls() -> None:
    with pytest.raises(profiles.ProfileError, match="local files"):
        profiles.load(OpenInterpreter(), "https://example.com/profile.py")


@pytest.mark.parametrize("name", ["local", "fast", "vision", "qwen", "llama"])
def test_bundled_profiles_load(name: str) -> None:
    interp = OpenInterpreter()
    path, _ = profiles.load(interp, name)
    assert path.parent == profiles.BUNDLED_DIR
    if name in ("local", "fast", "qwen"):
        assert interp.llm.kind() == "embedded"
    if name == "vision":
        assert interp.llm.supports_vision is True


def test_flags_override_the_profile_only_when_given(tmp_path: Path) -> None:
    p = tmp_path / "p.py"
    p.write_text(write_scripted_profile(tmp_path).read_text()
                 + "\ninterpreter.llm.temperature = 0.5\ninterpreter.llm.max_tokens = 77\ninterpreter.loop = True\n")
    out = run_cli("--profile", str(p), "%info")
    assert out.returncode == 0, out.stderr
    assert " max_tokens: 77" in out.stdout and " temperature: 0.5" in out.stdout and " loop: True" in out.stdout
    out = run_cli("--profile", str(p), "-x", "99", "--safe_mode", "ask", "%info")
    assert " max_tokens: 99" in out.stdout and " temperature: 0.5" in out.stdout and " safe_mode: ask" in out.stdout


def test_unknown_profile_name_lists_what_exists() -> None:
    out = run_cli("--profile", "nope", "hi")
    assert out.returncode == 2 and "No profile named 'nope'" in out.stderr and "fast" in out.stderr


def test_rules_and_bundled_profiles_are_package_data() -> None:
    # hatch packages every file under oi_local/ that git tracks: check they are where the code looks.
    from oi_local.computer.safety import RULES_DIR

    assert sorted(p.name for p in RULES_DIR.glob("*.yaml")) == ["javascript.yaml", "python.yaml", "shell.yaml"]
    assert {"local.yaml", "fast.yaml", "vision.yaml"} <= {p.name for p in profiles.BUNDLED_DIR.iterdir()}
    assert RULES_DIR.is_relative_to(Path(sys.modules["oi_local"].__file__).parent)
