"""Python language specifics: REPL-like final expressions, active lines via tracing, tracebacks,
top-level await, matplotlib images, and the warm round trip."""
from __future__ import annotations

import base64
import importlib.util
import statistics
import subprocess
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


def test_spec_examples(computer):
    assert computer.run("python", "print('Hello World!')") == [
        {"role": "computer", "type": "console", "format": "output", "content": "Hello World!\n"}
    ]
    assert text(computer.run("python", "34 / 24")) == "1.4166666666666667\n"
    assert text(computer.run("python", "1+1")) == "2\n"


def test_final_expression_is_printed_like_a_repl(computer):
    assert text(computer.run("python", "a = 6\nb = 7\na * b")) == "42\n"
    assert text(computer.run("python", "'text'")) == "'text'\n"
    assert text(computer.run("python", "None")) == ""
    assert text(computer.run("python", "x = 5")) == ""
    assert text(computer.run("python", "print(_)")) == "text\n"  # like a REPL, the displayhook sets _


def test_streamed_chunks_match_the_spec_shape(computer):
    chunks = list(computer.run("python", "34 / 24", stream=True))
    assert chunks == [
        {"role": "computer", "type": "console", "format": "active_line", "content": "1"},
        {"role": "computer", "type": "console", "format": "output", "content": "1.4166666666666667\n"},
        {"role": "computer", "type": "console", "format": "active_line", "content": None},
    ]


def test_active_lines_follow_the_top_level_code(computer):
    code = "a = 1\n\ndef f():\n    return 2\n\nb = f()\nfor i in range(2):\n    a += i\nprint(a + b)\n"
    seq = lines(computer.run("python", code, stream=True))
    assert seq == ["1", "3", "6", "7", "8", "7", "8", "7", "9", None]


def test_code_runs_unaltered(computer):
    code = 's = """echo ##active_line1##\nprint("##active_line2##")"""\nprint(s)'
    assert text(computer.run("python", code)) == 'echo ##active_line1##\nprint("##active_line2##")\n'


def test_traceback_shows_the_cell_not_the_driver(computer):
    out = text(computer.run("python", "def f():\n    return 1 / 0\n\nf()"))
    assert out.startswith("Traceback (most recent call last):\n  File \"<cell-")
    assert "line 4, in <module>" in out and "line 2, in f" in out
    assert out.rstrip().endswith("ZeroDivisionError: division by zero")
    assert "<string>" not in out and "_oi_main" not in out and "run_cell" not in out
    assert computer.last_result.exit_code == 1


def test_a_data_error_shows_the_values_on_its_line(computer):
    code = ('import csv, io\nrows = list(csv.DictReader(io.StringIO("Date,Amount\\n2024-01-01,12.5\\n")))\n'
            'total = 0\nfor row in rows:\n    total += row["amount"]  # the column is "Amount"\n')
    out = text(computer.run("python", code))
    assert out.rstrip().splitlines()[-2:] == [
        "KeyError: 'amount'", "Values on that line: total = 0; row = {'Amount': '12.5', 'Date': '2024-01-01'}"]
    out = text(computer.run("python", "def f(xs):\n    return xs[10**7]\n\nf(list(range(10**6)))"))
    assert out.rstrip().endswith("Values on that line: xs = [0, 1, 2, 3, 4, 5, ...] (length 1000000)")
    out = text(computer.run("python", "class Bad:\n    def __repr__(self):\n        raise OSError\n\nb = Bad()\nb.nope"))
    assert "AttributeError: 'Bad' object has no attribute 'nope'\nValues on that line: b = <Bad instance at " in out
    out = text(computer.run("python", "import math\nmath.sqrt(-1)"))  # the module is not a value worth showing
    assert out.rstrip().endswith("ValueError: math domain error")
    assert "Values on that line" not in text(computer.run("python", "n = 0\n1 / n"))  # not a data error


def test_syntax_error_is_reported(computer):
    out = text(computer.run("python", "def f(:\n    pass"))
    assert "SyntaxError" in out and "Traceback" not in out
    assert computer.last_result.exit_code == 1


def test_namespace_is_main(computer):
    assert text(computer.run("python", "print(__name__)\nif __name__ == '__main__':\n    print('main')")) == "__main__\nmain\n"
    assert text(computer.run("python", "print(sorted(k for k in globals() if not k.startswith('__')))")) == "[]\n"


def test_top_level_await(computer):
    code = "import asyncio\nasync def double(v):\n    await asyncio.sleep(0.01)\n    return 2 * v\nawait double(21)"
    assert text(computer.run("python", code)) == "42\n"
    assert text(computer.run("python", "r = await double(2)\nr")) == "4\n"


def test_system_exit_keeps_the_session(computer):
    computer.run("python", "kept = 'yes'")
    computer.run("python", "import sys; sys.exit(5)")
    assert computer.last_result.exit_code == 5
    assert text(computer.run("python", "kept")) == "'yes'\n"


def test_exit_builtin_keeps_the_session_and_stdin(computer):
    computer.run("python", "kept = 1\nexit(2)")
    assert computer.last_result.exit_code == 2
    assert text(computer.run("python", "import sys\nprint(kept, repr(sys.stdin.read()))")) == "1 ''\n"


def test_keyboard_interrupt_in_subprocess_wait(computer):
    threading.Timer(0.5, computer.stop).start()
    t0 = time.monotonic()
    out = text(computer.run("python", "import subprocess\nsubprocess.run(['sleep', '100'])\nprint('not reached')"))
    assert time.monotonic() - t0 < 2.5
    assert "KeyboardInterrupt" in out and "not reached" not in out


def test_code_ignoring_sigint_is_escalated(computer):
    # The cell ignores SIGINT itself: stop() ends up killing the session, reported, never hanging.
    threading.Timer(0.3, computer.stop).start()
    t0 = time.monotonic()
    out = text(computer.run("python", "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(30)"))
    assert time.monotonic() - t0 < 6
    assert "was killed by signal SIGKILL" in out
    assert text(computer.run("python", "print('fresh')")) == "fresh\n"


def test_cpu_bound_code_is_not_slowed_by_tracing(computer):
    # Tracing (for active lines) would make this ~2.4x slower; it stops after 0.2 s of CPU.
    code = ("import time\ndef g():\n    s = 0\n    for i in range(2 * 10**7):\n        s += i\n    return s\n"
            "t = time.perf_counter(); g(); print(time.perf_counter() - t)")
    ours, plain = [], []
    for _ in range(2):  # interleaved, best of two: the machine may be busy
        ours.append(float(text(computer.run("python", code))))
        plain.append(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout))
    print(f"\nCPU-bound cell: {min(ours):.3f} s here vs {min(plain):.3f} s in plain python")
    assert min(ours) < min(plain) * 1.5 + 0.2


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib not installed")
def test_matplotlib_figures_become_png_images(computer):
    code = "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.show()\nprint('after show')"
    out = computer.run("python", code)
    kinds = [(m["type"], m.get("format")) for m in out]
    assert kinds == [("image", "base64.png"), ("console", "output")]
    assert base64.b64decode(out[0]["content"]).startswith(b"\x89PNG\r\n\x1a\n")
    assert out[1]["content"] == "after show\n"  # no "non-interactive backend" warning
    # A figure left open at the end of a cell is emitted too, then closed.
    out = computer.run("python", "fig = plt.figure()\n_ = plt.bar([1, 2], [3, 4])")
    assert [m["type"] for m in out] == ["image"]
    assert text(computer.run("python", "print(plt.get_fignums())")) == "[]\n"
    computer.emit_images = False
    assert computer.run("python", "plt.plot([1]); plt.show()") == []


def test_a_figure_saved_after_show_is_the_plot_not_a_blank_one(tmp_path, monkeypatch):
    import io

    from PIL import Image

    monkeypatch.chdir(tmp_path)
    computer = Computer()
    try:
        code = ("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [3, 1, 2])\nplt.title('Prices')\nplt.show()\n"
                "plt.savefig('prices.png')\nprint(len(plt.get_fignums()))")
        out = computer.run("python", code)
        assert [(m["type"], m.get("content") if m["type"] == "console" else None) for m in out] == [
            ("image", None), ("console", "1\n")]  # shown once; the figure is still there to save
        for png in (base64.b64decode(out[0]["content"]), (tmp_path / "prices.png").read_bytes()):
            assert len(Image.open(io.BytesIO(png)).getcolors(1 << 16) or range(300)) > 10  # blank: one colour
        assert text(computer.run("python", "print(plt.get_fignums())")) == "[]\n"  # closed when the cell ended
    finally:
        computer.terminate()


def test_warm_round_trip(computer):
    computer.run("python", "1+1")
    samples = []
    for _ in range(300):
        t0 = time.perf_counter()
        out = computer.run("python", "1+1")
        samples.append(time.perf_counter() - t0)
        assert out[0]["content"] == "2\n"
    med = statistics.median(samples) * 1000
    print(f"\nwarm computer.run('python', '1+1'): median {med:.3f} ms, p90 "
          f"{sorted(samples)[int(len(samples) * 0.9)] * 1000:.3f} ms (target < 2 ms)")
    assert med < 20  # loose: shared CI machines; the target is < 2 ms


def test_common_modules_are_imported_when_a_cell_forgets_to(computer, monkeypatch):
    monkeypatch.setenv("OI_TEST_MODE", "staging")
    computer.allow_env = ["OI_TEST_MODE"]  # the sandbox passes only allow-listed variables
    assert text(computer.run("python", "print(os.environ['OI_TEST_MODE'])")) == "staging\n"
    assert text(computer.run("python", "math.factorial(5), Path('a/b').name")) == "(120, 'b')\n"
    assert text(computer.run("python", "json.dumps(pd.DataFrame({'a': [1]}).a.tolist())")) == "'[1]'\n"
    # Only names that are undefined: the session's own variables win, and so do builtins.
    assert text(computer.run("python", "re = 'mine'\nprint(re)")) == "mine\n"
    assert text(computer.run("python", "print(re)")) == "mine\n"
    # JSON literals copied into Python code mean what they say.
    assert text(computer.run("python", 'd = {"on": true, "off": false, "none": null}\nd')) == \
        "{'on': True, 'off': False, 'none': None}\n"
    # ... and the names taken from them: defaultdict, Counter, timedelta, mean
    out = text(computer.run("python", "c = defaultdict(int)\nc['a'] += 2\nprint(dict(c), Counter('aab')['a'], "
                                      "timedelta(days=1).days, mean([1, 2]))"))
    assert out == "{'a': 2} 2 1 1.5\n"
    # Only the listed modules: anything else is still a NameError.
    out = text(computer.run("python", "factorial(5)"))
    assert "NameError: name 'factorial' is not defined" in out


def test_stopping_a_cell_ends_the_shell_jobs_it_started_only(computer):
    # `sh -c 'cmd &'` starts cmd with SIGINT ignored: the KeyboardInterrupt alone leaves it running.
    start = "import subprocess\np = subprocess.Popen('sleep 300 & echo $!', shell=True, stdout=subprocess.PIPE)\n"
    out = text(computer.run("python", start + "print(p.stdout.readline().decode().strip())"))
    kept = int(out.split()[0])
    assert "[background] Still running after this run" in out and "sleep 300" in out  # listed
    threading.Timer(1.0, computer.stop).start()
    out = text(computer.run("python", start + "print('PID', p.stdout.readline().decode().strip(), flush=True)\n"
                                        "import time; time.sleep(60)"))
    started = int(out.split("PID ")[1].split()[0])
    assert "KeyboardInterrupt" in out

    def alive(pid):  # asked inside the session: in the sandbox, pids are those of its namespace
        return text(computer.run("python", f"import os\ntry:\n    os.kill({pid}, 0); print(1)\nexcept OSError:\n    print(0)")) == "1\n"

    deadline = time.monotonic() + 5
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(started) and alive(kept)
