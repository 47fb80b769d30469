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
    assert verdict is not None and verdict.again and verdict.note.startswith("Not run: `while True:` has no break")
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
