"""One settings schema (oi_local/settings.py) for the Python API, profiles, the CLI, /settings and
spawn: wrong types are one-line errors naming the setting (and the file), text is converted."""
from __future__ import annotations

import inspect
import math
import os
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from terminal_support import ROOT, interpreter_argv, write_scripted_profile

from oi_local import settings as schema
from oi_local.compat2023 import OLD_NAMES
from oi_local.interpreter import OpenInterpreter


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(interpreter_argv(*args), input="", capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=dict(os.environ))


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# --- the Python API ---
def test_assignments_are_converted_or_refused_naming_the_setting() -> None:
    interp = OpenInterpreter()
    interp.auto_run = "false"
    assert interp.auto_run is False
    interp.auto_run = "TRUE"
    assert interp.auto_run is True
    interp.llm.context_window = "8192"
    assert interp.llm.context_window == 8192
    interp.llm.temperature = "0.5"
    assert interp.llm.temperature == 0.5
    interp.safe_mode = "ASK"
    assert interp.safe_mode == "ask"
    for owner, name, value, words in [
        (interp.llm, "context_window", "lots", "llm.context_window: expected a whole number"),
        (interp, "max_output", "banana", "max_output: expected a whole number"),
        (interp.llm, "temperature", "hot", "llm.temperature: expected a number from 0 to 2"),
        (interp.llm, "temperature", math.nan, "llm.temperature"),
        (interp, "auto_run", "maybe", "auto_run: expected true or false"),
        (interp.llm, "max_tokens", True, "llm.max_tokens"),  # True is not a number of tokens
        (interp.computer, "max_output", "-", "computer.max_output"),
        (interp, "safe_mode", "sometimes", "one of off, ask, auto"),
    ]:
        before = getattr(owner, name)
        with pytest.raises(schema.SettingError, match=words) as e:
            setattr(owner, name, value)
        assert "\n" not in str(e.value)
        assert getattr(owner, name) == before or (isinstance(before, float) and math.isnan(before))
    with pytest.raises(ValueError):  # SettingError is a ValueError, as int("lots") was
        OpenInterpreter(max_code_steps="many")


def test_the_schema_lists_every_setting_the_objects_have() -> None:
    """Adding an attribute without its line in oi_local/settings.py fails here."""
    interp = OpenInterpreter()

    def public(obj: Any) -> set[str]:
        names = {k for k in vars(obj) if not k.startswith("_")}
        for cls in type(obj).__mro__:
            for k, v in vars(cls).items():
                if not k.startswith("_") and not inspect.isfunction(v) and not isinstance(v, (staticmethod, classmethod)):
                    names.add(k)
        return names

    found = public(interp) - {"llm", "computer"}
    found |= {f"llm.{k}" for k in public(interp.llm)} | {f"computer.{k}" for k in public(interp.computer)}
    listed = {s.key for s in schema.SETTINGS if s.attr}
    # the 2023 names are properties that assign the setting they stand for (checked there)
    old_names = set(OLD_NAMES) | {"local"}
    assert found - listed - schema.STATE - old_names == set(), "attributes missing from oi_local/settings.py"
    assert listed - found == set(), "settings in oi_local/settings.py that nothing has"
    for s in schema.SETTINGS:  # every default passes its own check
        if s.attr and s.key != "llm.completions":
            value = schema.read(interp, s.key)
            assert s.check(value) == value or value is None, s.key


# --- profiles, through the real command line ---
def test_a_quoted_false_in_a_yaml_profile_keeps_auto_run_off(tmp_path: Path) -> None:
    """auto_run: "false" used to be the truthy string "false": code ran without asking."""
    results = {}
    for value in ('"false"', "'no'", "true"):
        yaml_file = tmp_path / f"p{len(results)}.yaml"
        yaml_file.write_text(f"auto_run: {value}\n")
        profile = tmp_path / f"p{len(results)}.py"  # the scripted model, with the YAML profile loaded first
        profile.write_text(f"from oi_local.terminal import profiles\nprofiles.load(interpreter, {str(yaml_file)!r})\n"
                           + write_scripted_profile(tmp_path).read_text())
        out = run_cli("--profile", str(profile), "say hello")
        results[value] = out
        assert "Traceback" not in out.stderr
    for quoted in ('"false"', "'no'"):
        assert "hello from code 42" not in results[quoted].stdout, results[quoted].stdout  # asked, not run
    assert "hello from code 42" in results["true"].stdout  # the same profile with auto_run on runs it


@pytest.mark.parametrize("text, key, expects", [
    ("llm:\n  context_window: lots\n", "llm.context_window", "a whole number"),
    ("max_output: banana\n", "max_output", "a whole number"),
    ("temperature: hot\n", "llm.temperature", "a number from 0 to 2"),
    ("auto_run: perhaps\n", "auto_run", "true or false"),
])
def test_a_wrong_type_in_a_profile_is_one_line_naming_key_and_file(tmp_path: Path, text: str, key: str, expects: str) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    out = run_cli("--profile", str(p), "hello")
    assert out.returncode == 2
    line = one_line(out.stderr)
    assert f"'{key}'" in line and str(p) in line and expects in line
    assert p.read_text() == text


@pytest.mark.parametrize("content, words", [
    (b"auto_run: true\ncustom_instructions: caf\xe9\n", "not UTF-8"),
    (b"a: " + b"[" * 20000 + b"]" * 20000 + b"\n", "nested too deeply"),
])
def test_unreadable_profiles_are_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    p = tmp_path / "odd.yaml"
    p.write_bytes(content)
    out = run_cli("--profile", str(p), "hello")
    assert out.returncode == 2
    line = one_line(out.stderr)
    assert words in line and str(p) in line
    assert p.read_bytes() == content


def test_a_wrong_flag_value_is_one_line_naming_the_flag() -> None:
    out = run_cli("-t", "hot", "hello")
    assert out.returncode == 2
    assert "argument -t/--temperature: expected a number from 0 to 2, got 'hot'" in out.stderr
    assert "Traceback" not in out.stderr
    out = run_cli("--context_window", "lots", "hello")
    assert out.returncode == 2 and "--context_window: expected a whole number" in out.stderr


# --- the server, over real HTTP ---
def test_settings_over_http_use_the_schema(tmp_path: Path) -> None:
    from oi_local.server.async_interpreter import AsyncInterpreter
    from oi_local.server.config import ServerConfig
    from oi_local.server.server import Server

    key = "k-settings"
    auth = {"Authorization": f"Bearer {key}"}
    template = AsyncInterpreter()
    template.conversation_history = False
    srv = Server(template, ServerConfig.from_env(api_key=key, upload_dir=tmp_path, allow_unsafe_settings=True)).start(port=0)
    try:
        r = httpx.post(srv.url + "/settings", headers=auth, json={"llm": {"context_window": "lots"}})
        assert r.status_code == 400
        assert r.json()["error"]["message"] == "llm.context_window: expected a whole number from 256 to 1048576 (or null), got 'lots'"
        r = httpx.post(srv.url + "/settings", headers=auth, json={"auto_run": "false", "verbose": "true", "llm": {"max_tokens": "64"}})
        assert r.status_code == 200, r.text
        got = httpx.get(srv.url + "/settings", headers=auth).json()
        assert got["auto_run"] is False and got["verbose"] is True and got["llm.max_tokens"] == 64
        assert "llm.api_key" not in got
        assert set(got) == {s.key for s in schema.SETTINGS if s.http in ("open", "privileged")}
        # a refused request changes nothing, even the valid settings in it
        r = httpx.post(srv.url + "/settings", headers=auth, json={"verbose": False, "max_code_steps": "x"})
        assert r.status_code == 400 and "max_code_steps" in r.json()["error"]["message"]
        assert httpx.get(srv.url + "/settings/verbose", headers=auth).json() == {"verbose": True}
        # a conversation copies the template's settings (spawn reads the schema)
        copy = srv.new_interpreter()
        assert (copy.verbose, copy.llm.max_tokens, copy.conversation_history) == (True, 64, False)
        copy.close()
    finally:
        srv.stop()


def test_unquoted_on_and_off_in_yaml_mean_the_words_for_settings_that_take_them(tmp_path: Path) -> None:
    """YAML reads `sandbox: off` as false: for a setting whose values are words, it is the word."""
    import yaml

    from oi_local.interpreter import OpenInterpreter
    from oi_local.terminal import profiles

    i = OpenInterpreter()
    for text, key, want in (("computer:\n  sandbox: off\n", "sandbox", "off"), ("computer:\n  sandbox: on\n", "sandbox", "on"),
                            ("safe_mode: off\n", "safe_mode", "off")):
        assert yaml.safe_load(text) != {}  # (a real YAML boolean, not the word)
        path = tmp_path / "p.yaml"
        path.write_text(text)
        profiles.load(i, str(path))
        owner = i.computer if key == "sandbox" else i
        assert getattr(owner, key) == want
    path.write_text("safe_mode: on\n")  # safe_mode has no "on": still refused, naming the choices
    with pytest.raises(profiles.ProfileError, match="safe_mode.* one of off, ask, auto"):
        profiles.load(i, str(path))
