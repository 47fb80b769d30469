from __future__ import annotations

import pytest

from oi_local.core.rules import unasked_waits

from .handmade import block, make_turn

ASK = "When did the server first run out of disk space?"
HUNDRED = "import time\nstart = time.time()\nfor _ in range(100):\n    time.sleep(1)\nprint(time.time() - start)"
WHILE = ("import time\n\ndef last():\n    start = time.time()\n    while True:\n        if time.time() - start > 1800:\n"
         "            break\n        print('usage')\n        time.sleep(1)\n\nlast()")


def test_a_hundred_seconds_of_sleep_is_not_run() -> None:
    turn = make_turn(ASK)
    verdict = unasked_waits.check(turn, block(HUNDRED))
    assert verdict is not None and verdict.ask is not None
    assert verdict.note.startswith("Not run: this code waits about 100 seconds (`time.sleep(1)`)")
    assert unasked_waits.check(turn, block(WHILE)) is not None  # twice a turn
    assert unasked_waits.check(turn, block(HUNDRED)) is None


def test_a_sleep_in_a_while_loop_is_endless_even_inside_a_called_function() -> None:
    verdict = unasked_waits.check(make_turn(ASK), block(WHILE))
    assert verdict is not None and "waits without end" in verdict.note


@pytest.mark.parametrize("request_text", [
    "Here is the server log from that night:\n\nMay 15 03:41:27 disk full\n\nHow many minutes was the site down?",
    "which request in access.log was the slowest, and did it happen later than 3pm?",
    "in tickets.csv, how many retries did each ticket take in total?",
])
def test_questions_about_time_in_data_do_not_ask_for_a_wait(request_text: str) -> None:
    assert unasked_waits.check(make_turn(request_text), block(HUNDRED)) is not None


def test_a_shell_sleep() -> None:
    verdict = unasked_waits.check(make_turn("show the disk usage of my home folder"), block("sleep 2m; du -sh ~", "shell"))
    assert verdict is not None and "about 2 minutes (`sleep 2m`)" in verdict.note
    loop = "while true; do df -h /; sleep 1; done"
    assert "without end" in unasked_waits.check(make_turn("how full is the disk?"), block(loop, "shell")).note


@pytest.mark.parametrize("request_text, code", [
    (ASK, "import time\ntime.sleep(2)\nprint(open('a.log').read().count('No space'))"),  # a short pause runs
    (ASK, "import time\nfor i in range(3):\n    time.sleep(1)\nprint(i)"),  # three seconds in all
    (ASK, "def wait():\n    import time\n    time.sleep(60)\nprint('never called')"),  # never called
    (ASK, "print('sleep 100')"),  # the word in a string
    ("wait 10 seconds and then print the time", "import time\ntime.sleep(10)\nprint(time.time())"),
    ("print the disk usage every minute", "import time, shutil\nwhile True:\n    print(shutil.disk_usage('/'))\n    time.sleep(60)"),
    ("make a countdown from 10", "import time\nfor i in range(10, 0, -1):\n    print(i)\n    time.sleep(1)"),
    (ASK, "import time\nfor i in range(100):\n    time.sleep(1)"),  # javascript below: not looked at
])
def test_left_alone(request_text: str, code: str) -> None:
    lang = "javascript" if code.endswith("time.sleep(1)") and request_text == ASK else "python"
    assert unasked_waits.check(make_turn(request_text), block(code, lang)) is None


def test_in_the_loop_the_model_is_asked_for_code_again_and_it_runs(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.log").write_text("03:41:27 ERROR No space left on device\n03:41:40 ERROR No space left on device\n")
    once = "print(next(line for line in open('server.log') if 'No space' in line).split()[0])"
    interp, model = scripted_interpreter([f"```python\n{HUNDRED}\n```", f"```python\n{once}\n```",
                                          "It first ran out of space at 03:41:27."])
    interp.template = "small"
    interp.auto_run = True
    try:
        out = interp.chat("In server.log, when did the server first run out of disk space?", display=False)
    finally:
        interp.close()
    consoles = [str(m["content"]) for m in out if m["type"] == "console"]
    assert consoles[0].startswith("Not run: this code waits about 100 seconds") and consoles[-1].strip() == "03:41:27"
    assert out[-1]["content"] == "It first ran out of space at 03:41:27."
