"""The Computer API: language list and lookup, custom languages (the spec's E2B example with a
local stand-in), max_output on every language, timeouts, unknown languages, streaming shape."""
from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from oi_local.computer import Computer, RunResult
from oi_local.computer.languages import HTML, JavaScript, PowerShell, Python, R, Shell

pytestmark = pytest.mark.timeout(60)


def text(messages: list[dict]) -> str:
    return "".join(m["content"] for m in messages if m.get("format") == "output")


class PythonLocalStandIn:
    """The spec's PythonE2B, with e2b.run_code replaced by a local subprocess."""

    name = "python"
    system_message = "# Follow this rule: Every Python code block MUST contain at least one print statement."

    def run(self, code):
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        yield {"type": "console", "format": "output", "content": proc.stdout + proc.stderr}

    def stop(self):
        pass

    def terminate(self):
        pass


class Blocking:
    """A custom language whose run blocks without yielding until stop() is called."""

    name = "blocker"
    aliases = ["BLK"]

    def __init__(self):
        self.stopped = threading.Event()
        self.terminated = False

    def run(self, code):
        yield {"type": "console", "format": "active_line", "content": 1}
        self.stopped.wait(30)
        yield {"type": "console", "format": "output", "content": "stopped" if self.stopped.is_set() else "not stopped"}

    def stop(self):
        self.stopped.set()

    def terminate(self):
        self.terminated = True


class Chatty:
    name = "chatty"

    def __init__(self, computer):  # like Open Interpreter: languages may take the computer
        self.computer = computer

    def run(self, code):
        for i in range(int(code)):
            yield {"type": "console", "format": "output", "content": f"{i:05d}\n"}

    def stop(self):
        pass

    def terminate(self):
        pass


@pytest.fixture
def computer():
    c = Computer()
    yield c
    c.terminate()


def test_defaults():
    c = Computer()
    # R and PowerShell only where their runtime is installed (Rscript, pwsh); HTML always.
    optional = [cls for cls in (R, HTML, PowerShell) if cls.available()]
    assert c.languages == [Python, Shell, JavaScript, *optional]
    assert (c.offline, c.verbose, c.emit_images, c.max_output, c.run_timeout) == (False, False, True, 2800, None)
    assert c.last_result is None
    assert c.system_message == ""


def test_get_language_by_name_or_alias_is_lazy_and_cached(computer):
    assert computer._instances == {}  # nothing started yet
    py = computer.get_language("PYTHON")
    assert isinstance(py, Python) and computer.get_language("py") is py and computer.get_language("python3") is py
    assert isinstance(computer.get_language("bash"), Shell) and computer.get_language("zsh") is computer.get_language("sh")
    assert isinstance(computer.get_language("node"), JavaScript) and computer.get_language("JS") is computer.get_language("javascript")
    assert computer.get_language("cobol") is None
    assert py._proc is None  # processes start on the first run, not on lookup


def test_unknown_language_gives_one_output_chunk(computer):
    out = computer.run("ruby", "puts 1")
    assert out == [{"role": "computer", "type": "console", "format": "output",
                    "content": f"Unknown language 'ruby'. Available languages: {', '.join(cls.name for cls in computer.languages)}.\n"}]
    assert computer.last_result == RunResult()


def test_custom_language_replaces_python(computer):
    computer.run("python", "x = 1")
    builtin = computer.get_language("python")
    pid = builtin._proc.pid
    computer.languages = [PythonLocalStandIn]
    assert builtin._proc is None  # the old session was terminated
    out = computer.run("python", "print(349808*38490739)")
    assert out == [{"role": "computer", "type": "console", "format": "output", "content": f"{349808 * 38490739}\n"}]
    assert text(computer.run("python", "print(x)")).endswith("NameError: name 'x' is not defined\n")  # stateless
    assert computer.system_message == PythonLocalStandIn.system_message
    assert computer.get_language("shell") is None
    with pytest.raises(ProcessLookupError):
        import os

        os.kill(pid, 0)


def test_custom_language_stream_gets_role_and_final_active_line(computer):
    computer.languages = [PythonLocalStandIn]
    chunks = list(computer.run("python", "print('hi')", stream=True))
    assert chunks == [
        {"role": "computer", "type": "console", "format": "output", "content": "hi\n"},
        {"role": "computer", "type": "console", "format": "active_line", "content": None},
    ]


def test_max_output_applies_to_custom_languages_head_and_tail(computer):
    computer.languages = [Chatty]
    assert isinstance(computer.get_language("chatty").computer, Computer)
    computer.max_output = 60
    out = computer.run("chatty", "1000")
    assert len(out) == 1
    content = out[0]["content"]
    head, marker, tail = content.partition("\n... [5940 characters omitted] ...\n")
    assert marker, content
    assert head == "00000\n00001\n00002\n00003\n00004\n"  # first 30 characters
    assert tail == "00995\n00996\n00997\n00998\n00999\n"  # last 30 characters
    assert computer.last_result.omitted_chars == 5940
    assert text(computer.run("chatty", "5")) == "00000\n00001\n00002\n00003\n00004\n"  # under the limit: all
    assert computer.last_result.omitted_chars == 0


def test_max_output_streams_the_head_first(computer):
    computer.languages = [Chatty]
    computer.max_output = 20
    chunks = [c["content"] for c in computer.run("chatty", "100", stream=True) if c.get("format") == "output"]
    assert chunks[0] == "00000\n" and "".join(chunks[:2]) == "00000\n0000"
    assert chunks[-1] == "\n... [580 characters omitted] ...\n098\n00099\n"


def test_max_output_zero_disables_truncation(computer):
    computer.max_output = 0
    out = text(computer.run("python", "print('z' * 10000)"))
    assert out == "z" * 10000 + "\n"


def test_timeout_on_a_custom_language_that_blocks(computer):
    computer.languages = [Blocking]
    t0 = time.monotonic()
    chunks = list(computer.run("BLK", "anything", stream=True, timeout=0.5))
    assert time.monotonic() - t0 < 3
    assert [c["content"] for c in chunks] == ["1", "stopped", "\nTimed out after 0.5 s: the code was stopped.\n", None]
    assert computer.last_result.timed_out and computer.last_result.interrupted
    blocker = computer.get_language("blocker")
    computer.terminate()
    assert blocker.terminated


def test_stop_reaches_a_custom_language(computer):
    computer.languages = [Blocking]
    threading.Timer(0.3, computer.stop).start()
    out = computer.run("blocker", "x")
    assert text(out) == "stopped" and computer.last_result.interrupted and not computer.last_result.timed_out


def test_languages_accept_instances(computer):
    inst = PythonLocalStandIn()
    computer.languages = [inst]
    assert computer.get_language("python") is inst


def test_output_is_merged_and_images_kept_apart(computer):
    class Mixed:
        name = "mixed"

        def run(self, code):
            yield {"type": "console", "format": "output", "content": "a"}
            yield {"type": "console", "format": "active_line", "content": "2"}
            yield {"type": "console", "format": "output", "content": "b\n"}
            yield {"type": "image", "format": "base64.png", "content": "iVBOR"}
            yield {"type": "console", "format": "output", "content": "c\n"}

        def stop(self):
            pass

        def terminate(self):
            pass

    computer.languages = [Mixed]
    assert computer.run("mixed", "") == [
        {"role": "computer", "type": "console", "format": "output", "content": "ab\n"},
        {"role": "computer", "type": "image", "format": "base64.png", "content": "iVBOR"},
        {"role": "computer", "type": "console", "format": "output", "content": "c\n"},
    ]
    computer.emit_images = False
    assert [m["type"] for m in computer.run("mixed", "")] == ["console"]


def test_display_prints_output(computer, capsys):
    computer.run("python", "print('shown')", display=True)
    assert "shown" in capsys.readouterr().out


def test_context_manager_terminates():
    with Computer() as c:
        c.run("shell", "true")
        sh = c.get_language("shell")
        assert sh._proc is not None
    assert sh._proc is None
