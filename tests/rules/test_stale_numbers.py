"""Stale numbers: a later request's code that types in an old copy of a named file's numbers is asked afresh."""
from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import stale_numbers

START = "Start a file runs.txt to log my runs, one per line. This week I ran 32, 41, 28, 55 and 37 minutes."
WRITE = "```python\nwith open('runs.txt', 'w') as f:\n    for m in [32, 41, 28, 55, 37]:\n        f.write(f'{m}\\n')\nprint('ok')\n```"
ADD = "I ran another 46 minutes today, add it to the log. How many minutes have I run in total now?"
APPEND = "```python\nwith open('runs.txt', 'a') as f:\n    f.write('46\\n')\nprint('added')\n```"
# the 0.5B model's total (ho5-multi-running-log): the first turn's numbers typed in again
OLD_SUM = "```python\nprint(sum([32, 41, 28, 55, 37]))\n```"
READ_SUM = "```python\nprint(sum(int(x) for x in open('runs.txt').read().split()))\n```"


def test_a_later_total_of_the_first_turns_numbers_is_asked_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    interp, model = scripted_interpreter([WRITE, "Started runs.txt.", APPEND, OLD_SUM, READ_SUM, "239 minutes in total."])
    interp.template = "small"
    try:
        interp.chat(START, display=False)
        new = interp.chat(ADD, display=False)
    finally:
        interp.close()
    outputs = [str(m["content"]) for m in new if m["role"] == "computer" and m["type"] == "console"]
    assert not any(o.strip() == "193" for o in outputs)  # the stale total never ran
    assert any("Not run: the code types in 5 numbers from earlier in the chat, and runs.txt now holds 6" in o for o in outputs)
    assert outputs[-1].strip() == "239"
    assert (tmp_path / "runs.txt").read_text() == "32\n41\n28\n55\n37\n46\n"


def test_what_is_a_typed_in_copy() -> None:
    assert stale_numbers.typed_lists("print(sum([32, 41, 28]))") == [[32.0, 41.0, 28.0]]
    assert stale_numbers.typed_lists("for i in [1, 2, 3]:\n    print(i)") == []  # positions, not data
    assert stale_numbers.typed_lists("x = [3, 'a', 4]\ny = (1, 5)") == []  # not all numbers; too few


def test_a_follow_up_worked_from_typed_numbers_reads_the_kept_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs.txt").write_text("32\n41\n28\n55\n37\n46\n")
    typed = "```python\ntotal = 239\naverage = total / 1\nprint(average)\n```"  # the 0.5B model's third turn (ho5)
    reads = "```python\nruns = [int(x) for x in open('runs.txt').read().split()]\nprint(round(sum(runs) / len(runs), 1))\n```"
    show = "```python\nprint(open('runs.txt').read())\n```"
    interp, model = scripted_interpreter([show, "Six runs: 32, 41, 28, 55, 37 and 46 minutes.", typed, reads, "39.8 minutes."])
    interp.template = "small"
    try:
        interp.chat("What's in runs.txt?", display=False)
        new = interp.chat("And how long was my average run, in minutes, rounded to one decimal?", display=False)
    finally:
        interp.close()
    outputs = [str(m["content"]).strip() for m in new if m["role"] == "computer" and m["type"] == "console"]
    assert outputs[0].startswith("Not run: the code works only from numbers typed in, and runs.txt holds the data")
    assert outputs[-1] == "39.8"
    assert stale_numbers.typed_only("total = 239\nprint(total / 1)")
    assert not stale_numbers.typed_only("print(df['minutes'].mean())")  # the session's data: left alone
    assert not stale_numbers.typed_only("print(sum(int(x) for x in open('runs.txt')))")
