from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import error_notes

from .handmade import failed, make_turn, ran, reply


def test_a_failed_python_run_gets_the_note_for_its_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    turn = make_turn("What is the square root of 2?")
    note = error_notes.on_failure(turn, "python", "print(math.sqrt(2))",
                                  "NameError: name 'math' is not defined\n(exit code 1)")
    assert note and "import math" in note
    assert error_notes.on_failure(turn, "shell", "ls nope", "ls: cannot access 'nope'\n(exit code 2)") is None


def test_corrected_code_in_a_note_is_offered_once() -> None:
    block = "```python\nimport math\nprint(math.sqrt(2))\n```"
    note = f"Add `import math`:\n{block}"
    turn = make_turn("What is the square root of 2?", reply("The error means math is missing."),
                     runs=(failed("print(math.sqrt(2))", "NameError: name 'math' is not defined", note),))
    ask = error_notes.follow_up(turn)
    assert ask is not None and ask.text == error_notes.OFFER_NOTE.format(lang="python", block=block)
    assert error_notes.follow_up(turn) is None  # the same block is offered once a turn
    assert ask.sampling["reply_prefix"] == block + "\n"  # the reply starts with the block
    large = make_turn("What is the square root of 2?", reply("The error means math is missing."), template="large",
                      runs=(failed("print(math.sqrt(2))", "NameError: name 'math' is not defined", note),))
    ask = error_notes.follow_up(large)
    assert ask is not None and "reply_prefix" not in ask.sampling  # the large set: the model is asked


def test_nothing_is_offered_after_a_clean_run() -> None:
    turn = make_turn("What is 2+2?", runs=(ran("print(2+2)", "4\n"),))
    assert error_notes.follow_up(turn) is None


SCRIPT = 'import csv\nwith open("bills.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\ntotal = 0\nfor r in rows:\n' \
         '    total += r["amount"]\nprint(round(total, 2))\n'


def test_a_script_the_request_asks_to_fix_gets_its_correction_ready_to_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    (tmp_path / "split.py").write_text(SCRIPT)
    (tmp_path / "bills.csv").write_text("bill,amount\nrent,100.5\ngas,20\n")
    crash = subprocess.run([sys.executable, "split.py"], capture_output=True, text=True)
    output = crash.stderr + "\n(exit code 1)"
    turn = make_turn("split.py crashes with some error about str, can you fix it?")
    note = error_notes.on_failure(turn, "shell", "python3 split.py", output)
    assert note is not None and "saves split.py" in note
    block = note[note.index("```python\n") + 10:note.rindex("\n```")]
    done = subprocess.run([sys.executable, "-c", block.replace('"python3"', repr(sys.executable))],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "120.5" and 'float(r["amount"])' in (tmp_path / "split.py").read_text()
    # asked only to run it, the script is the person's: no correction is offered to save
    plain = error_notes.on_failure(make_turn("run split.py"), "shell", "python3 split.py", output)
    assert plain is None or "saves" not in plain


def test_a_script_run_from_python_code_is_corrected_at_its_own_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    (tmp_path / "split.py").write_text(SCRIPT)
    (tmp_path / "bills.csv").write_text("bill,amount\nrent,100.5\ngas,20\n")
    cell = 'import subprocess\nsubprocess.run(["python3", "split.py"], check=True)'
    crash = subprocess.run([sys.executable, "split.py"], capture_output=True, text=True)
    # the cell's own traceback follows the script's (its subprocess.run line)
    output = (crash.stderr + 'Traceback (most recent call last):\n  File "<cell-1>", line 2, in <module>\n'
              "subprocess.CalledProcessError: Command '['python3', 'split.py']' returned non-zero exit status 1.\n(exit code 1)")
    note = error_notes.on_failure(make_turn("split.py crashes with some error about str, can you fix it?"), "python", cell, output)
    assert note is not None and "saves split.py" in note and 'float(r["amount"])' in note
