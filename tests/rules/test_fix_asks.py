from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import fix_asks

from .handmade import block, failed, make_turn, ran, reply


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sum_to.py").write_text("def sum_to(n):\n    return sum(range(n))\nprint(sum_to(4))\n")
    return tmp_path


def test_an_unchanged_script_is_asked_about_at_most_three_times(folder: Path) -> None:
    fixed = "def sum_to(n):\n    return sum(range(n + 1))\nprint(sum_to(4))"
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("Fixed!"))
    fix_asks.start(turn)  # the script as it was when the turn began
    assert turn.state["fixing"] == {folder / "sum_to.py": (folder / "sum_to.py").read_text()}
    turn.runs.append(ran(fixed, "10\n"))
    turn.steps = 1
    asks = [fix_asks.follow_up(turn) for _ in range(4)]
    assert all(asks[:3]) and asks[3] is None
    assert "sum_to.py" in (asks[0].text or "") and "```python\n" in (asks[0].text or "")


def test_a_question_back_is_left_to_the_user(folder: Path) -> None:
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("Shall I save it?"))
    fix_asks.start(turn)
    turn.steps = 1
    assert fix_asks.follow_up(turn) is None
    turn.repeated = True  # code sent again: asked all the same
    assert fix_asks.follow_up(turn) is not None


def test_a_fixed_script_and_requests_that_may_destroy_are_left_alone(folder: Path) -> None:
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("Done."))
    fix_asks.start(turn)
    (folder / "sum_to.py").write_text("def sum_to(n):\n    return sum(range(n + 1))\nprint(sum_to(4))\n")
    turn.steps = 1
    assert fix_asks.follow_up(turn) is None
    careful = make_turn("Fix sum_to.py and delete the logs", reply("Done."))
    fix_asks.start(careful)
    assert careful.state["fixing"] == {}


RUN_IT = "import subprocess\nsubprocess.run(['python3', 'sum_to.py'])"
FIXED = "def sum_to(n):\n    return sum(range(n + 1))\nprint(sum_to(4))\n"


def test_a_ready_block_starts_the_reply_where_the_back_end_allows(folder: Path) -> None:
    fixed = FIXED.strip()
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("It prints 10 now."),
                     runs=(ran(fixed, "10\n"),), template="small")
    fix_asks.start(turn)
    ask = fix_asks.follow_up(turn)
    assert ask is not None and ask.sampling["reply_prefix"].startswith("```python\nfixed = ")
    assert ask.sampling["reply_prefix"].rstrip().endswith("```") and ask.sampling["reply_prefix"] in (ask.text or "") + "\n"
    # with no block to send back, only the fence (and a sampled reply)
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("Done."),
                     runs=(ran("print(1)", "1\n"),), template="small")
    fix_asks.start(turn)
    ask = fix_asks.follow_up(turn)
    assert ask is not None and ask.sampling["reply_prefix"] == "```python\n" and ask.sampling["temperature"] > 0


def test_a_rewrite_that_keeps_the_text_but_few_lines_is_offered_for_saving(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    old = 'numbers = [2, 4, 6, 8]\ntotal = 0\ncount = 0\nfor n in numbers:\n    total += n\nprint("Average:", total / count)\n'
    (tmp_path / "average.py").write_text(old)
    rewrite = 'numbers = [2, 4, 6, 8]\ntotal = sum(numbers)\ncount = len(numbers)\nprint("Average:", total / count)'
    turn = make_turn('average.py should print "Average: 5.0" but it crashes. Fix it.', reply("It is 5.0."),
                     runs=(ran(rewrite, "Average: 5.0\n"),))
    fix_asks.start(turn)
    ask = fix_asks.follow_up(turn)
    assert ask is not None and "Save the working code into average.py" in (ask.text or "") and rewrite in (ask.text or "")
    # code that has little of the script is not a version of it
    turn = make_turn('average.py should print "Average: 5.0" but it crashes. Fix it.', reply("It is 5.0."),
                     runs=(ran('print("Average:", 5.0)', "Average: 5.0\n"),))
    fix_asks.start(turn)
    ask = fix_asks.follow_up(turn)
    assert ask is not None and "Save the working code" not in (ask.text or "")


def test_a_script_fixed_and_run_cleanly_is_not_written_again(folder: Path) -> None:
    request = "sum_to.py prints 6 but it should print 10, fix it"
    again = block("with open('sum_to.py', 'w') as f:\n    f.write('print(10')\n")
    turn = make_turn(request)
    fix_asks.start(turn)
    (folder / "sum_to.py").write_text(FIXED)
    turn.runs.append(ran(RUN_IT, "10\n"))
    verdict = fix_asks.check(turn, again)
    assert verdict is not None and verdict.repeated
    assert fix_asks.check(turn, block("print(sum(range(5)))")) is None  # code that does not write it
    turn.runs.append(failed("fixed = \"\"\"x\nsubprocess.run(['python3', 'sum_to.py'])", "SyntaxError: unterminated"))
    assert fix_asks.check(turn, again) is not None  # a block that did not compile ran nothing
    # not yet run cleanly, or printing the wrong thing, or someone confirms: left alone
    for runs, approve in (([], None), ([ran(RUN_IT, "6\n")], None), ([ran(RUN_IT, "10\n")], lambda *a: True)):
        turn = make_turn(request, approve=approve)
        (folder / "sum_to.py").write_text("def sum_to(n):\n    return sum(range(n))\nprint(sum_to(4))\n")
        fix_asks.start(turn)
        (folder / "sum_to.py").write_text(FIXED if runs and runs[0].output == "10\n" else FIXED.replace("n + 1", "n + 0"))
        turn.runs.extend(runs)
        assert fix_asks.check(turn, again) is None


def test_a_turn_that_ends_with_the_script_not_fixed_says_so(folder: Path) -> None:
    (folder / "rect.py").write_text("width = 3\nheight = 4\nprint(width + height)\n")
    turn = make_turn("rect.py should print the area of a 3 by 4 rectangle, which is 12, but it prints 7. Fix it.",
                     reply("The output is 7."))
    fix_asks.start(turn)
    same = ('fixed = """width = 3\nheight = 4\nprint(width + height)\n"""\nwith open("rect.py", "w") as f:\n    f.write(fixed)\n'
            'import subprocess\nsubprocess.run(["python3", "rect.py"], check=True)')
    turn.runs.append(ran(same, "7\n"))
    said = fix_asks.finish(turn) or ""
    assert said.startswith("This is not done: rect.py") and "still" in said
    # fixed: nothing more to say
    (folder / "rect.py").write_text("width = 3\nheight = 4\nprint(width * height)\n")
    turn.runs.append(ran(same.replace("+", "*"), "12\n"))
    assert fix_asks.finish(turn) is None
    # a failed last run is the honest end's
    turn.runs.append(failed("x", "NameError: x"))
    assert fix_asks.finish(turn) is None
