"""JavaScript specifics: let/const/class/function persist and may be declared again, REPL-like
final values, promises and top-level await, clean stacks, interrupts."""
from __future__ import annotations

import threading
import time

import pytest

from oi_local.computer import Computer

pytestmark = pytest.mark.timeout(60)


def text(messages: list[dict]) -> str:
    return "".join(m["content"] for m in messages if m.get("format") == "output")


@pytest.fixture
def computer():
    c = Computer()
    yield c
    c.terminate()


def test_top_level_declarations_persist(computer):
    computer.run("javascript", "let a = 1; const b = 2; var c = 3; function f() { return a + b + c }\n"
                               "class K { v() { return 10 } }")
    assert computer.last_result.exit_code == 0
    assert text(computer.run("js", "f() + new K().v()")) == "16\n"


def test_let_and_const_can_be_declared_again(computer):
    computer.run("javascript", "let a = 1; const b = 2")
    out = text(computer.run("javascript", "let a = 10; const b = 20; a + b"))
    assert out == "30\n" and computer.last_result.exit_code == 0
    computer.run("javascript", "class K {}")
    assert text(computer.run("javascript", "class K { x() { return 1 } }; new K().x()")) == "1\n"


def test_final_value_is_printed_like_the_repl(computer):
    assert text(computer.run("javascript", "1 + 1")) == "2\n"
    assert text(computer.run("javascript", "'str'")) == "'str'\n"
    assert text(computer.run("javascript", "({a: 1, b: [1, 2]})")) == "{ a: 1, b: [ 1, 2 ] }\n"
    assert text(computer.run("javascript", "console.log('only this')")) == "only this\n"  # no "undefined"
    assert text(computer.run("javascript", "let unused = 5")) == ""


def test_promises_and_top_level_await(computer):
    assert text(computer.run("javascript", "new Promise(r => setTimeout(() => r(42), 20))")) == "42\n"
    code = "const wait = (ms) => new Promise(r => setTimeout(r, ms));\nawait wait(10);\nconst {x, y: [z]} = {x: 1, y: [2]};\nx + z"
    assert text(computer.run("javascript", code)) == "3\n"
    assert text(computer.run("javascript", "x + z")) == "3\n"  # declarations of an await cell persist too
    assert text(computer.run("javascript", "for await (const v of [Promise.resolve(7)]) console.log(v)")) == "7\n"


def test_errors_print_a_clean_stack_and_exit_1(computer):
    out = text(computer.run("javascript", "function boom() { throw new TypeError('bad thing') }\nboom()"))
    assert "TypeError: bad thing" in out and "at boom (cell-" in out
    assert "node:vm" not in out and "_node_driver" not in out
    assert computer.last_result.exit_code == 1
    out = text(computer.run("javascript", "await Promise.reject(new Error('async no'))"))
    assert "Error: async no" in out and computer.last_result.exit_code == 1
    out = text(computer.run("javascript", "let = ;"))
    assert "SyntaxError" in out and computer.last_result.exit_code == 1
    assert text(computer.run("javascript", "throw 'plain'")) == "Uncaught 'plain'\n"


def test_errors_in_timers_do_not_kill_the_session(computer):
    computer.run("javascript", "globalThis.kept = 5; setTimeout(() => { throw new Error('late') }, 10);\n"
                               "await new Promise(r => setTimeout(r, 50))")
    assert computer.last_result.exit_code == 1  # the error happened while the cell ran
    assert text(computer.run("javascript", "kept")) == "5\n"


def test_require_resolves_from_the_working_directory(computer):
    assert text(computer.run("javascript", "require('path').join('a', 'b')")) == "'a/b'\n"


def test_sigint_stops_a_sync_loop_and_keeps_state(computer):
    computer.run("javascript", "let kept = 'yes'")
    threading.Timer(0.5, computer.stop).start()
    t0 = time.monotonic()
    out = text(computer.run("javascript", "let n = 0; while (true) { n++ }"))
    assert time.monotonic() - t0 < 2.5
    assert "Interrupted" in out and computer.last_result.exit_code == 130
    assert text(computer.run("javascript", "kept")) == "'yes'\n"


def test_node_child_processes_share_the_output_pipe(computer):
    code = "console.log('a'); require('child_process').execSync('echo b >&2', {stdio: 'inherit'}); console.log('c')"
    out = text(computer.run("javascript", code))
    assert out == "a\nb\nc\n"
