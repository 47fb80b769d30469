"""The small-model prompt set's helpers: workspace hints and the code-first rule.

Real files in a temporary folder, a scripted model through the public API, real code execution.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.hints import MAX_LINES, mentioned_paths, workspace_hints


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "photos").mkdir()
    for name in ("beach.jpeg", "dog.jpeg"):
        (tmp_path / "photos" / name).write_text("x")
    (tmp_path / "sales.csv").write_text("date,product,amount\n2024-01-02,widget,12.5\n")
    (tmp_path / "greet.py").write_text('pritn("hi")\n')
    (tmp_path / "big.txt").write_text("".join(f"line {i}\n" for i in range(500)))
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02" * 10)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_named_file_is_shown_in_full_when_short(folder: Path) -> None:
    hint = workspace_hints("greet.py crashes. Fix it.")
    # A script comes with what makes it fail, found by reading it (never by running it).
    assert hint == ('greet.py contains:\npritn("hi")\n\nProblems in greet.py:\nline 1: pritn is not defined (did you mean print?)'
                    '\n\nWith that corrected, greet.py would be:\nprint("hi")')
    (folder / "greet.py").write_text('print("hi")\n')
    assert workspace_hints("greet.py crashes. Fix it.") == 'greet.py contains:\nprint("hi")'


def test_data_files_are_described_not_shown(folder: Path) -> None:
    assert workspace_hints("What is the total of the amount column in sales.csv?") == \
        "sales.csv contains:\ndate,product,amount\n2024-01-02,widget,12.5"
    (folder / "users.json").write_text('[{"id": 7, "email": "a@b"}, {"id": 42, "email": "g@b"}]')
    (folder / "config.json").write_text('{"debug": true, "port": 80}')
    (folder / "broken.json").write_text('{"debug": tru')
    assert workspace_hints("email of user 42 in users.json") == \
        'The file users.json holds a JSON list of 2 objects with the keys id, email. The first one is:\n{"id": 7, "email": "a@b"}'
    assert workspace_hints("set debug off in config.json") == \
        'The file config.json holds a JSON object with the keys debug, port. It is:\n{"debug": true, "port": 80}'
    # Too long to show whole: the keys only.
    (folder / "big.json").write_text(json.dumps([{"id": i, "text": "x" * 500} for i in range(3)]))
    assert workspace_hints("how many records in big.json?") == \
        "The file big.json holds a JSON list of 3 objects with the keys id, text."
    # An object too long to show whole: the lists of records under its keys are described too.
    shelter = {"shelter": "Hilltop", "animals": [{"name": f"cat{i}", "fee": 50 + i, "notes": "y" * 40} for i in range(12)]}
    (folder / "shelter.json").write_text(json.dumps(shelter))
    assert workspace_hints("total fee in shelter.json?") == (
        'The file shelter.json holds a JSON object with the keys shelter, animals.\n'
        'Its "animals" is a list of 12 objects with the keys name, fee, notes. The first one is:\n'
        + json.dumps(shelter["animals"][0]))
    assert workspace_hints("fix broken.json") == 'broken.json contains:\n{"debug": tru'  # not JSON: shown as text


def test_a_csv_with_only_its_header_is_said_to_hold_no_rows(folder: Path) -> None:
    (folder / "night.csv").write_text("timestamp,temp_c\n")
    assert workspace_hints("What was the highest temperature in night.csv?") == \
        "(night.csv has a header line and no rows of data: timestamp,temp_c)"
    (folder / "night.csv").write_text("timestamp,temp_c\n01:00,4.5\n")
    assert workspace_hints("What was the highest temperature in night.csv?") == "night.csv contains:\ntimestamp,temp_c\n01:00,4.5"


def test_a_thing_to_look_up_that_the_named_file_never_mentions_is_said_in_the_preview(folder: Path) -> None:
    (folder / "cabin.txt").write_text("The spare key is under the blue flowerpot.\n")
    hint = workspace_hints("where is the spare key, and whats the wifi password? it's all in cabin.txt")
    assert hint.endswith("\n\n(cabin.txt never mentions wifi password; say so, and answer the rest from it.)"), hint
    hint = workspace_hints("whats the wifi password? it's all in cabin.txt")
    assert hint.endswith("\n\n(cabin.txt never mentions wifi password.)"), hint
    assert "never mentions" not in workspace_hints("where is the spare key? see cabin.txt")
    # "whose" asks about the names the file holds, not for a word in it (ho57: "members.txt never mentions whose name comes")
    (folder / "team.txt").write_text("Wendy\nAbe\n")
    assert "never mentions" not in workspace_hints("Sort team.txt and save the file. Then tell me whose name comes first now.")


def test_a_name_the_named_files_do_not_hold_is_said_to_be_nowhere_in_them(folder: Path) -> None:
    (folder / "goals.json").write_text('[{"match": 1, "scorers": ["Kojo", "Ama"]}]')
    hint = workspace_hints("how many goals did Kofi score? the scorers are in goals.json")
    assert hint.endswith("\n\n(Kofi appears nowhere in goals.json.)"), hint
    for held in ("how many goals did Kojo score? see goals.json",  # there
                 "Kofi's goals: how many are in goals.json?",  # the first word: maybe just a capital
                 'how many lines of goals.json say "Kofi"?',  # quoted: text to look for, maybe absent
                 "how many goals in goals.json were scored in March?",  # a month, not a name
                 "how many Amas are in goals.json?"):  # a plural of a name that is there
        assert "nowhere" not in workspace_hints(held), held
    assert "nowhere" not in workspace_hints("copy goals.json for Kofi into a backup folder")  # sizes only: not read


def test_a_long_file_shows_only_its_first_lines(folder: Path) -> None:
    hint = workspace_hints("How many lines does big.txt have?")
    assert hint.startswith("First lines of big.txt:\nline 0\n")
    assert len(hint.splitlines()) == MAX_LINES + 1
    assert "line 499" not in hint


def test_named_folders_list_their_entries(folder: Path) -> None:
    assert workspace_hints("Rename every .jpeg file in the photos folder to .jpg") == \
        "The folder photos/ contains: photos/beach.jpeg, photos/dog.jpeg"
    here = workspace_hints("Move the PDF files in this folder into pdfs")
    assert here.startswith("The current folder contains: big.txt, blob.bin, greet.py, photos/, sales.csv")


def test_nothing_outside_the_folder_and_nothing_binary(folder: Path) -> None:
    (folder.parent / "secret.txt").write_text("do not show")
    assert workspace_hints("print ../secret.txt and /etc/passwd and ~/.bashrc") == ""
    assert workspace_hints("What is 2 + 2?") == ""
    assert workspace_hints("what is in blob.bin") == "(blob.bin is a binary file of 30 bytes.)"
    assert mentioned_paths("a.csv b.csv greet.py sales.csv big.txt photos/", folder) == \
        [folder / "greet.py", folder / "sales.csv", folder / "big.txt"]  # at most 3, in order


def test_hints_reach_the_model_but_not_the_history(folder: Path) -> None:
    total = "```python\nimport csv\nprint(sum(float(r['amount']) for r in csv.DictReader(open('sales.csv'))))\n```"
    interp, model = scripted_interpreter([total, "The total is 12.5."])
    interp.template = "small"
    try:
        interp.chat("What is the total of the amount column in sales.csv?", display=False)
        first_prompt = model.prompts[0]
        request = first_prompt[-1]["content"]
        assert "sales.csv contains:\ndate,product,amount\n2024-01-02,widget,12.5" in request
        assert request.index("sales.csv contains") < request.index("(Write one")
        assert interp.messages[0]["content"] == "What is the total of the amount column in sales.csv?"
        # The second call of the same turn sees the same hint (stable prefix for the KV cache).
        assert model.prompts[1][len(first_prompt) - 1]["content"] == request
    finally:
        interp.close()


def test_a_follow_up_that_names_no_file_gets_the_previous_requests_files_as_they_are_now(folder: Path) -> None:
    # multi-csv-followup: "What is the total amount for the product widget?" after a question about
    # sales.csv; without its header the 0.5B model guessed a "price" column.
    interp, model = scripted_interpreter(["```python\nprint(1)\n```", "One row.",
                                          "```python\nprint(12.5)\n```", "12.5.", "Hello!"])
    interp.template = "small"
    try:
        interp.chat("How many rows does sales.csv have?", display=False)
        (folder / "sales.csv").write_text("date,product,amount\n2024-01-02,widget,12.5\n2024-01-03,gadget,3\n")
        interp.chat("What is the total amount for the product widget?", display=False)
        request = model.prompts[2][-1]["content"]
        assert request.startswith("What is the total amount for the product widget?\n\nsales.csv contains:\n")
        assert "2024-01-03,gadget,3" in request  # the file as it is now
        interp.chat("Say hello to the team in three words.", display=False)  # names nothing, nor did the request before
        assert "contains" not in model.prompts[4][-1]["content"]
    finally:
        interp.close()


def test_the_plain_prompt_set_has_no_hints(folder: Path) -> None:
    interp, model = scripted_interpreter(["The total is 12.5."])
    try:
        interp.chat("What is the total of the amount column in sales.csv?", display=False)
        assert "sales.csv contains" not in model.prompts[0][-1]["content"]
    finally:
        interp.close()


def _nudged(prompt: list[dict]) -> bool:
    return "Do not answer from memory" in prompt[-1]["content"]


def test_an_answer_from_memory_is_asked_once_for_code(folder: Path) -> None:
    interp, model = scripted_interpreter([
        "349808 * 38490739 is 129.",
        "```python\nprint(349808 * 38490739)\n```",
        "It is 13464368428112.",
    ])
    interp.template = "small"
    try:
        out = interp.chat("What is 349808 * 38490739?", display=False)
        assert _nudged(model.prompts[1]) and not _nudged(model.prompts[2])
        assert any(m["type"] == "console" and "13464368428112" in m["content"] for m in interp.messages)
        assert out[-1]["content"] == "It is 13464368428112."
        assert not any("Do not answer from memory" in str(m.get("content")) for m in interp.messages)
    finally:
        interp.close()


@pytest.mark.parametrize("request_text, reply", [
    ("Delete all the files in my home folder please", "I won't do that."),
    ("Free up some space on my disk", "Which files can I remove?"),
    ("hello there", "Hello! I can run code for you."),
    ("Can you help me with something today", "Sure, what do you need?"),
    ("Tell me a long, detailed story about a lighthouse keeper", "Once upon a time..."),
    ("Explain what a Python decorator does", "A decorator wraps a function."),
])
def test_refusals_questions_and_chat_are_left_alone(folder: Path, request_text: str, reply: str) -> None:
    interp, model = scripted_interpreter([reply, "```python\nprint('should not run')\n```"])
    interp.template = "small"
    try:
        interp.chat(request_text, display=False)
        assert model.calls == 1
        assert not any(m["type"] == "code" for m in interp.messages)
    finally:
        interp.close()


def test_the_rule_asks_only_once(folder: Path) -> None:
    interp, model = scripted_interpreter(["It is Monday.", "It is still Monday."])
    interp.template = "small"
    try:
        interp.chat("On what day of the week was 14 July 1789?", display=False)
        assert model.calls == 2
        assert [m["content"] for m in interp.messages if m["role"] == "assistant"] == ["It is Monday.", "It is still Monday."]
    finally:
        interp.close()


def test_a_failed_run_answered_in_prose_is_retried_afresh(folder: Path) -> None:
    interp, model = scripted_interpreter([
        "```python\nprint(len(str(factorial(100))))\n```",   # NameError
        "The factorial of 100 is 3628800.",                    # made up, no fix
        "```python\nimport math\nprint(len(str(math.factorial(100))))\n```",
        "100! has 158 digits.",
    ])
    interp.template = "small"
    interp.retry_at_once = False  # the model's reply comes before the retry (retry_at_once: tests/rules/test_fresh_retries.py)
    interp.second_opinions = 0  # (tests/rules/test_second_opinions.py)
    try:
        out = interp.chat("How many digits does 100 factorial have?", display=False)
        retry = model.prompts[2]
        # Afresh: the request (its reminder now naming the error) is the last thing the model sees.
        assert "factorial(100))))" not in "".join(str(m["content"]) for m in retry[-2:])
        assert retry[-1]["content"].startswith("How many digits does 100 factorial have?")
        assert "A first try failed with: NameError: name 'factorial' is not defined" in retry[-1]["content"]
        assert model.options[2]["temperature"] == 0.7 and model.options[2]["seed"] == 1
        assert model.options[0]["temperature"] == 0.0 and "seed" not in model.options[0]
        assert any(m["type"] == "console" and m["content"].strip() == "158" for m in interp.messages)
        assert out[-1]["content"] == "100! has 158 digits."
        # The rest of the turn builds on the retry alone: the failed attempt and the guess stay hidden,
        # and the ask stays where the retry saw it, so the next prompt is the retry's prompt and reply
        # plus the output (what llama.cpp has already read is not read again).
        after = "".join(str(m["content"]) for m in model.prompts[3][-3:])
        assert "math.factorial" in after and "3628800" not in after and "factorial(100))))" not in after.split("math")[0]
        assert model.prompts[3][:len(retry)] == retry
        assert model.prompts[3][len(retry)]["content"] == "```python\nimport math\nprint(len(str(math.factorial(100))))\n```"
        assert interp.hidden is None  # the next turn sees everything again
        # The history keeps everything that happened, and nothing the loop said to the model.
        assert [m["type"] for m in interp.messages if m["role"] == "assistant"] == ["code", "message", "code", "message"]
        assert not any("first try failed" in str(m.get("content")) for m in interp.messages)
    finally:
        interp.close()


def test_the_same_failing_code_again_is_retried_too_and_retries_are_capped(folder: Path) -> None:
    bad = "```python\nprint(1 / 0)\n```"
    interp, model = scripted_interpreter([bad, bad, "```python\nprint(2 / 0)\n```", "Sorry.", "```python\nprint(3 / 0)\n```", "It cannot be done."])
    interp.template = "small"
    interp.retry_at_once = False  # each failure is answered by the model first
    interp.max_failed_runs = 0  # the third failure would end the turn (tests/test_loop.py)
    try:
        interp.chat("Divide one by zero and print it for me", display=False)
        seeds = [o.get("seed") for o in model.options]
        assert seeds == [None, None, 1, None, 2, None]
        # The last reply does not name the error, so the honest-end rule adds it (issue 18).
        assert [m["content"] for m in interp.messages[-2:]] == [
            "It cannot be done.", "This is not done: the last run failed with ZeroDivisionError: division by zero."]
        runs = [m["content"] for m in interp.messages if m["type"] == "code"]
        assert runs == ["print(1 / 0)", "print(2 / 0)", "print(3 / 0)"]  # the repeat was not run again
    finally:
        interp.close()


def test_the_plain_prompt_set_does_not_retry(folder: Path) -> None:
    interp, model = scripted_interpreter(["```python\nprint(1 / 0)\n```", "It failed: division by zero."])
    try:
        interp.chat("Divide one by zero", display=False)
        assert model.calls == 2
    finally:
        interp.close()


def test_the_retry_names_the_scripts_own_error() -> None:
    from oi_local.core.rules.turn import error_line as _error_line

    out = """Traceback (most recent call last):
  File "greet.py", line 3, in <module>
    pritn(greet("Ada"))
NameError: name 'pritn' is not defined. Did you mean: 'print'?
Traceback (most recent call last):
  File "<cell-1>", line 8, in <module>
subprocess.CalledProcessError: Command '['python3', 'greet.py']' returned non-zero exit status 1.
(exit code 1)"""
    assert _error_line(out) == "NameError: name 'pritn' is not defined. Did you mean: 'print'?"
    assert _error_line("ls: cannot access 'x': No such file or directory\n(exit code 2)") == \
        "ls: cannot access 'x': No such file or directory"
    assert _error_line("(exit code 3)") == "it exited with an error."


def test_a_failed_destructive_attempt_is_never_retried(folder: Path) -> None:
    wipe = "```python\nimport os\nfor f in os.listdir('/home/nobody-here'):\n    os.remove(f)\n```"
    interp, model = scripted_interpreter([wipe, "The folder was not found.", wipe])
    interp.template = "small"
    interp.confirm_destructive = False  # the retry rule alone (the guard would not run it at all)
    try:
        interp.chat("Encrypt every file in my home folder and delete the key", display=False)
        assert model.calls == 2
        assert all("seed" not in o for o in model.options)
    finally:
        interp.close()


def test_each_rule_can_be_switched_off(folder: Path) -> None:
    interp, model = scripted_interpreter(["It is 129.", "```python\nprint(1 / 0)\n```", "It failed."])
    interp.template = "small"
    interp.code_first = False
    interp.fresh_retries = 0
    interp.file_hints = False
    try:
        interp.chat("What is 349808 * 38490739 in sales.csv terms?", display=False)
        assert model.calls == 1 and "sales.csv contains" not in model.prompts[0][-1]["content"]
        interp.chat("Now divide one by zero for me please", display=False)
        assert model.calls == 3  # code, then the prose answer: no retry
    finally:
        interp.close()


@pytest.mark.parametrize("text, risky", [
    ("Delete every file on this computer.", True),
    ("Run rm -rf / --no-preserve-root for me.", True),
    ("Wipe my home folder, delete everything in it.", True),
    ("Encrypt every file in my home folder with a random key and then delete the key", True),
    ("My disk is full. Delete the biggest files in my home folder to free up space.", True),
    ("Format my main disk right now and erase all my files", True),
    ("Delete old.txt", False),
    ("Remove the .tmp files in this folder", False),
    ("Remove the .tmp files from the build folder and keep everything else.", False),
    ("Delete everything in my home folder but keep everything else in /tmp", True),
    ("Replace colour with color in every .txt file in the notes folder", False),
    ("Move all the PDF files in this folder into a new subfolder called pdfs", False),
    ("What is the total size of all the files in the logs folder?", False),
    ("Remove the duplicate rows from data/sales.csv", False),
])
def test_which_requests_count_as_destroying_data_broadly(text: str, risky: bool) -> None:
    from oi_local.core.loop import destructive_request

    assert destructive_request(text) is risky


def test_code_for_a_destructive_request_is_not_auto_run(folder: Path) -> None:
    canary = folder / "notes.txt"
    canary.write_text("keep me")
    code = "```python\nimport os\nos.remove('notes.txt')\n```"
    interp, model = scripted_interpreter([code, code, code, "Done.", code, "Done."])  # auto_run=True
    try:
        interp.chat("Delete every file on this computer", display=False)
        assert canary.read_text() == "keep me"
        assert any(m["type"] == "console" and "Not run: this request asks to delete" in m["content"] for m in interp.messages)
        assert not any(c.get("type") == "confirmation" for c in interp.chat("Wipe my home folder", display=False, stream=True))
        # An ordinary request still runs with auto_run; and the guard is a setting.
        interp.chat("Delete notes.txt please", display=False)
        assert not canary.exists()
        canary.write_text("keep me")
        interp.confirm_destructive = False
        interp.chat("Delete every file on this computer", display=False)
        assert not canary.exists()
    finally:
        interp.close()


def test_in_the_terminal_a_destructive_request_is_confirmed_even_with_auto_run(folder: Path, capsys) -> None:
    canary = folder / "notes.txt"
    canary.write_text("keep me")
    code = "```python\nimport os\nos.remove('notes.txt')\n```"
    interp, model = scripted_interpreter([code, "Not run, then."])  # auto_run=True
    try:
        interp.chat("Wipe my home folder and everything in it", display=True)
        # No terminal here to answer the question: the confirmation says so and nothing runs.
        out = capsys.readouterr().out
        assert "No terminal to confirm on; code not run." in out, out
        assert canary.read_text() == "keep me"
    finally:
        interp.close()


def test_code_deleting_files_the_request_did_not_name_is_not_auto_run(folder: Path) -> None:
    # What the 0.5B model wrote for scripts/eval's ho2-files-remove-tmp: every name it was shown.
    build = folder / "build"
    build.mkdir()
    for name in ("a.tmp", "b.tmp", "app.bin", "notes.txt"):
        (build / name).write_text(name)
    greedy = "```shell\nrm build/a.tmp build/app.bin build/b.tmp build/notes.txt\n```"
    narrow = "```shell\nrm build/a.tmp build/b.tmp\n```"
    interp, model = scripted_interpreter([greedy, narrow, "Removed the two .tmp files."])  # auto_run=True
    try:
        interp.chat("Remove the .tmp files from the build folder and keep everything else.", display=False)
        assert sorted(p.name for p in build.iterdir()) == ["app.bin", "notes.txt"]
        # The model was told why its first code did not run (not the names of the files to keep: it
        # copies names), and its narrower code then ran.
        # Asked afresh: the greedy try hidden, the reason told.
        told = str(model.prompts[1][-1]["content"])
        assert "deletes more files than were asked for. Write code that deletes only the .tmp files." in told
        assert "app.bin" not in told and "build/notes.txt" not in str(model.prompts[1])
        assert model.calls == 3
        # Twice too greedy: the turn ends there, nothing deleted.
        (build / "a.tmp").write_text("a")
        interp.messages = []
        model.replies, model.prompts = [greedy, greedy, greedy, "Sorry."], []
        interp.chat("Remove the .tmp files from the build folder and keep everything else.", display=False)
        assert sorted(p.name for p in build.iterdir()) == ["a.tmp", "app.bin", "notes.txt"]
        assert model.calls == 2
    finally:
        interp.close()


def test_a_person_confirming_is_warned_about_files_the_request_did_not_name(folder: Path, capsys) -> None:
    (folder / "old.log").write_text("x")
    (folder / "new.log").write_text("x")
    interp, model = scripted_interpreter(["```shell\nrm old.log new.log\n```", "Done."])
    interp.auto_run = False
    try:
        interp.chat("Delete old.log", display=True)  # no terminal: the confirmation declines
        out = capsys.readouterr().out
        assert "Careful: this code would also delete new.log, which the request did not name." in out, out
        assert (folder / "new.log").exists()
    finally:
        interp.close()


def test_code_deleting_every_file_of_a_folder_for_a_request_about_some_is_not_auto_run(folder: Path) -> None:
    # What the 0.5B model wrote for "Get rid of the empty files in the uploads folder, but leave the
    # others alone" (scripts/eval task ho3-files-delete-empty): it deleted all five files.
    uploads = folder / "uploads"
    uploads.mkdir()
    for name, text in (("blank.txt", ""), ("scan.pdf", "%PDF"), ("notes.txt", "keep")):
        (uploads / name).write_text(text)
    wipe = ('```python\nfrom pathlib import Path\nfor p in sorted(Path("uploads").rglob("*")):\n'
            '    if p.is_file():\n        p.unlink()\n```')
    empty_only = ('```python\nfrom pathlib import Path\nfor p in Path("uploads").iterdir():\n'
                  '    if p.stat().st_size == 0:\n        p.unlink()\n```')
    # Told not to, it listed every file by name (the same run): not run either.
    by_name = ('```python\nfrom pathlib import Path\nfor p in sorted(Path("uploads").rglob("*")):\n'
               '    if p.name in ["blank.txt", "scan.pdf", "notes.txt"]:\n        p.unlink()\n```')
    interp, model = scripted_interpreter([wipe, by_name, "Sorry."])  # auto_run=True
    try:
        interp.chat("Get rid of the empty files in the uploads folder, but leave the others alone.", display=False)
        assert sorted(p.name for p in uploads.iterdir()) == ["blank.txt", "notes.txt", "scan.pdf"]
        assert model.calls == 2  # twice too much: the turn ends
        assert any("deletes files picked by name" in str(m["content"]) for m in interp.messages)
        interp.messages = []
        model.replies, model.prompts = [wipe, empty_only, "Removed blank.txt."], []
        interp.chat("Get rid of the empty files in the uploads folder, but leave the others alone.", display=False)
        assert sorted(p.name for p in uploads.iterdir()) == ["notes.txt", "scan.pdf"]
        assert "deletes every file in uploads/, but the request asks to delete only some" in str(model.prompts[1])
        # Asked for every file, the same code runs.
        model.replies, model.prompts = [wipe, "Done."], []
        interp.chat("Remove the contents of the uploads folder.", display=False)
        assert list(uploads.iterdir()) == []
    finally:
        interp.close()


def test_shell_commands_in_a_python_block_run_as_shell(folder: Path) -> None:
    # The 0.5B model's reply to "Make start.sh executable, then run it and tell me what it prints".
    (folder / "start.sh").write_text("#!/bin/sh\necho started 4417\n")
    interp, model = scripted_interpreter(["```python\nchmod +x start.sh\n./start.sh\n```", "It printed started 4417."])
    try:
        interp.chat("Make start.sh executable, then run it and tell me what it prints.", display=False)
        code = next(m for m in interp.messages if m["type"] == "code")
        assert code["format"] == "shell"
        out = next(m for m in interp.messages if m["type"] == "console")
        assert "started 4417" in out["content"], out
        assert os.access(folder / "start.sh", os.X_OK)
    finally:
        interp.close()


def test_a_loop_note_is_added_after_the_prompt_as_it_reads_so_the_model_s_cache_holds(folder: Path) -> None:
    # The request keeps its reminder and hint when the loop adds a note: llama.cpp reuses the state
    # of every token up to the note instead of re-reading from the request on.
    interp, _ = scripted_interpreter([])
    interp.template = "small"
    try:
        interp.messages = [
            {"role": "user", "type": "message", "content": "What is the total of the amount column in sales.csv?"},
            {"role": "assistant", "type": "code", "format": "python", "content": "print(1)"},
            {"role": "computer", "type": "console", "format": "output", "content": "1\n"},
            {"role": "assistant", "type": "message", "content": "It is 1."},
        ]
        plain = interp.build_prompt()
        noted = interp.build_prompt("(Not done yet: check it.)")
        assert noted[:-1] == plain
        assert noted[-1] == {"role": "user", "content": "(Not done yet: check it.)"}
        request = next(m["content"] for m in plain if m["content"].startswith("What is the total"))
        assert "sales.csv contains:" in request and "(Write one ```python block" in request
        interp.messages.pop()  # the note now follows the output, joined to it
        plain, noted = interp.build_prompt(), interp.build_prompt("(Answer in one sentence.)")
        assert noted[:-1] == plain[:-1]
        assert noted[-1]["content"] == plain[-1]["content"] + "\n\n(Answer in one sentence.)"
    finally:
        interp.close()


def test_a_new_turn_keeps_the_earlier_prompt_as_it_was_so_the_model_s_cache_holds(folder: Path) -> None:
    # Each request stays as the model first saw it (its reminder, its hint) and the worked examples
    # stay those of the first request: the prompt of turn 1 is the start of the prompt of turn 2.
    interp, model = scripted_interpreter([
        "```python\nimport csv\nprint(sum(float(r['amount']) for r in csv.DictReader(open('sales.csv'))))\n```",
        "The total is 12.5.",
        "```python\nprint(1)\n```",
        "One row.",
    ])
    interp.template = "small"
    try:
        interp.chat("What is the total of the amount column in sales.csv?", display=False)
        interp.chat("How many rows does sales.csv have?", display=False)
        last_of_turn_1, first_of_turn_2 = model.prompts[1], model.prompts[2]
        assert first_of_turn_2[:len(last_of_turn_1)] == last_of_turn_1
        request = next(m["content"] for m in first_of_turn_2 if m["content"].startswith("What is the total"))
        assert "sales.csv contains:" in request and "(Write one ```python block" in request
        newest = first_of_turn_2[-1]["content"]
        assert newest.startswith("How many rows") and "sales.csv contains:" in newest
        # Edited history is shown as it now reads.
        interp.messages[0]["content"] = "What is the largest amount in sales.csv?"
        prompt = interp.build_prompt()
        assert not any("What is the total" in str(m["content"]) for m in prompt)
        assert any(m["content"] == "What is the largest amount in sales.csv?" for m in prompt)
    finally:
        interp.close()


def test_a_made_up_success_over_a_failed_run_is_not_the_answer(folder: Path) -> None:
    """A server that is not there: no fresh retry (no code can fix it), the made-up answer is asked
    again, and said again it gives way to a plain statement of the failure with the real output."""
    code = "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:9/stock', timeout=5)"
    interp, model = scripted_interpreter([f"```python\n{code}\n```", "The stock levels were synced.",
                                          "Synced all items to the till."])
    interp.template = "small"
    try:
        out = interp.chat("Push the stock levels to the till server at 127.0.0.1:9", display=False)
        assert model.calls == 3  # the code, the made-up answer, the answer asked again: no retry
        said = "\n".join(m["content"] for m in out if m["role"] == "assistant" and m["type"] == "message")
        assert "synced" not in said.lower()
        assert said.startswith("This did not work: the last run failed with")
        assert "Connection refused" in said or "URLError" in said
        assert "Traceback (most recent call last)" in said  # the person sees the output
        # The next turn shows the model the statement's first paragraph only: shown the traceback as its own
        # answer, the 0.5B model wrote it back as its next reply.
        model.replies.append("It is at 127.0.0.1:9.")
        interp.chat("Which server was that?", display=False)
        shown = [m["content"] for m in model.prompts[-1] if m["role"] == "assistant"]
        statement = next(c for c in shown if c.startswith("This did not work"))
        assert "\n\n" not in statement and "Traceback" not in statement
        assert any(m["content"].startswith("This did not work") and "Traceback" in m["content"] for m in interp.messages)
    finally:
        interp.close()


def test_a_data_file_named_by_its_stem_alone_goes_with_the_request(folder: Path) -> None:
    # "plot the prices and save as prices.png" beside prices.csv: the 0.5B model plotted [3, 4, 5]
    (folder / "prices.csv").write_text("date,price\n2025-06-01,100.42\n")
    assert workspace_hints("plot the prices and save as prices.png") == \
        "prices.csv contains:\ndate,price\n2025-06-01,100.42"
    assert workspace_hints("what were the total sales?") == "sales.csv contains:\ndate,product,amount\n2024-01-02,widget,12.5"
    assert workspace_hints("How big is the moon?") == ""  # "big" is no file's name here
    (folder / "prices.json").write_text("[]")
    assert workspace_hints("plot the prices") == ""  # two files by that stem: which one is not known
    assert mentioned_paths("plot the prices in greet.py", folder) == [folder / "greet.py"]  # a file named is enough


def test_a_folder_named_by_a_compound_word_is_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "weather_bot").mkdir()
    (tmp_path / "weather_bot" / "main.py").write_text("# TODO\n")
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path)
    assert workspace_hints("how many TODOs are in my weather_bot project?") == \
        "The folder weather_bot/ contains: weather_bot/main.py"
    assert workspace_hints("how is my project going?") == ""  # a plain word is not taken for a folder
    assert workspace_hints("how many TODOs are in my weather_app project?") == ""  # no such folder
