"""The sandbox's settings and plumbing with real bubblewrap: flags, profile keys, %allow, the
server's guard, the environment allow-list, and what happens when there is no sandbox.
The attack drills (secrets, writes, network, fork bombs, kill -9) are in tests/drills/."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from oi_local.computer import Computer
from oi_local.computer.sandbox import detect
from oi_local.computer.sandbox.policy import Policy, clean_env, strip_secrets

needs_bwrap = pytest.mark.skipif(detect.available().kind != "bwrap", reason=detect.available().reason)


def text(msgs):
    return "".join(m.get("content") or "" for m in msgs if m.get("format") == "output")


@pytest.fixture
def workdir(monkeypatch):
    # Outside /tmp: the sandbox's /tmp is private, so a pytest tmp_path is invisible inside.
    d = Path(tempfile.mkdtemp(prefix="oi-sandbox-test-", dir="/var/tmp"))
    (d / "work").mkdir()
    monkeypatch.chdir(d / "work")
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def computer():
    c = Computer()
    yield c
    c.terminate()


def test_env_allow_list_never_passes_secrets():
    env = {"PATH": "/bin", "HOME": "/h", "LANG": "C", "LC_ALL": "C", "OPENAI_API_KEY": "sk-1", "GITHUB_TOKEN": "t",
           "INTERPRETER_API_KEY": "k", "SSH_AUTH_SOCK": "/run/x", "AWS_SECRET_ACCESS_KEY": "s", "MY_SETTING": "1"}
    assert clean_env(env) == {"PATH": "/bin", "HOME": "/h", "LANG": "C", "LC_ALL": "C"}
    assert clean_env(env, {"MY_SETTING", "GITHUB_TOKEN"}) == {"PATH": "/bin", "HOME": "/h", "LANG": "C",
                                                             "LC_ALL": "C", "MY_SETTING": "1"}
    assert "OPENAI_API_KEY" not in strip_secrets(env) and strip_secrets(env)["MY_SETTING"] == "1"


def test_settings_are_checked_and_refuse_nonsense():
    from oi_local.errors import SettingError

    c = Computer()
    assert c.sandbox == "auto"
    c.sandbox = "OFF"
    assert c.sandbox == "off"
    with pytest.raises(SettingError, match="auto, on, off"):
        c.sandbox = "maybe"
    with pytest.raises(SettingError, match="computer.max_processes"):
        c.max_processes = 2
    c.allow_network = True
    assert c.network_allowed()
    c.offline = True  # offline always wins
    assert not c.network_allowed()


def test_policy_writable_and_hidden(tmp_path):
    (tmp_path / "w").mkdir()
    p = Policy(workdir="/", allow_write=(str(tmp_path / "w"),), hidden=(str(tmp_path / "secret"),))
    assert p.writable() == [str((tmp_path / "w").resolve())]  # "/" itself never becomes writable
    assert p.is_writable(str(tmp_path / "w" / "f")) and p.is_writable("/tmp/x") and not p.is_writable("/etc/x")
    assert p.hidden_by(str(tmp_path / "secret" / "id_rsa")) == str(tmp_path / "secret")


def test_cli_flags_and_profile_keys(tmp_path):
    from oi_local.interpreter import OpenInterpreter
    from oi_local.terminal import profiles
    from oi_local.terminal.cli import apply_args, build_parser

    interp = OpenInterpreter()
    try:
        args = build_parser().parse_args(["--sandbox", "on", "--allow_write", str(tmp_path), "--allow_write", "~",
                                          "--allow_network", "--offline"])
        apply_args(interp, args)
        c = interp.computer
        assert c.sandbox == "on" and c.allow_network and c.offline and not c.network_allowed()
        assert c.allow_write == [str(tmp_path.resolve()), os.path.realpath(os.path.expanduser("~"))]
        prof = tmp_path / "p.yaml"
        prof.write_text('sandbox: "off"\ncomputer:\n  allow_write: [/srv]\n  allow_network: true\n')
        profiles.load(interp, str(prof))
        assert (c.sandbox, c.allow_write, c.allow_network) == ("off", ["/srv"], True)
        prof.write_text("computer.sandbox: sometimes\n")
        with pytest.raises(profiles.ProfileError, match="auto, on, off"):
            profiles.load(interp, str(prof))
    finally:
        interp.close()


def test_server_clients_cannot_loosen_the_sandbox():
    from oi_local.server.settings import SettingsError, validate

    for payload in ({"computer": {"sandbox": "off"}}, {"computer": {"allow_network": True}},
                    {"computer": {"allow_write": ["/"]}}):
        with pytest.raises(SettingsError) as e:
            validate(payload, allow_unsafe=False)
        assert e.value.status == 403
    assert validate({"computer": {"sandbox": "off"}}, allow_unsafe=True) == {"computer.sandbox": "off"}


@needs_bwrap
def test_state_persists_inside_and_allow_restarts_the_session(computer, workdir):
    from oi_local.interpreter import OpenInterpreter
    from oi_local.terminal.magic import handle

    interp = OpenInterpreter()
    try:
        c = interp.computer
        said: list[str] = []
        assert text(c.run("python", "x = 41")) == ""
        assert text(c.run("python", "x + 1")) == "42\n"  # state kept between runs inside the sandbox
        target = workdir / "granted"
        target.mkdir()
        out = text(c.run("python", f"open({str(target / 'f.txt')!r}, 'w').write('hi')"))
        assert "Read-only file system" in out and f"%allow {target}" in out and "--allow_write" in out
        handle(interp, f"%allow {target}", said.append)
        assert "may now change files in" in said[-1]
        handle(interp, "%allow /no/such/folder", said.append)
        assert "is not a folder" in said[-1]
        out = text(c.run("python", f"open({str(target / 'f.txt')!r}, 'w').write('hi')"))
        assert "sandbox settings changed" in out  # a new folder needs a new sandbox: said so
        assert (target / "f.txt").read_text() == "hi"
        handle(interp, "%info", said.append)
        assert "bubblewrap" in said[-1] and str(target) in said[-1]
    finally:
        interp.close()


@needs_bwrap
def test_code_sees_no_keys_and_no_other_processes(computer, workdir, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-planted-123")
    monkeypatch.setenv("INTERPRETER_API_KEY", "planted-456")
    out = text(computer.run("python", "import os\nprint(sorted(k for k in os.environ if 'KEY' in k))\n"
                                      "print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))"))
    assert out.splitlines()[0] == "[]"
    pids = eval(out.splitlines()[1])
    assert pids == [1, 2]  # only the sandbox's init and the session itself: nothing of the host
    out = text(computer.run("shell", f"cat /proc/{os.getpid()}/environ 2>&1 | tr '\\0' '\\n' | grep -c planted"))
    assert out.strip().splitlines()[-1] == "0"


def test_on_without_a_sandbox_refuses_and_auto_runs_unconfined(computer, monkeypatch, tmp_path):
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == "bwrap" else _which(name, *a, **k))
    detect.reset()
    try:
        computer.sandbox = "on"
        out = text(computer.run("python", "print('ran')"))
        assert "ran" not in out and "not run" in out and "bubblewrap is not installed" in out
        computer.sandbox = "auto"
        assert text(computer.run("python", "print('ran')")) == "ran\n"
        confined, line = computer.sandbox_status()
        assert not confined and "unconfined" in line and "apt install bubblewrap" in line
    finally:
        detect.reset()


_which = shutil.which


def test_start_up_says_once_that_code_runs_unconfined_and_why(tmp_path):
    import subprocess
    import sys

    bindir = tmp_path / "bin"  # a PATH with Python but without bubblewrap
    bindir.mkdir()
    for name in ("python3", "bash", "node"):
        found = _which(name)
        if found:
            (bindir / name).symlink_to(found)
    env = {**os.environ, "PATH": str(bindir), "OI_LOCAL_HOME": str(tmp_path / "home")}
    r = subprocess.run([sys.executable, "-m", "oi_local.terminal.cli", "--model", "/no/such.gguf", "hi"],
                       capture_output=True, text=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
    lines = [ln for ln in r.stderr.splitlines() if "unconfined" in ln]
    assert len(lines) == 1 and "bubblewrap is not installed" in lines[0], r.stderr


@needs_bwrap
def test_a_missing_file_is_not_reported_as_a_blocked_network(workdir, computer):
    """Case-insensitive "ENOTFOUND" matched inside "FileNotFoundError": every missing file got the
    network note, and the 0.5B model answered with that note instead of the missing file."""
    out = text(computer.run("python", "open('results_2023.csv')"))
    assert "FileNotFoundError" in out and "[sandbox]" not in out
    out = text(computer.run("python", "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=2)"))
    assert "Connection refused" in out and "The network was blocked" in out  # a network error still is
