"""The behaviours every built-in language shares, checked with real processes for python, shell
and javascript: persistence, stop, timeout, exit codes, crash recovery, output order and
streaming, stdin, huge output, early close."""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from oi_local.computer import Computer

pytestmark = pytest.mark.timeout(90)
LANGS = ["python", "shell", "javascript"]
ROOT = Path(__file__).resolve().parent.parent


def text(messages: list[dict]) -> str:
    return "".join(m["content"] for m in messages if m.get("format") == "output")


@pytest.fixture
def computer():
    c = Computer()
    yield c
    c.terminate()


SET_STATE = {
    "python": "x = 41\ndef bump(v):\n    return v + 1",
    "shell": "cd / && export OI_T=41 && cd tmp",
    "javascript": "let x = 41; const k = 'kept'; function bump(v) { return v + 1 }",
}
READ_STATE = {
    "python": "print(bump(x))",
    "shell": 'echo "$((OI_T + 1)) $PWD"',
    "javascript": "console.log(bump(x), k)",
}
EXPECT_STATE = {"python": "42\n", "shell": "42 /tmp\n", "javascript": "42 kept\n"}


@pytest.mark.parametrize("lang", LANGS)
def test_state_persists_across_runs(computer, lang):
    computer.run(lang, SET_STATE[lang])
    assert computer.last_result.exit_code == 0
    assert text(computer.run(lang, READ_STATE[lang])) == EXPECT_STATE[lang]


LONG_SLEEP = {
    "python": "import time\nprint('sleeping', flush=True)\ntime.sleep(100)\nprint('not reached')",
    "shell": "echo sleeping\nsleep 100\necho not reached",
    "javascript": "console.log('sleeping'); await new Promise(r => setTimeout(r, 100000)); console.log('not reached')",
}


@pytest.mark.parametrize("lang", LANGS)
def test_stop_during_long_sleep_keeps_session(computer, lang):
    computer.run(lang, SET_STATE[lang])
    timer = threading.Timer(0.7, computer.stop)
    timer.start()
    t0 = time.monotonic()
    out = text(computer.run(lang, LONG_SLEEP[lang]))
    elapsed = time.monotonic() - t0
    timer.join()
    assert elapsed < 2.5, elapsed
    assert "sleeping" in out and "not reached" not in out
    r = computer.last_result
    assert r.interrupted and not r.timed_out and r.exit_code == 130
    assert text(computer.run(lang, READ_STATE[lang])) == EXPECT_STATE[lang]  # same session


ENDLESS = {
    "python": "while True:\n    pass",
    "shell": "while true; do :; done",
    "javascript": "while (true) {}",
}


@pytest.mark.parametrize("lang", LANGS)
def test_timeout_on_endless_loop(computer, lang):
    computer.run(lang, SET_STATE[lang])
    t0 = time.monotonic()
    out = text(computer.run(lang, ENDLESS[lang], timeout=1))
    elapsed = time.monotonic() - t0
    assert 0.9 < elapsed < 4, elapsed
    assert "Timed out after 1 s" in out
    assert computer.last_result.timed_out and computer.last_result.interrupted
    assert text(computer.run(lang, READ_STATE[lang])) == EXPECT_STATE[lang]


def test_run_timeout_default_applies(computer):
    computer.run_timeout = 0.5
    out = text(computer.run("shell", "sleep 30"))
    assert "Timed out after 0.5 s" in out and computer.last_result.timed_out
    computer.run_timeout = None
    computer.run("shell", "sleep 0.7")
    assert computer.last_result.exit_code == 0 and not computer.last_result.timed_out


EXIT_CODES = {
    "python": [("pass", 0), ("1/0", 1), ("import sys; sys.exit(4)", 4), ("raise SystemExit", 0)],
    "shell": [("true", 0), ("false", 1), ("(exit 4)", 4), ("ls /nonexistent-oi 2>/dev/null", 2)],
    "javascript": [("1", 0), ("throw new Error('boom')", 1), ("Promise.reject(new Error('no'))", 1), ("null.x", 1)],
}


@pytest.mark.parametrize("lang", LANGS)
def test_exit_codes(computer, lang):
    for code, expected in EXIT_CODES[lang]:
        computer.run(lang, code)
        assert computer.last_result.exit_code == expected, (code, computer.last_result)


SELF_KILL = {
    "python": "import os; os._exit(3)",
    "shell": "exit 3",
    "javascript": "process.exit(3)",
}


@pytest.mark.parametrize("lang", LANGS)
def test_process_exit_reports_and_restarts(computer, lang):
    computer.run(lang, SET_STATE[lang])
    out = text(computer.run(lang, SELF_KILL[lang]))
    assert f"The {lang} process exited with code 3; a fresh session will start on the next run" in out
    assert computer.last_result.exit_code == 3
    computer.run(lang, {"python": "print(x)", "shell": "echo \"[$OI_T]\"", "javascript": "console.log(typeof x)"}[lang])
    assert computer.last_result.exit_code == (1 if lang == "python" else 0)  # fresh: state is gone
    assert text(computer.run(lang, {"python": "print(6*7)", "shell": "echo $((6*7))",
                                    "javascript": "console.log(6*7)"}[lang])) == "42\n"


def test_killed_by_signal_is_reported(computer):
    out = text(computer.run("python", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"))
    assert "was killed by signal SIGKILL" in out
    assert computer.last_result.exit_code == 137
    assert text(computer.run("python", "print('back')")) == "back\n"


ORDER = {
    "python": "import sys\nprint('out-1')\nprint('err-2', file=sys.stderr)\nprint('out-3')",
    "shell": "echo out-1\necho err-2 >&2\necho out-3",
    "javascript": "console.log('out-1'); console.error('err-2'); console.log('out-3')",
}


@pytest.mark.parametrize("lang", LANGS)
def test_stdout_stderr_true_order(computer, lang):
    for _ in range(3):
        assert text(computer.run(lang, ORDER[lang])) == "out-1\nerr-2\nout-3\n"


SLOW = {
    "python": "import time\nprint('first', flush=True)\ntime.sleep(2)\nprint('second')",
    "shell": "echo first\nsleep 2\necho second",
    "javascript": "console.log('first'); await new Promise(r => setTimeout(r, 2000)); console.log('second')",
}


@pytest.mark.parametrize("lang", LANGS)
def test_output_streams_before_the_run_ends(computer, lang):
    computer.run(lang, "true" if lang == "shell" else "1")  # warm start
    t0 = time.monotonic()
    first_at = None
    seen = ""
    for chunk in computer.run(lang, SLOW[lang], stream=True):
        assert chunk["role"] == "computer"
        if chunk.get("format") == "output":
            seen += chunk["content"]
            if first_at is None and "first" in seen:
                first_at = time.monotonic() - t0
    total = time.monotonic() - t0
    assert first_at is not None and first_at < 1.0, first_at
    assert total >= 1.9
    assert seen == "first\nsecond\n"


STDIN = {
    "python": ("name = input('Your name? ')", "input() has no one to answer it: code runs without a person at the keyboard"),
    "shell": ('read x\necho "got [$x]"', "read: no input available: code runs without a keyboard"),
    "javascript": ("const s = require('fs').readFileSync(0, 'utf8'); console.log('stdin: [' + s + ']')", "stdin: []"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_reading_stdin_does_not_hang(computer, lang):
    code, message = STDIN[lang]
    t0 = time.monotonic()
    out = text(computer.run(lang, code, timeout=10))
    assert time.monotonic() - t0 < 3
    assert message in out
    assert not computer.last_result.timed_out


def test_shell_commands_reading_stdin_get_eof(computer):
    code = f"cat; echo rc=$?; {shlex.quote(sys.executable)} -c 'import sys; print(repr(sys.stdin.read()))'"
    out = text(computer.run("shell", code, timeout=10))
    assert out == "rc=0\n''\n"


HUGE = {
    "python": "print('x' * 100_000_000)",
    "shell": "yes | head -c 100000000",
    "javascript": "process.stdout.write('x'.repeat(100_000_000)); undefined",
}
# Measured in a fresh interpreter so the peak RSS is this run's own.
_MEMORY_SCRIPT = r"""
import json, resource, sys, time
from oi_local.computer import Computer
c = Computer()
lang, code = sys.argv[1], sys.argv[2]
c.run(lang, "true" if lang == "shell" else "1")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.monotonic()
out = c.run(lang, code)
elapsed = time.monotonic() - t0
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
text = "".join(m["content"] for m in out if m.get("format") == "output")
print(json.dumps({"grow_kb": after - before, "text": text, "elapsed": elapsed,
                  "omitted": c.last_result.omitted_chars, "exit": c.last_result.exit_code}))
c.terminate()
"""


@pytest.mark.parametrize("lang", LANGS)
def test_100mb_output_keeps_head_and_tail_with_bounded_memory(lang):
    proc = subprocess.run([sys.executable, "-c", _MEMORY_SCRIPT, lang, HUGE[lang]], capture_output=True,
                          text=True, cwd=ROOT, timeout=80)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    print(f"\n{lang}: 100 MB in {r['elapsed']:.2f} s, parent peak RSS grew {r['grow_kb'] / 1024:.1f} MB")
    assert r["grow_kb"] < 50 * 1024
    assert r["exit"] == 0
    out = r["text"]
    head, sep, rest = out.partition("\n... [")
    assert sep, out[:200]
    omitted = int(rest.split(" characters omitted] ...\n")[0])
    tail = rest.split(" characters omitted] ...\n", 1)[1]
    assert omitted == r["omitted"] and omitted > 99_000_000
    assert len(head) == 1400 and len(tail) == 1400
    assert set(head) <= {"x", "y", "\n"} and set(tail) <= {"x", "y", "\n"}
    assert len(head) + omitted + len(tail) in (100_000_000, 100_000_001)  # python's print adds "\n"


@pytest.mark.parametrize("lang", LANGS)
def test_closing_the_stream_early_stops_the_code(computer, lang, tmp_path):
    marker = tmp_path / "reached"
    code = {
        "python": f"import time\nprint('started', flush=True)\ntime.sleep(5)\nopen({str(marker)!r}, 'w').close()",
        "shell": f"echo started\nsleep 5\ntouch {marker}",
        "javascript": "console.log('started'); await new Promise(r => setTimeout(r, 5000));\n"
                      f"require('fs').writeFileSync({json.dumps(str(marker))}, '')",
    }[lang]
    t0 = time.monotonic()
    gen = computer.run(lang, code, stream=True)
    for chunk in gen:
        if chunk.get("format") == "output" and "started" in chunk["content"]:
            break
    gen.close()
    assert time.monotonic() - t0 < 3
    assert computer.last_result.interrupted
    ok = {"python": "print('ok')", "shell": "echo ok", "javascript": "console.log('ok')"}[lang]
    assert text(computer.run(lang, ok)) == "ok\n"
    time.sleep(5.5 - (time.monotonic() - t0))
    assert not marker.exists()


@pytest.mark.parametrize("lang", LANGS)
def test_two_computers_do_not_share_sessions(lang):
    a, b = Computer(), Computer()
    try:
        a.run(lang, SET_STATE[lang])
        b.run(lang, "1")
        assert a.get_language(lang)._proc.pid != b.get_language(lang)._proc.pid
        probe = {"python": "print('x' in globals())", "shell": 'echo "[${OI_T-}]"', "javascript": "console.log(typeof x)"}[lang]
        assert text(b.run(lang, probe)) == {"python": "False\n", "shell": "[]\n", "javascript": "undefined\n"}[lang]
    finally:
        a.terminate()
        b.terminate()


@pytest.mark.parametrize("lang", LANGS)
def test_terminate_kills_and_next_run_restarts(computer, lang):
    computer.run(lang, SET_STATE[lang])
    session = computer.get_language(lang)
    pids = [session._proc.pid, *([session._init_pid] if session._init_pid else [])]  # bwrap and its init
    computer.terminate()
    from procs import alive

    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)
    computer.run(lang, "1")
    assert computer.get_language(lang)._proc.pid not in pids
