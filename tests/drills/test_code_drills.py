"""Reliability drills for model-written code, with real processes and real bubblewrap, each bounded
in time: hanging code, a flood of output, code that kills its session or its parent, fork bombs,
secrets / outside writes / network, and kill -9 of the interpreter while a cell is busy.
docs/reliability.md lists them with what each proves."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import uuid

import psutil
import pytest
from procs import running_with as marked
from procs import wait_none

from oi_local.computer import Computer
from oi_local.computer.sandbox import detect

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.skipif(detect.available().kind != "bwrap", reason=detect.available().reason)]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def text(msgs):
    return "".join(m.get("content") or "" for m in msgs if m.get("format") == "output")


@pytest.fixture
def computer(place):
    c = Computer()
    yield c
    c.terminate()


def responsive() -> float:
    """Seconds to start and finish a fresh Python: the machine still answers."""
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
    return time.monotonic() - t0


def test_hanging_code_is_stopped_when_nobody_watches(computer):
    computer.unattended = True  # what the loop sets for auto_run / display=False / the server
    computer.unattended_run_timeout = 2
    t0 = time.monotonic()
    out = text(computer.run("python", "x = 7\nwhile True: pass"))
    assert time.monotonic() - t0 < 12
    assert "Timed out after 2 s" in out and computer.last_result.timed_out
    assert text(computer.run("python", "x")) == "7\n"  # the session and its state survive
    out = text(computer.run("shell", "trap '' INT; while :; do :; done"))  # ignores the interrupt too
    assert "Timed out" in out
    assert text(computer.run("shell", "echo alive")) == "alive\n"


def test_a_watched_run_has_no_default_timeout():
    c = Computer()
    try:
        c.unattended = False
        c.unattended_run_timeout = 0.5
        assert text(c.run("python", "import time; time.sleep(1.5); print('done')")) == "done\n"
    finally:
        c.terminate()


def test_100_mb_of_output_is_truncated_with_bounded_memory(computer):
    me = psutil.Process()
    before = me.memory_info().rss
    t0 = time.monotonic()
    out = text(computer.run("python", "import sys\nline = 'y' * 99 + '\\n'\nfor i in range(1_000_000):\n"
                                      "    sys.stdout.write(line)\nprint('END')"))
    took = time.monotonic() - t0
    grew = (me.memory_info().rss - before) >> 20
    print(f"\n100 MB of output: {took:.1f} s, our RSS grew {grew} MiB, kept {len(out)} characters")
    assert out.startswith("y" * 99) and out.rstrip().endswith("END")
    assert "characters omitted" in out and len(out) < 4000
    assert grew < 64
    assert text(computer.run("python", "print('next')")) == "next\n"


def test_code_that_kills_its_own_session_is_reported_and_restarted(computer):
    computer.run("python", "x = 1")
    out = text(computer.run("python", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"))
    assert "was killed by signal SIGKILL" in out and "fresh session" in out
    assert text(computer.run("python", "print('back')")) == "back\n"
    out = text(computer.run("shell", "kill -9 $$"))
    assert "killed by signal SIGKILL" in out
    assert text(computer.run("shell", "echo back")) == "back\n"


HOST = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {repo!r})
    from oi_local.computer import Computer
    c = Computer()
    c.sandbox = {mode!r}
    for chunk in c.run({lang!r}, {code!r}, stream=True):
        if chunk.get("format") == "output":
            sys.stdout.write(chunk["content"]); sys.stdout.flush()
    print("HOST-SURVIVED", flush=True)
    {after}
""")


def host(code: str, lang: str = "python", mode: str = "auto", after: str = "", **popen) -> subprocess.Popen:
    """A separate interpreter process hosting a Computer, so code that kills its parent (or a
    kill -9 of the host) cannot take the test run down."""
    script = HOST.format(repo=REPO, mode=mode, lang=lang, code=code, after=after)
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, **popen)


@pytest.mark.parametrize("lang,code", [
    ("python", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('after')"),
    ("shell", "kill -9 $PPID; kill -9 -1; echo after"),
])
def test_code_that_kills_its_parent_cannot_reach_the_interpreter(place, lang, code):
    p = host(code, lang)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 0 and "HOST-SURVIVED" in out, out


def test_shell_fork_bomb_is_contained_reported_and_cleaned_up(computer):
    marker = f"bomb{uuid.uuid4().hex[:8]}"
    t0 = time.monotonic()
    out = text(computer.run("shell", f"{marker}(){{ {marker}|{marker}& }};{marker}"))
    took = time.monotonic() - t0
    during = responsive()
    print(f"\nshell fork bomb: run ended after {took:.1f} s; a fresh python took {during:.2f} s right after")
    assert took < 30 and during < 10
    assert "fork bomb" in out and "stopped" in out
    assert not wait_none(marker, 10)  # nothing left running
    assert text(computer.run("shell", "echo usable")) == "usable\n"


def test_python_fork_loop_is_contained_reported_and_cleaned_up(computer):
    t0 = time.monotonic()
    out = text(computer.run("python", "import os\nwhile True:\n    os.fork()"))
    took = time.monotonic() - t0
    during = responsive()
    print(f"\npython fork loop: run ended after {took:.1f} s; a fresh python took {during:.2f} s right after")
    assert took < 60 and during < 10
    assert "BlockingIOError" in out and "limit on processes (256)" in out
    session = computer.get_language("python")
    assert session._run_procs() == []  # every forked copy is gone
    assert text(computer.run("python", "print('usable')")) == "usable\n"


def test_a_thousand_processes_hit_the_limit_and_are_stopped(computer):
    marker = f"{time.time() % 1000:.6f}"  # a unique sleep length marks them
    out = text(computer.run("python", "import subprocess\n"
                                      f"ps = [subprocess.Popen(['sleep', '{marker}']) for _ in range(1000)]\n"
                                      "print('started', len(ps))"))
    assert "started 1000" not in out
    assert "limit on processes" in out
    assert "were all stopped" in out
    assert not wait_none(f"sleep\0{marker}", 10)


def test_secrets_outside_writes_and_network_are_blocked_and_explained(computer, place):
    work, home = place
    out = text(computer.run("python", "print(open(os.path.expanduser('~/.ssh/id_rsa')).read())"))
    assert "planted-secret" not in out
    assert "No such file" in out and f"{home}/.ssh is hidden from code" in out
    out = text(computer.run("shell", "cat ~/.ssh/id_rsa; ls -A ~/.ssh | wc -l"))
    assert "planted-secret" not in out and out.splitlines()[1].strip() == "0"

    for target in (home / "notes.txt", "/etc/oi-drill", "/usr/local/oi-drill"):
        out = text(computer.run("python", f"open({str(target)!r}, 'w').write('x')"))
        assert "Read-only file system" in out and "[sandbox] Writing to" in out and "--allow_write" in out
        assert not os.path.exists(target)
    out = text(computer.run("shell", f"echo x > {home}/notes.txt; rm -rf {home}/.ssh; touch /opt/oi-drill"))
    assert "Writing to" in out and not (home / "notes.txt").exists() and (home / ".ssh" / "id_rsa").exists()

    with socket.socket() as server:  # a real listener on the host's loopback
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(0.5)
        port = server.getsockname()[1]
        out = text(computer.run("python", f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=3)"))
        assert "Connection refused" in out and "network was blocked" in out and "--allow_network" in out
        with pytest.raises(socket.timeout):
            server.accept()  # nothing arrived
    out = text(computer.run("shell", "getent hosts pypi.org || echo unresolved"))
    assert "unresolved" in out

    out = text(computer.run("python", "open('inside.txt', 'w').write('ok')\nprint(open('inside.txt').read())"))
    assert out == "ok\n" and (work / "inside.txt").read_text() == "ok"


@pytest.mark.parametrize("lang,busy", [
    ("python", "import subprocess\nsubprocess.Popen(['sleep', '{m}'])\nwhile True: pass"),
    ("shell", "sleep {m} &\nwhile :; do :; done"),
])
def test_kill_9_of_the_interpreter_leaves_no_process_behind(place, lang, busy):
    m = f"{time.time() % 1000:.6f}"
    p = host(busy.format(m=m), lang, after="")
    deadline = time.monotonic() + 30
    while not marked(f"sleep\0{m}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert marked(f"sleep\0{m}"), "the busy cell did not start"
    tree = [c.pid for c in psutil.Process(p.pid).children(recursive=True)]
    assert tree
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=10)
    p.stdout.close()
    assert not wait_none(f"sleep\0{m}", 10)
    deadline = time.monotonic() + 10
    while (left := [pid for pid in tree if psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie"]) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, "session processes outlived the interpreter"


def test_kill_9_with_the_sandbox_off_still_ends_a_busy_session(place):
    # Off: no PID namespace, but the session process gets PR_SET_PDEATHSIG (from the spawner thread).
    p = host("while True: pass", "python", mode="off")
    deadline = time.monotonic() + 30
    kids: list[int] = []
    while not kids and time.monotonic() < deadline:
        kids = [c.pid for c in psutil.Process(p.pid).children(recursive=True)]
        time.sleep(0.1)
    assert kids
    time.sleep(0.5)  # the cell is running now
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=10)
    p.stdout.close()
    deadline = time.monotonic() + 10
    while (left := [k for k in kids if psutil.pid_exists(k) and psutil.Process(k).status() != "zombie"]) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, "the busy session outlived the interpreter"
