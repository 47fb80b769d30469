"""Output fix: told what a script should print, the model is given code that finds the one change that does it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import output_fix

GRADE = ('def grade(score):\n    # 60 and above pass\n    if score < 60:\n        return "pass"\n    return "fail"\n\n\n'
         'for s in (75, 42, 60):\n    print(s, grade(s))\n')
ASK = ('grade.py should say pass for scores of 60 and above and fail below 60, so it should print "75 pass", "42 fail" '
       'and "60 pass", one per line. Right now it gets them the wrong way round. Please fix it.')
# the 0.5B model's try (ho4): its own copy of the function, still backwards
WRONG = 'def grade(score):\n    if score < 60:\n        return "pass"\n    return "fail"\nprint(75, grade(75))'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grade.py").write_text(GRADE)
    (tmp_path / "rect.py").write_text("width = 3\nheight = 4\nprint(width + height)\n")
    return tmp_path


def test_the_one_change_is_found_written_and_run(folder: Path) -> None:
    again = WRONG.replace("75", "42")  # told what it printed, the model tries its copy again
    interp, model = scripted_interpreter([f"```python\n{WRONG}\n```", f"```python\n{again}\n```",
                                          "Fixed: the comparison was backwards."])
    interp.template = "small"
    try:
        out = interp.chat(ASK, display=False)
    finally:
        interp.close()
    run = subprocess.run([sys.executable, "grade.py"], capture_output=True, text=True, cwd=folder)
    assert run.stdout == "75 pass\n42 fail\n60 pass\n"
    assert "# 60 and above pass" in (folder / "grade.py").read_text()  # the rest as it was
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert "fixed line 3 of grade.py: < -> >=" in consoles[-1]


def test_what_it_should_print_and_an_honest_miss(folder: Path) -> None:
    rect = "rect.py should print the area of a 3 by 4 rectangle, which is 12, but it prints 7. Fix it."
    assert output_fix.asked(rect, folder) == ("rect.py", ["12"])
    assert output_fix.asked(ASK, folder) == ("grade.py", ["75 pass", "42 fail", "60 pass"])
    code = output_fix.ready_code("rect.py", ["12"])
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder)
    assert "fixed line 3 of rect.py: + -> *" in run.stdout and (folder / "rect.py").read_text().endswith("print(width * height)\n")
    far = output_fix.ready_code("rect.py", ["99"])
    run = subprocess.run([sys.executable, "-c", far], capture_output=True, text=True, cwd=folder)
    assert "no one change to rect.py makes it print ['99']; it is not fixed" in run.stdout
    assert (folder / "rect.py").read_text().endswith("print(width * height)\n")  # left as it was
    # no script there, no output said, or a crash to fix: not ours
    assert output_fix.asked("area.py should print 12", folder) is None
    assert output_fix.asked("rect.py crashes, can you fix it?", folder) is None


def test_a_crash_is_left_to_the_error_notes(folder: Path) -> None:
    from oi_local.core.rules.turn import Run

    from .handmade import make_turn, ran

    crash = Run("python", "print(data['Name'])", "KeyError: 'Name'\n(exit code 1)", 1)
    turn = make_turn("grade.py should print \"75 pass\" but it crashes. Fix it.", runs=(crash, crash))
    assert output_fix.after_run(turn) is None
    wrong = ran("import subprocess", "75 fail\n")
    assert output_fix.after_run(make_turn("grade.py should print \"75 pass\". Fix it.", runs=(wrong, wrong))) is not None
