from __future__ import annotations

from oi_local.core.rules import repeated_code

from .handmade import block, failed, make_turn, ran


def test_code_that_already_ran_this_turn_is_not_run_again() -> None:
    turn = make_turn("What is 2+2?", runs=(ran("print(2 + 2)", "4\n"),))
    verdict = repeated_code.check(turn, block("print(2 + 2)\n"))
    assert verdict is not None and verdict.repeated
    assert repeated_code.check(turn, block("print(2 + 3)")) is None
    assert repeated_code.check(turn, block("print(2 + 2)", lang="javascript")) is None


def test_the_same_run_after_a_file_was_rewritten_runs_again() -> None:
    # The usual check of a fix: run the script, rewrite it, run it again.
    fix = 'with open("split_bill.py", "w") as f:\n    f.write("print(26.03)\\n")\n'
    turn = make_turn("Fix split_bill.py", runs=(failed("python3 split_bill.py", "ZeroDivisionError", lang="shell"),
                                                 ran(fix, "")))
    assert repeated_code.check(turn, block("python3 split_bill.py", lang="shell")) is None
    # ...but not once more with nothing changed since.
    turn.runs.append(ran("python3 split_bill.py", "26.03\n", lang="shell"))
    verdict = repeated_code.check(turn, block("python3 split_bill.py", lang="shell"))
    assert verdict is not None and verdict.repeated
    # Code that only reads in between is no reason to run it again.
    turn = make_turn("Fix split_bill.py", runs=(failed("python3 split_bill.py", "boom", lang="shell"),
                                                 ran("print(open('split_bill.py').read())", "x")))
    assert repeated_code.check(turn, block("python3 split_bill.py", lang="shell")) is not None


def test_the_last_output_sent_back_as_code_is_not_run() -> None:
    search = "from pathlib import Path\nfor p in Path('project').rglob('*'):\n    print(p.name)"
    turn = make_turn("Find every file under project/ with a TODO", runs=(ran(search, "routes.py\napp.py\nsetup.md\n"),))
    verdict = repeated_code.check(turn, block("routes.py\napp.py\nsetup.md"))
    assert verdict is not None and verdict.repeated
    assert repeated_code.check(turn, block("print('routes.py')")) is None  # code
    after_failure = make_turn("x", runs=(failed("print(1/0)", "ZeroDivisionError"),))
    assert repeated_code.check(after_failure, block("ZeroDivisionError")) is None


def test_code_a_rule_mended_before_it_ran_is_the_same_code_when_sent_again() -> None:
    # A rule mends the model's block the same way each time (a helper saw glob("*.csv") pointed at the folder
    # named, the run failing, ten times over): the model's own block sent again repeats that run.
    turn = make_turn("x", runs=(ran("print(2 + 2)", "4\n", written="print(2+2)"),))
    verdict = repeated_code.check(turn, block("print(2+2)"))
    assert verdict is not None and verdict.repeated
    assert repeated_code.check(turn, block("print(2+3)")) is None


def test_in_the_loop_a_mended_block_sent_again_is_not_run_again() -> None:
    from scripted import scripted_interpreter

    # fstrings mends the quote inside the braces before it runs; the same block again is the same run
    code = "```python\nname = 'a-b'\nprint(f\"{name.split(\"-\")[0]}\")\n```"
    interp, model = scripted_interpreter([code, code, code, "It prints a."])
    interp.template = "small"
    try:
        new = interp.chat("what is the first part of a-b?", display=False)
    finally:
        interp.close()
    runs = [m for m in new if m["role"] == "computer" and m["type"] == "console"]
    assert len(runs) == 1 and runs[0]["content"].strip() == "a"


def test_a_block_that_prints_the_loops_note_back_is_asked_afresh() -> None:
    note = "Not run: the same code already answered the earlier request; asked for code for this one."
    turn = make_turn("and which of those was the longest? how many pages?")
    turn.notes.append(note)
    verdict = repeated_code.check(turn, block(f'print("{note}")'))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == repeated_code.NOTE_BACK
    assert repeated_code.check(turn, block(f'print("{note}")')) is None  # once a turn
    other = make_turn("which was the longest?")
    other.notes.append(note)
    assert repeated_code.check(other, block('print("Middlemarch, 880 pages")')) is None  # its own answer
