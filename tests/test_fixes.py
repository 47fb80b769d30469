"""A request to fix a script ends with the script fixed on disk, not only in the session."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.fixes import expected, follow_up, targets

BROKEN = "total = 0\nfor n in range(1, 100):\n    total += n\nprint(total)\n"
FIXED = BROKEN.replace("range(1, 100)", "range(1, 101)")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "sum_to.py").write_text(BROKEN)
    (tmp_path / "stats.py").write_text('values = [3, 4, 5, 6]\nprint("Mean:", statistics.mean(values))\n')
    (tmp_path / "notes.txt").write_text("fix the roof\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(path: Path) -> str:
    return subprocess.run([sys.executable, path.name], cwd=path.parent, capture_output=True, text=True).stdout


@pytest.mark.parametrize("request_text, names", [
    ("sum_to.py prints a wrong number. Fix the script.", ["sum_to.py"]),
    ("stats.py crashes, can you repair it?", ["stats.py"]),
    ("stats.py doesn't work", ["stats.py"]),
    ("How many lines does sum_to.py have?", []),        # not a fixing request
    ("Fix the typo in notes.txt", []),                   # not a script
    ("Fix missing.py", []),                              # no such file
])
def test_which_requests_name_scripts_to_fix(folder: Path, request_text: str, names: list[str]) -> None:
    found = targets(request_text)
    assert [p.name for p in found] == names
    for p, text in found.items():
        assert text == p.read_text()


def test_code_that_worked_in_the_session_but_was_never_saved_is_offered_for_saving(folder: Path) -> None:
    interp, model = scripted_interpreter([
        f"```python\n{FIXED}```",               # the right code, run in the session only
        "The correct output is 5050.",
        "I fixed sum_to.py; it prints 5050.",   # the save block offered was prefilled whole: no model call
    ])
    interp.template = "small"
    try:
        out = interp.chat("sum_to.py should print 5050 but it prints a wrong number. Fix the script.", display=False)
        saved = [m["content"] for m in out if m["type"] == "code"][-1]
        assert 'open("sum_to.py", "w")' in saved and "range(1, 101)" in saved
        assert (folder / "sum_to.py").read_text() == FIXED
        assert _run(folder / "sum_to.py").strip() == "5050"
        assert out[-1]["content"] == "I fixed sum_to.py; it prints 5050."
        assert model.calls == 3
        assert not any("still has the old code" in str(m.get("content")) for m in interp.messages)
    finally:
        interp.close()


def test_a_script_written_back_with_its_fault_gets_the_corrected_version(folder: Path) -> None:
    copy_back = ('```python\nopen("stats.py", "w").write(\'values = [3, 4, 5, 6]\\n'
                 'print("Mean:", statistics.mean(values))\\n\')\nprint("saved")\n```')
    interp, model = scripted_interpreter([copy_back, "Saved.", "stats.py prints Mean: 4.5 now."])
    interp.template = "small"
    try:
        out = interp.chat("stats.py should print Mean: 4.5 but it crashes. Fix it.", display=False)
        saved = [m["content"] for m in out if m["type"] == "code"][-1]
        assert "import statistics" in saved and model.calls == 3  # the corrected version, run without a call
        assert _run(folder / "stats.py").strip() == "Mean: 4.5"
    finally:
        interp.close()


def test_a_fixed_script_is_not_asked_about_again(folder: Path) -> None:
    save = f'```python\nopen("sum_to.py", "w").write({FIXED!r})\nprint("saved")\n```'
    interp, model = scripted_interpreter([save, "Fixed: it prints 5050."])
    interp.template = "small"
    try:
        interp.chat("sum_to.py prints a wrong number. Fix it.", display=False)
        assert model.calls == 2
    finally:
        interp.close()


def test_no_asking_when_the_model_asks_back_or_the_check_is_off(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{FIXED}```", "Shall I save this into sum_to.py?"])
    interp.template = "small"
    try:
        interp.chat("sum_to.py prints a wrong number. Fix it.", display=False)
        assert model.calls == 2
        interp.messages = []
        interp.check_fixes = False
        model.replies = [f"```python\n{FIXED}```", "It prints 5050."]
        model.prompts.clear()
        interp.chat("sum_to.py prints a wrong number. Fix it.", display=False)
        assert model.calls == 2 and (folder / "sum_to.py").read_text() == BROKEN
    finally:
        interp.close()


def test_asked_at_most_three_times_a_turn(folder: Path) -> None:
    calls = iter(range(100))

    def stubborn(messages: list[dict]) -> str:  # new code each time (repeated code ends a turn anyway), never saved
        n = next(calls)
        return f"```python\nprint(sum(range({n})))\n```" if n % 2 == 0 else "It prints 5050."

    interp, model = scripted_interpreter([stubborn])
    interp.template = "small"
    try:
        interp.chat("sum_to.py prints a wrong number. Fix it.", display=False)
        nudges = [p for p in model.prompts if "still has the old code" in str(p[-1]["content"])]
        assert len(nudges) == 3 and model.calls == 8
        assert (folder / "sum_to.py").read_text() == BROKEN  # nothing saved that the model did not write
    finally:
        interp.close()


def test_follow_up_leaves_scripts_changed_and_clean_alone(folder: Path) -> None:
    before = targets("Fix sum_to.py")
    (folder / "sum_to.py").write_text(FIXED)
    assert follow_up(before, []) is None
    (folder / "sum_to.py").write_text(BROKEN)
    assert "Find the mistake" in (follow_up(before, ["print(1)"]) or "")  # unrelated code is not offered


@pytest.mark.parametrize("request_text, want", [
    ("rect.py should print the area of a 3 by 4 rectangle, which is 12, but it prints 7. Fix it.", ["12"]),
    ('grade.py should say pass from 60 up, so it should print "75 pass", "42 fail" and "60 pass". Fix it.',
     ["75 pass", "42 fail", "60 pass"]),
    ('guests.py should add Zoe to the list and print "Ann, Bob, Zoe", but it crashes. Fix it.', ["Ann, Bob, Zoe"]),
    ("vat.py is supposed to print 121.0 (100 plus 21% VAT), but it prints None.", ["121.0"]),
    ('read_config.py should print the theme from config.ini ("theme = dark") but it fails.', []),  # an aside
    ("count.py fails with an error. Fix it so it prints each word in upper case.", []),   # no value named
    ("sum_to.py prints 4950. Fix it.", []),                                             # only what is wrong
])
def test_what_the_request_says_the_script_should_print(request_text: str, want: list[str]) -> None:
    assert expected(request_text) == want


def test_a_saved_script_that_still_prints_the_wrong_value_is_asked_about(folder: Path) -> None:
    wrong = BROKEN.replace("range(1, 100)", "range(0, 100)")
    save = lambda text: ('```python\nopen("sum_to.py", "w").write(' + repr(text) + ')\n'
                         'import subprocess\nsubprocess.run(["python3", "sum_to.py"])\n```')
    interp, model = scripted_interpreter([save(wrong), "Fixed.", save(FIXED), "Fixed: it prints 5050."])
    interp.template = "small"
    try:
        out = interp.chat("sum_to.py should print 5050, but it prints 4950. Fix it.", display=False)
        asked = str(model.prompts[2][-1]["content"])
        assert "It printed:\n4950" in asked and 'should print "5050"' in asked and "range(0, 100)" in asked
        assert model.calls == 4 and out[-1]["content"] == "Fixed: it prints 5050."
        assert _run(folder / "sum_to.py").strip() == "5050"
    finally:
        interp.close()


def test_the_right_output_or_no_run_of_the_script_is_not_asked_about(folder: Path) -> None:
    before = targets("Fix sum_to.py, it should print 5050")
    (folder / "sum_to.py").write_text(FIXED)
    ran = 'import subprocess\nsubprocess.run(["python3", "sum_to.py"])'
    assert follow_up(before, [], want=["5050"], runs=[(ran, "5050\n")]) is None
    assert follow_up(before, [], want=["5050"], runs=[("print(1)", "1\n")]) is None  # we never run it ourselves
    assert "It printed:\n4950" in (follow_up(before, [], want=["5050"], runs=[(ran, "4950\n")]) or "")


def test_code_that_printed_the_wrong_value_is_not_offered_for_saving(folder: Path) -> None:
    before = targets("Fix sum_to.py, it should print 5050")
    # the script's own code run in the session counts as a run of it: told what it printed
    assert "It printed:\n4950" in (follow_up(before, [BROKEN], want=["5050"], runs=[(BROKEN, "4950\n")]) or "")
    assert "Save the working code" not in (follow_up(before, [BROKEN], want=["5050"], runs=[(BROKEN, "4950\n")]) or "")
    offered = follow_up(before, [FIXED], want=["5050"], runs=[(FIXED, "5050\n")]) or ""
    assert "Save the working code" in offered and "range(1, 101)" in offered
    # unchanged, and its run printed the wrong value: told what it printed
    ran = 'import subprocess\nsubprocess.run(["python3", "sum_to.py"])'
    assert "It printed:\n4950" in (follow_up(before, [], want=["5050"], runs=[(ran, "4950\n")]) or "")


def test_the_same_wrong_fix_sent_again_is_asked_about_again_sampled(folder: Path) -> None:
    wrong = BROKEN.replace("range(1, 100)", "range(0, 100)")
    save = lambda text: ('```python\nopen("sum_to.py", "w").write(' + repr(text) + ')\n'
                         'import subprocess\nsubprocess.run(["python3", "sum_to.py"])\n```')
    seen: list[dict] = []
    tries = iter([wrong, FIXED])

    def model_fn(messages: list[dict]) -> str:
        return save(next(tries))

    interp, model = scripted_interpreter([save(wrong), "Fixed.", model_fn, model_fn, "It prints 5050."])
    interp.template = "small"
    real = interp.llm.stream_text

    def spy(*args, **kwargs):
        seen.append(kwargs)
        return real(*args, **kwargs)

    interp.llm.stream_text = spy
    try:
        interp.chat("sum_to.py should print 5050, but it prints 4950. Fix it.", display=False)
        asks = [kw for kw in seen if kw.get("temperature")]
        assert len(asks) == 2 and [kw["seed"] for kw in asks] == [1, 2]  # sampled, a new seed each time
        assert _run(folder / "sum_to.py").strip() == "5050"
    finally:
        interp.close()


def test_the_old_code_written_back_with_other_blank_lines_or_comments_is_not_a_fix(folder: Path) -> None:
    before = {folder / "sum_to.py": BROKEN}
    (folder / "sum_to.py").write_text("# adds up to 100\n\n" + BROKEN.replace("\n", "\n\n"))
    note = follow_up(before, [], folder)
    assert note is not None and "sum_to.py still has the old code" in note
    (folder / "sum_to.py").write_text(FIXED)
    assert follow_up(before, [], folder) is None
