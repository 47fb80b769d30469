"""Shell specifics: code runs unaltered (heredocs, quotes, $VAR), active lines from the DEBUG trap,
SIGINT ends the cell but not bash (also inside nested functions), cwd/env survive."""
from __future__ import annotations

import shlex
import sys
import threading
import time

import pytest

from oi_local.computer import Computer

pytestmark = pytest.mark.timeout(60)


def text(messages: list[dict]) -> str:
    return "".join(m["content"] for m in messages if m.get("format") == "output")


def lines(chunks) -> list:
    return [c["content"] for c in chunks if c.get("format") == "active_line"]


@pytest.fixture
def computer():
    c = Computer()
    yield c
    c.terminate()


HEREDOC = """NAME=world
cat <<EOF
hello $NAME "double" 'single' \\$escaped
echo this-is-not-a-command ##active_line3##
EOF
cat <<'RAW'
$NAME "q" `not run`
RAW
echo "done: $NAME"
"""


def test_heredocs_and_quotes_run_unaltered(computer):
    out = text(computer.run("shell", HEREDOC))
    assert out == (
        "hello world \"double\" 'single' $escaped\n"
        "echo this-is-not-a-command ##active_line3##\n"
        "$NAME \"q\" `not run`\n"
        "done: world\n"
    )


def test_active_lines_are_the_top_level_commands(computer):
    seq = lines(computer.run("shell", HEREDOC, stream=True))
    assert seq == ["1", "2", "6", "9", None]
    code = "f() {\n  echo in-f\n  echo still-in-f\n}\nx=1\nf\necho $x\n"
    assert lines(computer.run("shell", code, stream=True)) == ["5", "6", "7", None]
    assert text(computer.run("shell", code)) == "in-f\nstill-in-f\n1\n"


def test_cwd_and_env_persist_and_aliases_work(computer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the working folder: visible inside the sandbox (its /tmp is private)
    (tmp_path / "sub").mkdir()
    computer.run("bash", f"cd {tmp_path}/sub\nexport GREETING='hi there'\nmyfn() {{ echo fn-$1; }}")
    assert text(computer.run("sh", 'pwd; echo "$GREETING"; myfn 7')) == f"{tmp_path}/sub\nhi there\nfn-7\n"


def test_exit_status_is_that_of_the_last_command(computer):
    computer.run("shell", "false\ntrue")
    assert computer.last_result.exit_code == 0
    computer.run("shell", "true\nfalse")
    assert computer.last_result.exit_code == 1
    computer.run("shell", "nonexistent-command-oi 2>/dev/null")
    assert computer.last_result.exit_code == 127


@pytest.mark.parametrize(
    "code",
    [
        "sleep 100\necho after",
        "for i in 1 2 3; do sleep 50; done\necho after",
        "g() { sleep 100; echo after-in-g; }\nf() { g; echo after-g-in-f; }\nf\necho after",
        "x=$(sleep 100)\necho after",
    ],
)
def test_sigint_ends_the_cell_not_bash(computer, code):
    computer.run("shell", "cd /tmp && export KEEP=yes")
    threading.Timer(0.5, computer.stop).start()
    t0 = time.monotonic()
    out = text(computer.run("shell", code))
    assert time.monotonic() - t0 < 2.5
    assert "after" not in out and "Interrupted" in out
    assert computer.last_result.exit_code == 130 and computer.last_result.interrupted
    assert text(computer.run("shell", 'echo "$PWD $KEEP"')) == "/tmp yes\n"
    computer.run("shell", "sleep 0.2")  # the next cell is not affected by the interrupt
    assert computer.last_result.exit_code == 0 and not computer.last_result.interrupted


def test_a_program_ignoring_sigint_is_killed_but_bash_survives(computer):
    computer.run("shell", "export KEEP=yes")
    threading.Timer(0.3, computer.stop).start()
    t0 = time.monotonic()
    code = (f"{shlex.quote(sys.executable)} -c 'import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); "
            "time.sleep(60)'\necho after")
    out = text(computer.run("shell", code))
    assert time.monotonic() - t0 < 4
    assert "after" not in out
    assert text(computer.run("shell", "echo $KEEP")) == "yes\n"


def test_read_with_here_string_and_pipes_still_work(computer):
    out = text(computer.run("shell", 'read a b <<< "1 2"; echo "$b $a"\nprintf "x\\ny\\n" | while read l; do echo "<$l>"; done'))
    assert out == "2 1\n<x>\n<y>\n"


def test_background_process_does_not_block_the_run(computer):
    t0 = time.monotonic()
    computer.run("shell", "sleep 30 &\necho started")
    assert time.monotonic() - t0 < 2
    assert text(computer.run("shell", "echo next")) == "next\n"


def test_stopping_a_run_ends_what_it_started_in_the_background_only(computer):
    # bash starts `cmd &` with SIGINT ignored: the stop's SIGINT alone would leave it running.
    out = text(computer.run("shell", "sleep 300 &\necho $!"))
    kept = int(out.split()[0])
    assert "[background] Still running after this run" in out  # what a run leaves behind is named
    threading.Timer(1.0, computer.stop).start()
    out = text(computer.run("shell", "sleep 300 & echo PID=$!; wait"))
    started = int(out.split("PID=")[1].split()[0])

    def alive(pid):  # asked inside the session: in the sandbox, pids are those of its namespace
        return text(computer.run("shell", f"kill -0 {pid} 2>/dev/null && echo 1 || echo 0")) == "1\n"

    deadline = time.monotonic() + 5
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(started)
    assert alive(kept)  # a finished run's background job (a server the user keeps) survives
    assert text(computer.run("shell", "echo still here")) == "still here\n"


def test_tight_loop_is_not_slowed_much_by_tracing(computer):
    t0 = time.monotonic()
    out = text(computer.run("shell", "n=0\nfor i in $(seq 1 200000); do n=$((n+1)); done\necho $n"))
    elapsed = time.monotonic() - t0
    print(f"\n200k-iteration bash loop: {elapsed:.2f} s")
    assert out == "200000\n" and elapsed < 15
