from __future__ import annotations

import pytest

from oi_local.core.rules import endless_loops

from .handmade import block, make_turn

ASK = "in app.log, which hour of the day had the most ERROR lines? how many were there in that hour?"
ENDLESS = ('import time\nwhile True:\n    with open("app.log") as f:\n        lines = f.readlines()\n'
           '    for line in lines:\n        if "ERROR" in line:\n            print(line)\n            break\n    time.sleep(1)')


def test_a_loop_that_never_ends_is_not_run() -> None:
    turn = make_turn(ASK)
    verdict = endless_loops.check(turn, block(ENDLESS))
    assert verdict is not None and verdict.ask is not None and verdict.note.startswith("Not run: `while True:` has no break")
    assert endless_loops.check(turn, block(ENDLESS)) is not None  # twice a turn
    assert endless_loops.check(turn, block(ENDLESS)) is None


@pytest.mark.parametrize("request_text, code", [
    (ASK, "n = 0\nwhile True:\n    n += 1\n    if n > 5:\n        break\nprint(n)"),
    (ASK, "import sys\nwhile 1:\n    sys.exit(0)"),
    (ASK, "def f():\n    while True:\n        return 1\nprint(f())"),
    (ASK, "while x < 3:\n    x += 1"),
    ("watch app.log and print each new ERROR line as it comes", ENDLESS),  # asked to keep watching
])
def test_left_alone(request_text: str, code: str) -> None:
    assert endless_loops.check(make_turn(request_text), block(code)) is None


def test_in_the_loop_the_model_is_asked_for_code_again_and_it_runs(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.log").write_text("10:01 ERROR a\n10:30 ERROR b\n11:00 INFO c\n")
    once = "print(sum(1 for line in open('app.log') if 'ERROR' in line))"
    interp, model = scripted_interpreter([f"```python\n{ENDLESS}\n```", f"```python\n{once}\n```", "2 ERROR lines."])
    interp.template = "small"
    interp.auto_run = True
    try:
        out = interp.chat("how many ERROR lines are in app.log?", display=False)
    finally:
        interp.close()
    consoles = [str(m["content"]) for m in out if m["type"] == "console"]
    assert consoles[0].startswith("Not run: `while True:` has no break") and consoles[-1].strip() == "2"
