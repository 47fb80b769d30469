from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import question_writes

from .handmade import block, make_turn

OVERWRITE = block("with open('access.log', 'w') as f:\n    f.write('x')")


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "access.log").write_text("1.2.3.4 GET /\n")
    return tmp_path


def test_code_for_a_question_that_changes_a_file_is_not_auto_run_and_twice_ends_the_turn() -> None:
    turn = make_turn("How many IPs are in access.log?")
    first = question_writes.check(turn, OVERWRITE)
    assert first is not None and first.again and not first.stop and "access.log" in first.note
    assert first.shown.startswith("Not run: ")
    # asked afresh: the refused try hidden, sampled, the reason named
    assert first.ask is not None and first.ask.hide and first.ask.sampling["temperature"] > 0
    assert "access.log" in first.ask.text and "only asks a question" in first.ask.text
    second = question_writes.check(turn, OVERWRITE)
    assert second is not None and second.stop and second.ask is None


def test_asked_afresh_the_loop_runs_the_new_code_for_the_question(folder: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    interp, model = scripted_interpreter([
        "```python\nopen('access.log', 'w').write('')\nprint('cleared')\n```",
        "```python\nprint(len(open('access.log').readlines()))\n```",
        "access.log has 1 line."], recipes=2)
    try:
        interp.chat("How many lines are in access.log?", display=False)
        assert (folder / "access.log").read_text() == "1.2.3.4 GET /\n"
        assert "only asks a question" in str(model.prompts[1][-1]["content"])
        assert "cleared" not in str(model.prompts[1])  # the refused try is not shown again
        picked = interp.shown_examples()[len(interp.examples or []):]
        assert picked and len(model.prompts[1]) == len(model.prompts[0]) - len(picked)  # nor the examples picked
        assert interp.messages[-1]["content"] == "access.log has 1 line."
    finally:
        interp.close()


def test_a_person_confirming_is_warned_and_tasks_may_write() -> None:
    warned = question_writes.check(make_turn("How many IPs are in access.log?", approve=lambda m: "run"), OVERWRITE)
    assert warned is not None and warned.warning.startswith("Careful: ") and not (warned.stop or warned.again or warned.note)
    assert question_writes.check(make_turn("Clear access.log"), OVERWRITE) is None
    assert question_writes.check(make_turn("How many IPs are in access.log?"), block("print(open('access.log').read())")) is None


def test_a_refused_question_ends_honestly_when_the_model_repeats_the_refusal(folder: Path) -> None:
    from tests.scripted import scripted_interpreter

    (folder / "notes.txt").write_text("a\nb\nc\n")
    overwrite = "```python\nwith open('notes.txt', 'w') as f:\n    f.write('3')\nprint(3)\n```"
    parrot = "Not run: this code changes notes.txt, but the request only asks a question."
    interp, model = scripted_interpreter([overwrite, parrot, parrot, overwrite, parrot])
    interp.chat("How many lines are in notes.txt?", display=False)
    said = [m["content"] for m in interp.messages if m["role"] == "assistant" and m["type"] == "message"]
    assert (folder / "notes.txt").read_text() == "a\nb\nc\n"
    assert parrot not in said, said
    assert said[-1].startswith("This is not done: the code was not run (this code changes notes.txt"), said


def test_code_for_a_question_that_deletes_or_moves_files_anywhere_is_refused(folder: Path) -> None:
    (folder / "backup").mkdir()
    loop = block('import os\nfor f in os.listdir("backup"):\n    if f.endswith(".HEIC"):\n'
                 '        os.remove(os.path.join("backup", f))\nprint("done")')
    request = "Which photos in camera/ are not on the laptop yet?"
    for code in (loop, block("for p in Path('backup').iterdir():\n    p.rename(p.with_suffix('.bak'))"),
                 block("import shutil\nshutil.move(src, dst)"), block("rm backup/*.HEIC", "shell"),
                 block("for f in backup/*; do mv \"$f\" old/; done", "shell")):
        verdict = question_writes.check(make_turn(request), code)
        assert verdict is not None and verdict.again and "deletes, moves or renames" in verdict.note, code.code
    for code in (block("import os\nprint(sorted(set(os.listdir('camera')) - set(os.listdir('backup'))))"),
                 block("names = ['a', 'b']\nnames.remove('a')\nprint('x'.replace('x', 'y'))"),
                 block("df = df.rename({'a': 'b'}, axis=1)\nprint(df)"), block("comm -23 a.txt b.txt", "shell")):
        assert question_writes.check(make_turn(request), code) is None, code.code
    assert question_writes.check(make_turn("Move the .HEIC photos into backup"), loop) is None  # a task may


def test_a_question_that_says_what_not_to_do_is_still_a_question() -> None:
    from oi_local.core.writes import question

    assert question("which files are old? don't delete anything yet")
    assert question("How many rows are there? Do not change the file.")
    assert not question("how many rows are there? then delete the empty ones")
    assert not question("Add a line to notes.txt, don't remove the others")


def test_paths_and_the_noun_a_question_asks_about_are_not_verbs() -> None:
    from oi_local.core.writes import question

    assert question("how many files are in archive/site_2023.tar.gz? please dont unpack it")
    assert question("whats my net pay on the march payslip? HR sent them as payslips.zip")
    assert question("which crop gave us the most by weight? it's in harvest.csv")
    assert not question("which files are old? crop the photos in them")
    # A verb that describes ("everyone adds") or a noun ("downloads") asks for no change.
    assert question("How many lines are in to_read.txt? Everyone adds one line per book")
    assert question("How many files in the downloads folder are bigger than 10 KB?")
    assert not question("How many lines are in to_read.txt? Add one for Dune too")
    assert not question("how many lines are there? then added up, save the totals")
    assert not question("zip the logs folder into logs.zip, what size is it?")
    # marking an item of a list done is a change, asked politely or not
    assert not question("I phoned the dentist, can you mark that one as done in the file?")
    assert not question("could you tick the milk off the list?")
    assert question("what's the highest mark in grades.csv?")
    assert question("which tasks are marked as done in todo.csv?")
    assert question("can you check how many are done?")
    for ask in ("could you combine part1.txt and part2.txt into whole.txt?", "can you swap the two columns?",
                "would you alphabetise names.txt for me?", "could you anonymise the emails in list.csv?"):
        assert not question(ask), ask
    # what the person does is not what they ask for
    assert question("how many lines are there in garden/seed_notes.txt? i keep one seed packet per line")
    assert question("which files did we change last week?")
    assert question("which files in the garden_planner repo have i changed or added since my last commit?")
    assert not question("can i add a line to notes.txt?")
    assert not question("how do I do it? I want to add a line to notes.txt")


def test_a_past_form_in_a_wh_question_tells_what_happened() -> None:
    from oi_local.core.writes import question

    # "joined" was read as a join: the honest end said no file in the working folder was changed
    assert question("in club_members.csv, how many people joined in 2024? and which town did most of them come from?")
    assert question("which files were deleted last week? it's in trash.log")
    assert not question("how many duplicates are there? can you remove them?")
    assert not question("join the csv files into one. how many rows?")
    # a verb after "did" in a wh- question asks what was done
    assert question("how many nights did the photo backup fail, and how many new files did it copy in total?")
    assert question("which files did the script rename?")
    assert not question("what did you change? please fix it")
    assert question("What do all the invoices in invoices.json add up to?")
    assert not question("add a line to notes.txt and tell me how many lines it has")
    # and an irregular past form
    assert question("in the garden-app git repo, who made the most commits in 2024, and how many?")
    assert question("which of the scripts were written by Ana?")
    assert not question("who made this mess? tidy the folder up")


def test_code_that_makes_a_file_the_turn_found_missing_is_not_run_for_a_question() -> None:
    from oi_local.core.rules.turn import Run

    Path("pets").mkdir()
    turn = make_turn("when is the next booster due? should be in pets/vet.csv")
    made = block('import os\nif not os.path.exists("pets/vet.csv"):\n    open("pets/vet.csv", "w").close()')
    # the question names it and it is not there: made, it would hide that (before any run found it missing)
    assert question_writes.check(make_turn("when is the next booster due? should be in pets/vet.csv"), made) is not None
    turn.runs.append(Run("python", 'open("pets/vet.csv")', "FileNotFoundError: [Errno 2] No such file or directory: "
                         "'pets/vet.csv'\n(exit code 1)", exit_code=1))
    verdict = question_writes.check(turn, made)
    assert verdict is not None and verdict.again and "pets/vet.csv" in verdict.note
    other = block('open("pets/summary.txt", "w").write("x")')  # a path not found missing: the old reading
    assert question_writes.check(make_turn("when is the next booster due? should be in pets/vet.csv"), other) is None
    not_a_question = make_turn("add up the fees in pets/vet.csv", runs=tuple(turn.runs))
    assert question_writes.check(not_a_question, made) is not None  # read, found missing: never made empty
    for asked in ("add up the fees in pets/vet.csv, and if it is not there create the file",
                  "save the fees as pets/vet.csv"):
        assert question_writes.check(make_turn(asked, runs=tuple(turn.runs)), made) is None, asked
    # a write into a folder that was not there failed: the file was never read, so making it is the fix
    wrote = Run("python", 'open("out/vet.csv", "w")', "FileNotFoundError: [Errno 2] No such file or directory: "
                "'out/vet.csv'\n(exit code 1)", exit_code=1)
    fixed = block('import os\nos.makedirs("out", exist_ok=True)\nopen("out/vet.csv", "w").write("x")')
    assert question_writes.check(make_turn("save the fees as a csv in out", runs=(wrote,)), fixed) is None


def test_code_that_makes_the_missing_file_a_question_names_is_not_run(folder: Path) -> None:
    (folder / "freelance").mkdir()
    request = "what did i invoice in total in 2024? it should all be in freelance/invoices_2024.csv"
    code = "total = 2024 * 7006652\nwith open('freelance/invoices_2024.csv', 'a') as f:\n    f.write(f'{total}\\n')"
    verdict = question_writes.check(make_turn(request), block(code))
    assert verdict is not None and verdict.again and "freelance/invoices_2024.csv" in verdict.note
    assert "is not there" in verdict.note
    # a file there, one the question does not name, or a request that asks for the file: left alone here
    (folder / "freelance" / "invoices_2025.csv").write_text("n,amount\n")
    for req, c in [(request, "with open('summary.txt', 'w') as f:\n    f.write('x')"),
                   ("save the 2024 total to freelance/invoices_2024.csv please",
                    "with open('freelance/invoices_2024.csv', 'w') as f:\n    f.write('x')"),
                   ("what is in freelance/out.csv? make it if it is not there",
                    "with open('freelance/out.csv', 'w') as f:\n    f.write('x')")]:
        assert question_writes.check(make_turn(req), block(c)) is None, req



def test_a_folder_made_under_the_name_of_a_missing_file_the_request_names_is_refused(folder: Path) -> None:
    code = 'import os\nif not os.path.exists("expenses_march.csv"):\n    os.makedirs("expenses_march.csv")\nprint(1)'
    turn = make_turn("Can you add up the amounts in expenses_march.csv for me?")
    verdict = question_writes.check(turn, block(code))
    assert verdict is not None and "expenses_march.csv" in (verdict.note or verdict.warning)
    assert question_writes.check(turn, block('from pathlib import Path\nPath("expenses_march.csv").mkdir()')) is not None
    assert question_writes.check(turn, block('import os\nos.makedirs("reports", exist_ok=True)')) is None


def test_a_question_about_a_paste_whose_lines_ask_for_changes_is_a_question(folder: Path) -> None:
    # ho57 (end run): a ticket export's "Request a larger mailbox quota" made the question a task, and the code wrote
    # over the saved paste
    rows = "\n".join(f"#{500 + i} | Block {i % 4} | Request a new badge, please replace the reader | assigned to Kai"
                     for i in range(80))
    request = f"Our ticket export:\n\n{rows}\n\nWho was ticket #512 assigned to?"
    (folder / "pasted-1234abcd.txt").write_text(rows)
    code = block("with open('pasted-1234abcd.txt', 'w') as f:\n    f.write('#512 | assigned to Kai')")
    verdict = question_writes.check(make_turn(request), code)
    assert verdict is not None and "pasted-1234abcd.txt" in verdict.note
