from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.engine import Engine
from oi_local.core.rules import long_request


def test_a_long_request_is_split_into_the_question_and_the_pasted_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    log = "".join(f"line {i} {'ERROR' if i % 7 == 0 else 'ok'}\n" for i in range(2000))
    text = "Count the lines that contain ERROR in this log:\n" + log + "How many are there?"
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    prompt = engine.build_prompt()
    seen = prompt[-1]["content"]
    saved = list(tmp_path.glob("pasted-*.txt"))
    assert len(saved) == 1 and saved[0].read_text() == log  # the pasted lines alone: counting in it is right
    assert seen.startswith("Count the lines that contain ERROR in this log:")
    assert seen.index(saved[0].name) < seen.index("How many are there?")  # the question after the file, as written
    assert f"(2000 lines, {len(log) - 1} characters) is saved in the file {saved[0].name}; read it from there." in seen
    assert "line 0 ERROR\nline 1 ok" in seen and "line 6 ok" not in seen and len(seen) < 1000  # its first lines
    assert engine.messages[0]["content"] == text  # stored as the user wrote it
    engine.build_prompt()
    assert len(list(tmp_path.glob("pasted-*.txt"))) == 1  # once


def test_pasted_prose_is_not_shown_by_its_first_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    story = "\n\n".join(f"Paragraph {i}: the harbour was quiet that morning, and the boats were in. " * 3 for i in range(100))
    text = f"Here is a story:\n\n{story}\n\nHow many times does the word harbour appear?"
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    seen = engine.build_prompt()[-1]["content"]
    assert "Paragraph 0" not in seen and "read it from there.]" in seen and "How many times" in seen


def test_the_users_words_around_the_pasted_text_are_found() -> None:
    story = "\n\n".join(f"Paragraph {i}: the harbour was quiet and the boats were in." for i in range(300))
    intro, question = "Here is a story my grandmother wrote down:", 'How many times does "harbour" appear above?'
    assert long_request.split(f"{intro}\n\n{story}\n\nThe end.\n\n{question}\n") == (
        intro, story + "\n\nThe end.", question)
    # the question first, and a short last paragraph that belongs to the pasted text
    assert long_request.split(f"Which paragraph is the longest?\n\n{story}\n\nThe end.") == (
        "Which paragraph is the longest?", story + "\n\nThe end.", "")
    assert long_request.split(story) is None  # no words of the user's own: saved whole


def test_a_long_request_with_no_question_of_its_own_is_saved_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    text = "".join(f"line {i} of a note that goes on\n" for i in range(800))
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    seen = engine.build_prompt()[-1]["content"]
    saved = list(tmp_path.glob("message-*.txt"))
    assert len(saved) == 1 and saved[0].read_text() == text
    assert seen.startswith("line 0 of a note") and saved[0].name in seen and len(seen) < 4000


def test_a_short_request_is_untouched_and_the_switch_turns_it_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    assert long_request.prompt(engine, "What is 2+2?", "") is None
    engine.save_long_requests = False
    engine.messages = [{"role": "user", "type": "message", "content": "word " * 10000}]
    engine.build_prompt()
    assert not list(tmp_path.glob("message-*.txt")) and not list(tmp_path.glob("pasted-*.txt"))


def test_code_that_looks_for_another_file_is_told_where_the_pasted_text_is() -> None:
    from .handmade import make_turn

    log = "".join(f"2025-10-{i % 28 + 1:02d} job=photos finished OK\n" for i in range(600))
    request = "this is my backup log:\n" + log + "\nwhich job failed the most?"
    turn = make_turn(request)
    name = long_request._name(long_request.split(request)[1] + "\n", "pasted")
    missing = "FileNotFoundError: [Errno 2] No such file or directory: 'backup-jobs'\n(exit code 1)"
    assert long_request.on_failure(turn, "python", "os.listdir('backup-jobs')", missing) == (
        f"There is no backup-jobs here: the text I pasted is in the file {name}. Read it with open(\"{name}\").")
    assert long_request.on_failure(turn, "python", "", missing.replace("backup-jobs", name)) is None
    assert long_request.on_failure(turn, "python", "", "KeyError: 'job'\n(exit code 1)") is None
    assert long_request.on_failure(make_turn("which job failed the most?"), "python", "", missing) is None


def test_a_read_of_a_file_that_is_not_there_reads_the_pasted_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from oi_local.core.rules import paths, unused_numbers

    from .handmade import block, make_turn

    monkeypatch.chdir(tmp_path)
    log = "".join(f"2026-02-{i % 28 + 1:02d} 06:41 ERROR F28 lockout; heating off {i % 40 + 5} min\n" for i in range(400))
    request = "I exported the boiler log, here it is:\n" + log + "\nhow many F28 lockouts were there?"
    turn = make_turn(request)
    turn.engine.build_prompt()  # the pasted text is saved
    name = long_request.pasted_file(turn.engine, request)
    assert name is not None and (tmp_path / name).read_text() == log
    b = block('count = 0\nwith open("log.txt", "r") as f:\n    for line in f:\n        count += "F28" in line\nprint(count)')
    verdict = paths.check(turn, b)
    assert verdict is not None and f"log.txt → {name}" in verdict.warning and "the text you pasted" in verdict.warning
    assert f"open('{name}', \"r\")" in b.code
    # a file the person's own words name is theirs to mean; a short request has no pasted file
    named = "compare with yesterday.log, I exported the boiler log, here it is:\n" + log + "\nhow many F28 lockouts?"
    assert paths.check(make_turn(named), block('print(open("yesterday.log").read())')) is None
    assert paths.check(make_turn("how many lockouts are in log.txt?"), block('print(open("log.txt").read())')) is None
    # the pasted log's numbers are not a calculation the code must use
    assert unused_numbers.check(make_turn(request), block("print(sum([5, 6]))")) is None


def test_the_note_about_the_saved_text_held_as_the_text_reads_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from .handmade import block, make_turn

    monkeypatch.chdir(tmp_path)
    story = "".join(f"The harbour was quiet on day {i}.\n" for i in range(600))
    request = "Here is a story my grandmother wrote down:\n\n" + story + "\nHow many times does the word \"harbour\" appear?"
    turn = make_turn(request)
    seen = turn.engine.build_prompt()[-1]["content"]
    name = long_request.pasted_file(turn.engine, request)
    assert name is not None and name in seen
    note = seen[seen.index("The text I pasted"):seen.index("read it from there.") + len("read it from there.")]
    b = block(f'text = "{note}"\nprint(text.count("harbour"))')
    verdict = long_request.check(turn, b)
    assert verdict is not None and name in verdict.warning
    assert b.code == f"text = open('{name}', encoding='utf-8').read()\nprint(text.count(\"harbour\"))"
    ns: dict = {}
    exec(b.code, ns)  # noqa: S102 - the changed code reads the story
    assert ns["text"] == story
    assert long_request.check(turn, block('print("hello")')) is None


def test_a_name_for_the_pasted_text_that_nothing_defined_gets_the_file_read_into_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from .handmade import make_turn

    monkeypatch.chdir(tmp_path)
    log = "".join(f"2025-10-{i % 28 + 1:02d} job=photos {'FAILED' if i % 50 == 0 else 'finished OK'}\n" for i in range(600))
    request = "this is my backup log:\n" + log + "\nhow many times did a job fail?"
    name = long_request._name(long_request.split(request)[1] + "\n", "pasted")
    (tmp_path / name).write_text(log)
    turn = make_turn(request)
    code = "import re\nprint(len(re.findall('FAILED', text)))"
    note = long_request.on_failure(turn, "python", code, "NameError: name 'text' is not defined\n(exit code 1)") or ""
    assert note.startswith(f"Note: nothing called text exists yet. The text I pasted is in the file {name}.")
    fixed = note[note.index("```python\n") + 10:note.rindex("```")]
    assert subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True).stdout == "12\n"
    # a module or a function left out is not the text; nor is a short request's name
    assert long_request.on_failure(turn, "python", "print(re.findall('x', 'y'))", "NameError: name 're' is not defined") is None
    assert long_request.on_failure(turn, "python", "print(count(3))", "NameError: name 'count' is not defined") is None
    assert long_request.on_failure(make_turn("how many times did a job fail?"), "python", code,
                                   "NameError: name 'text' is not defined") is None


def test_the_lines_that_hold_a_rare_word_of_the_question_are_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    log = "".join(
        f"2025-11-{d:02d} 02:00 INFO backup started\n"
        + "".join(f"2025-11-{d:02d} 02:0{i} INFO scanned folder {i} of 6 (photos and documents)\n" for i in range(6))
        + f"2025-11-{d:02d} 02:10 INFO copied {d * 7} files\n"
        + f"2025-11-{d:02d} 02:11 {'FAIL disk full' if d == 19 else 'OK done'}\n" for d in range(1, 29))
    text = "our backup log is below, sorry it's long:\n" + log + "did the backup fail on any night? which one?"
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    seen = engine.build_prompt()[-1]["content"]
    assert 'All the lines of it that mention "fail", the closest to my question first:\n2025-11-19 02:11 FAIL disk full\n]' in seen
    assert "backup started" in seen.split("mention")[0]  # the first lines still show the format
    assert '"backup"' not in seen  # in every night's lines: tells no line apart
    many = text.replace("did the backup fail on any night? which one?", "how many nights said OK?")
    engine.messages = [{"role": "user", "type": "message", "content": many}]
    assert "lines of it that mention" not in engine.build_prompt()[-1]["content"]  # OK is on most nights


def test_asked_why_a_printed_line_of_the_paste_is_followed_by_the_lines_before_it(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from .handmade import failed, make_turn, ran

    monkeypatch.chdir(tmp_path)
    nights = [f"[night {i}] backup: starting\n[night {i}] backup: finished OK\n" for i in range(300)]
    nights[200] = ("[night 200] backup: starting\n[night 200] restic: write failed: no space left on device\n"
                   "[night 200] backup: email alert sent (BACKUP FAILED)\n")
    log = "".join(nights)
    request = "here is my backup log:\n" + log + "\nwhen did the backup first fail, and why?"
    name = long_request._name(long_request.split(request)[1] + "\n", "pasted")
    (tmp_path / name).write_text(log)
    alert = "[night 200] backup: email alert sent (BACKUP FAILED)"
    turn = make_turn(request, runs=(ran("print(...)", alert + "\n"),))
    ask = long_request.follow_up(turn)
    assert ask is not None and ask.text is not None and "no space left on device" in ask.text and name in ask.text
    assert ask.text.index("no space left") < ask.text.index("email alert") and "night 100" not in ask.text
    assert long_request.follow_up(turn) is None  # once a turn
    # not asked why, a failed run, or output that is no line of the paste: nothing
    for t in (make_turn(request.replace(", and why?", "?"), runs=(ran("print(...)", alert),)),
              make_turn(request, runs=(failed("print(x)", "NameError"),)),
              make_turn(request, runs=(ran("print(...)", "night 200\n"),))):
        assert long_request.follow_up(t) is None


def test_the_sentences_of_pasted_prose_that_hold_a_rare_word_of_the_question_are_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    mails = [f"From: Member {i}\nSubject: Plot {i}\n\nThe hedge on plot {i} needs cutting back before the spring, and the "
             f"path by the water trough is muddy again after all that rain we had on the weekend, so please bring boots and a spade if you can. Thanks all." for i in range(60)]
    mails[40] = ("From: Aileen\nSubject: Tool shed\n\nAfter the mower went missing we fitted a new padlock on the tool shed. "
                 "The old combination no longer works. The new combination is 3948. Please keep it to yourselves.")
    text = "Our thread is below.\n\n" + "\n\n".join(mails) + "\n\nIn all of that, what is the combination for the padlock?"
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    seen = engine.build_prompt()[-1]["content"]
    assert 'The sentences of it that mention "padlock" or "combination", the closest first:' in seen
    assert "The new combination is 3948." in seen and "hedge" not in seen


def test_of_pasted_prose_only_the_words_after_it_pick_sentences_and_a_code_like_e21_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    body = [f"Section {i}. Keep the appliance level on a firm floor, and check the hoses every few months for wear "
            f"and small cracks that could leak onto the kitchen floor over time." for i in range(80)]
    body[50] = "Error E21: the water does not drain. Clean the drain filter behind the flap and check the pump."
    text = ("I printed the manual for you, here it is.\n\n" + "\n".join(body)
            + "\n\nthe screen says E21 and the drum is full of water. what do I do?")
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    seen = engine.build_prompt()[-1]["content"]
    assert "Error E21: the water does not drain." in seen and '"printed"' not in seen


def test_a_prose_question_whose_run_failed_or_never_read_the_text_is_given_the_sentences_to_answer_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from .handmade import failed, make_turn, ran

    monkeypatch.chdir(tmp_path)
    mails = [f"From: Member {i}\nSubject: Plot {i}\n\nThe hedge on plot {i} needs cutting back before the spring, and the "
             f"path by the water trough is muddy again after all that rain, so please bring boots. Thanks all." for i in range(60)]
    mails[40] = ("From: Aileen\nSubject: Tool shed\n\nWe fitted a new padlock on the tool shed. "
                 "The old combination no longer works. The new combination is 3948. Please keep it to yourselves.")
    text = "Our thread is below.\n\n" + "\n\n".join(mails) + "\n\nIn all of that, what is the combination for the padlock?"
    turn = make_turn(text, runs=(failed('print(line.split(": ")[1])', "IndexError: list index out of range"),))
    turn.engine.build_prompt()  # saves the pasted text
    ask = long_request.after_run(turn)
    assert ask is not None and ask.own and "sentences of pasted-" in (ask.text or "")
    code = (ask.text or "").split("```python\n")[1].split("```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path).stdout
    # the closest three as one line, the closest first (short sentences weighed as of the mean length: a tie of lengths)
    # (the padlock's sentence holds "new", as the new combination's does: linked, that one comes before the old one's)
    assert out == "We fitted a new padlock on the tool shed. The new combination is 3948. The old combination no longer works.\n"
    assert long_request.after_run(turn) is None  # once a turn
    # A number typed in (never read from the text) is no answer either; a run that read the text and printed is.
    assert long_request.after_run(make_turn(text, runs=(ran("print(12 * 12)", "144\n"),))) is not None
    name = next(tmp_path.glob("pasted-*.txt")).name
    assert long_request.after_run(make_turn(text, runs=(ran(f"print(open({name!r}).read()[:9])", "From: Mem\n"),))) is None
    # the text printed back, cut to its start and end as a run's output is: no answer picked from it (ho54 dev)
    pasted = (tmp_path / name).read_text()
    back = pasted[:1400] + "\n... (9,000 characters not shown) ...\n" + pasted[-1400:]
    assert long_request.printed_back(back, pasted) and not long_request.printed_back("The new combination is 3948.", pasted)
    assert long_request.after_run(make_turn(text, runs=(ran(f"print(open({name!r}).read())", back),))) is not None


def test_pasted_records_whose_run_never_read_them_are_given_the_lines_with_the_questions_word(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from .handmade import make_turn, ran

    monkeypatch.chdir(tmp_path)
    rows = [f"{d % 28 + 1:02d}/01/2025,DEB,TESCO STORES {d},{d % 50 + 10}.00,,{9000 - d}.00" for d in range(400)]
    rows[13] = "14/01/2025,DEB,BRIGHTSMILE DENTAL CARE,86.40,,955.35"
    text = ("Here's my bank statement:\n\nDate,Type,Description,Paid out,Paid in,Balance\n" + "\n".join(rows)
            + "\n\nWhen did I pay the dentist, and how much was it?")
    turn = make_turn(text, runs=(ran("print(1150.0)", "1150.0\n"),))
    turn.engine.build_prompt()
    ask = long_request.after_run(turn)
    assert ask is not None and 'lines of pasted-' in (ask.text or "") and '"dentist"' in (ask.text or "")
    code = (ask.text or "").split("```python\n")[1].split("```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path).stdout
    assert out == "14/01/2025,DEB,BRIGHTSMILE DENTAL CARE,86.40,,955.35\n"  # "dentist" found by its first letters


def test_the_questions_rare_words_come_before_the_intros(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # session 56: the intro's "garden" and "log" (on the header line only) were searched, not "Okafor"
    lines = ["ALDER ROW ALLOTMENTS - WORK LOG"] + [
        f"2024-04-{d % 28 + 1:02d} Sam and Priya weeded the beds ({d % 3 + 1} h)." for d in range(60)]
    lines[31] = "2024-04-04 New tenants: the Mensah family took plot 14."
    own = "Here is our allotment's work log. I only need one thing.\n\nWhich plot did the Mensah family get?"
    found, _ = long_request.rare_words(lines, own)
    assert "mensah" in [w for _, w, _, _ in found] and "log" not in [w for _, w, _, _ in found]
    # with no question mark, the last sentence is the question
    found, _ = long_request.rare_words(lines, "Here is our allotment's work log.\n\nTell me the Mensah family's plot.")
    assert "mensah" in [w for _, w, _, _ in found] and "log" not in [w for _, w, _, _ in found]


def test_a_code_the_question_names_is_searched_first() -> None:
    # ho58 (session 59's start): "Who delivered parcel PX-40718 in the end?" searched "parcel" (the header) alone
    lines = ["time | parcel | courier | status"] + [
        f"09:{m:02d} | PX-4{m:04d} | courier=Ann Lee | {'DELIVERED' if m % 2 else 'OUT_FOR_DELIVERY'}" for m in range(60)]
    lines[40] = "12:01 | PX-40718 | courier=Bo Kim | OUT_FOR_DELIVERY"
    lines[45] = "15:30 | PX-40718 | courier=Cy Ray | DELIVERED"
    lines[50] = "16:00 | PX-407180 | courier=Di Fox | DELIVERED"  # another parcel, whose number starts the same
    found, filled = long_request.rare_words(lines, "Here's the export.\n\nWho delivered parcel PX-40718 in the end?")
    assert found[0][1] == "PX-40718" and [filled[i] for i in found[0][3]] == [lines[40], lines[45]]
    assert long_request._CODE.findall("on 2024-05-13, 3.5 kg, #4471 or B12 and INV-2291?") == ["B12", "INV-2291"]


def test_a_count_over_pasted_prose_is_given_no_sentences(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from .handmade import make_turn, ran

    monkeypatch.chdir(tmp_path)
    days = [f"On day {i} the ferry left late again and the harbour {'cafe' if i % 45 == 0 else 'pier'} was shut." if i % 5 == 0
            else f"On day {i} the gulls were loud and the wind came from the west all afternoon." for i in range(200)]
    story = "\n\n".join(" ".join(days[i:i + 5]) for i in range(0, 200, 5))  # paragraphs: prose, not records
    for question, shown in (("How many times does the word cafe appear?", False), ("What did the harbour cafe do?", True)):
        text = f"My diary:\n\n{story}\n\n{question}"
        turn = make_turn(text, runs=(ran("print(8)", "8\n"),))
        seen = turn.engine.build_prompt()[-1]["content"]
        assert ("The sentences of it that mention" in seen) is shown, question
        assert (long_request.after_run(turn) is not None) is shown, question


def test_each_part_of_a_two_part_question_gets_its_best_sentences_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert long_request.question_parts("I missed it. How much will the new roof cost, and who signs the contract?") == [
        "How much will the new roof cost", "who signs the contract?"]
    lines = [f"The roof over hall {i} leaks and the roof repair and the roof tiles were talked about at length." for i in range(40)]
    lines[7] = "The treasurer, Ruth Obi, will sign the contract on behalf of the club."
    lines[30] = "The new roof will cost 18,500 pounds in total."
    _, rows, _ = long_request._ranked(lines, "How much will the new roof cost, and who signs the contract?")
    assert set(rows[:2]) == {7, 30}  # the best of each part first, not eight roof sentences
    _, alone, _ = long_request._ranked(lines, "How much will the new roof cost?")
    assert alone[0] == 30 and 7 not in alone


def test_a_short_sentence_is_not_ranked_above_a_longer_one_for_its_shortness() -> None:
    lines = [f"Item {i} on the agenda was the hedge by the car park, which the gardeners will trim in the autumn as usual." for i in range(40)]
    lines[5] = "This was agreed."
    lines[20] = ("After a long and at times heated discussion about the state of the green, the cost of the work, the views of "
                 "the neighbours and the weather, the meeting voted to spend 4,200 pounds on new benches for the green by the pond.")
    _, rows, _ = long_request._ranked(lines, "How much did they agree to spend on benches?")
    assert rows[0] == 20


def test_a_sentence_with_the_kind_of_thing_asked_for_comes_first() -> None:
    lines = [f"Step {i}: some people like ginger, and it is better with a little treacle." for i in range(40)]
    for i in (3, 8, 21):
        lines[i] = f"Note {i}: we bake this one for friends most weeks."
    lines[12] = "Q: Can I bake it in a bundt tin?"
    lines[30] = "Bake for 50 to 55 minutes, until a skewer comes out clean."
    lines[33] = "The next tasting is on Saturday 14 June at 7.30pm in the parish hall."
    lines[35] = "The tasting was the best we have had."
    _, rows, _ = long_request._ranked(lines, "how long does it bake for?")
    assert rows[0] == 30  # a duration, asked "how long"
    _, rows, _ = long_request._ranked(lines, "when is the next tasting?")
    assert rows[0] == 33  # a date and a time, asked "when"


GUIDE = """Welcome to Rowan Barn!

Address: 4 Mill Lane, Hawes. Check-in is from 3pm and check-out is by 11am.
Getting in: the key safe is on the left of the porch and its code is 2580.
Parking is on the gravel by the gate; please keep off the lawn.
The boiler switch is in the cupboard under the stairs.
The log burner needs its vent fully open before you light it.
Kindling and logs are in the shed behind the barn.
Black bin for general waste, green bin for glass and cans.
Bins are collected on Tuesday mornings.
The hot tub cover must go back on after use.
The nearest shop is Hawes Stores, ten minutes away on foot.
It opens at 8am and closes at 6pm.
In an emergency call the owner on 07700 900123.
Enjoy your stay!
"""


def test_a_question_about_a_named_prose_file_whose_run_printed_none_of_its_answer_is_given_the_sentences(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from .handmade import failed, make_turn, ran

    monkeypatch.chdir(tmp_path)
    (tmp_path / "barn.txt").write_text(GUIDE)
    request = "where is the key safe for the barn, and when do the bins go out? it's all in barn.txt"
    # the first line, labelled with the question's words
    turn = make_turn(request, runs=(ran('print("Key safe:", open("barn.txt").readline().strip())', "Key safe: Welcome to Rowan Barn!\n"),))
    ask = long_request.after_run(turn)
    assert ask is not None and ask.own and "sentences of barn.txt" in (ask.text or "")
    code = (ask.text or "").split("```python\n")[1].split("```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path).stdout
    first = out.splitlines()[0]
    assert "the key safe is on the left of the porch" in first and "collected on Tuesday" in first
    # a failed run too; a run that printed the file, or the answer, is left alone
    assert long_request.after_run(make_turn(request, runs=(failed("print(x)", "NameError: name 'x' is not defined"),))) is not None
    for printed in (GUIDE, "Getting in: the key safe is on the left of the porch and its code is 2580.\n"):
        assert long_request.after_run(make_turn(request, runs=(ran("print(...)", printed),))) is None
    # a question about the text's form, a change, or a file of records: no search
    for other in ("how many lines are in barn.txt?", "add the wifi code to barn.txt"):
        assert long_request.after_run(make_turn(other, runs=(ran("print(1)", "1\n"),))) is None, other


def test_which_files_are_records_and_which_prose() -> None:
    assert not long_request._records(GUIDE.splitlines())
    assert long_request._records(["2025-01-02 10:00 backup ok", "2025-01-03 10:00 backup FAILED", "note: disk"])
    assert long_request._records(["- milk", "- eggs", "- call the plumber"])
    assert long_request._records(["name,phone", "Ann,0161", "Bo,0162"])


# A club's rules wrapped at 78 characters; the fee for the asked-about boat is under the class the list names it in.
_RULES = "\n".join([
    "Hello all, the committee asked me to send round the new mooring rules, as agreed at the spring",
    "meeting. Please read them before you book a berth for the summer, because the old sheet is wrong.",
    "",
    "1. GENERAL",
    "1.1 These rules apply to every member who keeps a boat at the club, and to visitors who stay more",
    "than two nights. The harbour master has the final word on where a boat is moored.",
    "1.2 Members must keep their boats insured and show the certificate when asked.",
    "2. FEES",
    "2.1 Berths are charged per night and paid at the office before the boat leaves the pontoon.",
    "2.2 Small class: mooring up to 14 a night, launching up to 6 a time, with no deposit at all.",
    "2.3 Large class (see the list at the end): mooring up to 31 a night, launching up to 12 a time.",
    "2.4 Fees are reviewed each year by the committee and any change is posted on the noticeboard in",
    "the clubhouse at least a month before it applies, so nobody is surprised at the office.",
    "3. SAFETY",
    "3.1 Lifejackets must be worn on the pontoons by children under twelve, whatever the weather, and",
    "by anyone working on a boat after dark, when the pontoon lights are often poor.",
    "3.2 Fuel is never carried in open cans and the fire point by the slipway stays clear at all times.",
    "4. VISITORS",
    "4.1 Visitors report to the office on arrival, give the name of their boat and their length, and",
    "are shown a berth by the harbour master or whoever is on duty that day.",
    "",
    "LARGE CLASS BOATS",
    "Catamarans, Trimarans, Motor cruisers, Houseboats, Tall ships.",
])


def test_wrapped_text_is_prose_and_a_two_step_answer_comes_first() -> None:
    # ho50: a policy wrapped at a fixed width was searched line by line, and its "London" was only in the list
    # under a heading; the limit was in the clause for that class
    lines = _RULES.splitlines()
    assert long_request.wrapped(lines) and not long_request._first_lines(lines)
    assert not long_request.wrapped([f"line {i} ok" for i in range(40)])  # a log's short lines run on into none
    sentences, rows, _ = long_request._ranked(lines, "we're bringing our catamaran for 3 nights next week, what's the max "
                                                     "we pay for mooring each night?")
    best = [sentences[i] for i in rows]
    assert best[0].startswith("LARGE CLASS BOATS Catamarans")  # the heading joined to its list
    assert best[1].startswith("2.3 Large class (see the list at the end): mooring up to 31")  # before 2.2's small class
    assert any(s.startswith("2.4 Fees are reviewed each year by the committee and any change is posted on the noticeboard "
                            "in the clubhouse") for s in sentences)  # a sentence over two lines is one


def test_a_pasted_text_under_the_limit_with_a_question_is_saved_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ho52: a 3,418-character email went whole into the prompt; the model copied a worked example's code
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    mail = "\n\n".join(f"Item {i}: the team meets in room {i} and the coach leaves at {i}:30 from the hotel." for i in range(30))
    text = f"Got this email, can you tell me when the coach leaves on the last day?\n\n{mail}\n\nThanks, Rosa"
    assert long_request.PASTE_CHARS < len(text) < long_request.limit(engine)
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    seen = engine.build_prompt()[-1]["content"]
    saved = list(tmp_path.glob("pasted-*.txt"))
    assert len(saved) == 1 and "Item 29" in saved[0].read_text() and saved[0].name in seen and len(seen) < len(text)
    short = f"Got this email, when does the coach leave?\n\n{mail[:1200]}"  # a short paste goes whole
    assert long_request.prompt(engine, short, "") is None
    whole = mail  # no question of the person's own: whole, as before, under the limit
    assert long_request.prompt(engine, whole, "") is None


def _backup_log() -> str:
    lines = []
    for day in range(1, 29):
        stamp = f"2025-09-{day:02d}"
        lines.append(f"{stamp} 02:00:01 backup[{day}]: nightly job photos started")
        if day in (3, 9, 10, 21):
            lines.append(f"{stamp} 02:00:40 backup[{day}]: ERROR write failed on usb: Input/output error")
            lines.append(f"{stamp} 02:00:47 backup[{day}]: job FAILED, nothing copied")
        else:
            lines.append(f"{stamp} 02:17:06 backup[{day}]: job completed OK, 0 errors")
    return "\n".join(lines)


def test_a_how_many_question_about_pasted_records_is_shown_the_count_of_lines_and_dates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    engine = Engine()
    log = _backup_log() * 4  # long enough to be saved
    text = f"here's the nas log:\n\n{log}\n\nhow many nights did the backup actually fail?"
    engine.messages = [{"role": "user", "type": "message", "content": text}]
    seen = engine.build_prompt()[-1]["content"]
    # two lines a failed night, four nights; "backup" is on every line and tells none apart
    assert ('the lines of it that mention "fail" fall on 4 different dates (2025-09-03 to 2025-09-21); 32 lines in all'
            in seen)


def test_the_tally_counts_lines_for_times_and_stays_out_of_sums_and_per_group_questions() -> None:
    filled = _backup_log().splitlines()
    times = long_request._tally(filled, "how many times did the photos job fail?")
    assert times.startswith(' Counted by the loop: 8 lines of it mention "fail", on 4 different dates')
    # the words of the clause after ", and" are another question's
    assert "4 different dates" in long_request._tally(filled, "how many nights did it fail, and what was the last OK date?")
    assert long_request._tally(filled, "how many files were copied altogether?") == ""  # a sum, not a count of lines
    assert long_request._tally(filled, "which job failed the most, and how many times?") == ""
    assert long_request._tally(filled, "when did it first fail?") == ""


def test_the_lines_found_come_closest_to_the_question_first_unless_their_order_is_the_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ho56: asked for the new water heater's serial, the lines with "serial" came in the log's order, and the 0.5B
    # model answered with the first one's (a dryer's)
    import subprocess
    import sys

    from .handmade import make_turn, ran

    monkeypatch.chdir(tmp_path)
    lines = [f"2024-03-{d % 28 + 1:02d} | Depot | Van {d % 9 + 1} washed, tow bar greased | Ola | 1 h" for d in range(80)]
    lines[12] = "2024-03-05 | Depot | Old ladder rack replaced, new rack fitted to the flatbed truck, plate LR-1180 | Ola | 2 h"
    lines[40] = "2024-03-19 | Yard | Tow bar bent. New tow bar fitted to the flatbed truck, plate TB-7734 | Kim | 3 h"
    lines[61] = "2024-03-27 | Depot | Worn battery. New battery fitted to the flatbed truck, plate BT-5521 | Ola | 1 h"
    own = "Our fleet log is below.\n\nWhat's the plate on the new tow bar of the flatbed truck?"
    text = own.split("\n\n")[0] + "\n\n" + "\n".join(lines) + "\n\n" + own.split("\n\n")[1]
    shown = long_request._matching_lines(lines, own)
    assert shown.index("TB-7734") < shown.index("LR-1180") and shown.index("TB-7734") < shown.index("BT-5521")
    assert "the closest to my question first" in shown
    turn = make_turn(text, runs=(ran("print('TB')", "TB\n"),))
    turn.engine.build_prompt()
    ask = long_request.after_run(turn)
    assert ask is not None
    code = (ask.text or "").split("```python\n")[1].split("```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path).stdout
    assert out.splitlines()[0] == lines[40]
    # asked for the first such line, the log's order stays
    first = "Our fleet log is below.\n\nWhat was the first plate fitted?"
    assert long_request.closeness_words(first) == ()
    shown = long_request._matching_lines(lines, first)
    assert "the closest" not in shown and shown.index("LR-1180") < shown.index("TB-7734")


def test_a_message_said_again_and_again_shares_its_closeness() -> None:
    # ho11 (a group chat): one advert said six times held "choir" and "practice"; the one line with the rehearsal held
    # "rehearsal" only, and came after them
    lines = [f"[0{d % 9 + 1}/05/2025, 1{d % 10}:00] {['Ana', 'Bo', 'Cy'][d % 3]}: see you all soon" for d in range(80)]
    for k, at in enumerate((5, 15, 25, 35, 45, 55)):
        lines[at] = f"[0{k + 1}/05/2025, 09:0{k}] {['Ana', 'Bo', 'Cy'][k % 3]}: The music shop gives choir practice books 10% off"
    lines[30] = "[04/05/2025, 07:22] Ana: Next rehearsal: Friday 13 June at 7pm, in the church hall."
    lines[60] = "[07/05/2025, 08:00] Bo: who is bringing the rehearsal biscuits?"
    own = "Our choir chat is below.\n\nWhere is our next choir practice rehearsal?"
    shown = long_request._matching_lines(lines, own)
    assert shown.index("church hall") < shown.index("music shop")
