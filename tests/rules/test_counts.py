from __future__ import annotations

from oi_local.core.rules import counts

from .handmade import failed, make_turn, ran, reply

LINES = "".join(f"{w} from the orchard by the old mill\n" for w in ("apples", "pears", "plums", "figs", "quinces", "damsons"))


def test_a_how_many_question_answered_with_the_lines_listed_is_asked_for_the_count() -> None:
    turn = make_turn("how many lines are in fruit.txt", reply("The lines are:\n- apples\n- pears\n- plums\n- figs"),
                     runs=(ran("print(open('fruit.txt').read())", LINES),))
    assert counts.uncounted(turn) == "no number"
    ask = counts.follow_up(turn)
    assert ask is not None and not ask.final and "prints the count" in ask.text
    assert counts.follow_up(turn) is None  # once a turn


def test_a_numbered_list_is_not_a_count() -> None:
    numbered = "".join(f"{i} {line}" for i, line in enumerate(LINES.splitlines(keepends=True), 1))
    turn = make_turn("How many lines does fruit.txt have?", reply("1. apples\n2. pears\n3. plums\n4. figs"),
                     runs=(ran("for i, l in enumerate(open('fruit.txt'), 1): print(i, l)", numbered),))
    assert counts.uncounted(turn) == "a list instead of a number"


def test_an_answer_with_the_count_is_left_alone() -> None:
    for said in ("fruit.txt has 4 lines.", "Four lines.", "There are no lines: the file is empty.",
                 "4 lines:\n- apples\n- pears\n- plums\n- figs"):
        turn = make_turn("how many lines are in fruit.txt?", reply(said), runs=(ran("print(len(open('fruit.txt').readlines()))", "4\n"),))
        assert counts.follow_up(turn) is None, said


def test_a_two_part_question_whose_short_output_has_no_count_is_asked_for_it() -> None:
    request = "how many TODOs are left in notes/? which file has the most?"
    turn = make_turn(request, reply("notes/recipes.md is the most."), runs=(ran("print(top)", "notes/recipes.md\n"),))
    assert counts.uncounted(turn) == "no number"
    for out, said in (("11 notes/recipes.md\n", "notes/recipes.md is the most."),  # the answers rule's
                      ("notes/recipes.md\n", "None left: notes/recipes.md was the last.")):
        assert counts.uncounted(make_turn(request, reply(said), runs=(ran("print(top)", out),))) is None


def test_only_how_many_questions_after_a_clean_run() -> None:
    assert counts.follow_up(make_turn("What is in fruit.txt?", reply("apples, pears"), runs=(ran("print(1)", LINES),))) is None
    assert counts.follow_up(make_turn("Copy fruit.txt to the number of folders", reply("Copied."),
                                      runs=(ran("print(1)", LINES),))) is None
    bad = make_turn("How many lines are in fruit.txt?", reply("It failed: the file is missing."),
                    runs=(failed("open('fruit.txt')", "FileNotFoundError: fruit.txt"),))
    assert counts.follow_up(bad) is None
    assert counts.follow_up(make_turn("How many lines are in fruit.txt?", reply("I have not run anything."))) is None


def test_off_with_check_answers() -> None:
    from oi_local.core.rules import active

    turn = make_turn("how many lines are in fruit.txt", reply("apples\npears"), runs=(ran("x", LINES),), check_answers=False)
    assert counts.rule not in active(turn.engine, "follow_up")


def test_a_short_result_is_left_to_the_answers_rule() -> None:
    turn = make_turn("How many hours did Priya work?", reply("Priya is the one who worked most."),
                     runs=(ran("print(totals)", "{'Priya': 36.75, 'Marco': 21.75}\nPriya\n"),))
    assert counts.follow_up(turn) is None


def test_a_printed_list_is_counted_by_its_length_in_the_session() -> None:
    code = "import re\ntext = open('story.txt').read()\ncount = re.findall(r'harbour', text)\nprint(count)"
    output = str(["harbour"] * 23) + "\n"
    assert counts.printed_list(code, output) == "count"
    assert counts.printed_list("print(len(x))", "23\n") is None  # a number, not a list
    assert counts.printed_list("print(x, y)", "[1] [2]\n") is None
    turn = make_turn('How many times does the word "harbour" appear in story.txt?', reply("['harbour', …"),
                     runs=(ran(code, output),), template="small")
    ask = counts.follow_up(turn)
    assert ask is not None and ask.sampling["reply_prefix"] == "```python\nprint(len(count))\n```\n"
    # a list printed by other code: asked for code that prints the count, as before
    turn = make_turn('How many times does the word "harbour" appear in story.txt?', reply("['harbour', …"),
                     runs=(ran("for w in found:\n    print(w)", "harbour\n" * 23),), template="small")
    ask = counts.follow_up(turn)
    assert ask is not None and ask.sampling["reply_prefix"] == "```python\n"


def test_a_how_many_question_after_a_story_someone_wrote_is_still_asked_for_the_count() -> None:
    request = "Here is a story my grandmother wrote down:\n\nThe harbour was quiet.\n\nHow many times does \"harbour\" appear?"
    turn = make_turn(request, reply("['harbour', …"), runs=(ran("print(found)", str(["harbour"] * 23) + "\n"),))
    assert counts.uncounted(turn) == "no number"


def test_the_printed_lines_said_back_are_not_a_count_even_when_they_hold_numbers() -> None:
    out = "copied notes/2024/feb.md to backup\ncopied notes/2024/jan.md to backup\n"
    turn = make_turn("copy the .md files in notes into backup. how many did you copy?", reply(out),
                     runs=(ran("for p in Path('notes').rglob('*.md'):\n    shutil.copy(p, 'backup')\n    print(f'copied {p} to backup')", out),))
    assert counts.uncounted(turn) == "the printed lines again, not a count"
    ask = counts.follow_up(turn)  # one line for each copy: counted, and the model asked to say the number
    assert ask is not None and ask.final and ask.text == (
        'Stop writing code now. I asked how many, and the code printed one line for each: 2 lines that begin with '
        '"copied". Answer my question in one sentence, with the number.')
    mixed = "copied notes/2024/feb.md to backup\nskipped notes/x.md\n"
    turn = make_turn("copy the .md files in notes into backup. how many did you copy?", reply(mixed),
                     runs=(ran("...", mixed),))
    ask = counts.follow_up(turn)  # lines of two kinds: code that prints the count is asked for
    assert ask is not None and ask.text is not None and "prints the count" in ask.text
    turn = make_turn("copy the .md files in notes into backup. how many did you copy?", reply("I copied 2 files:\n" + out),
                     runs=(ran("...", out),))
    assert counts.uncounted(turn) is None


def test_printed_lines_said_back_that_hold_the_count_are_an_answer() -> None:
    out = "Number of active users: 4\nAverage age of active users: 37.25\n"
    turn = make_turn("how many users are active and from Canada? And what's their average age?", reply(out),
                     runs=(ran("print(...)", out),))
    assert counts.uncounted(turn) is None


def test_in_a_chat_the_lines_said_back_give_way_to_the_count(tmp_path, monkeypatch) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes").mkdir()
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / "notes" / name).write_text("x")
    code = ("import shutil, os\nos.makedirs('backup', exist_ok=True)\nfor n in sorted(os.listdir('notes')):\n"
            "    shutil.copy(os.path.join('notes', n), 'backup')\n    print(f'copied notes/{n} to backup')")
    said = "copied notes/a.md to backup\ncopied notes/b.md to backup\ncopied notes/c.md to backup"

    def count(messages: list[dict]) -> str:
        assert "3 lines that begin with" in str(messages[-1]["content"])
        return "I copied 3 files."

    interp, model = scripted_interpreter([f"```python\n{code}\n```", said, count])
    try:
        new = interp.chat("copy every .md file from notes into backup. how many did you copy?", display=False)
    finally:
        interp.close()
    answers_ = [m["content"] for m in new if m["role"] == "assistant" and m["type"] == "message"]
    assert answers_ == ["I copied 3 files."] and model.calls == 3  # the lines said back were dropped


def test_a_count_printed_before_a_silent_run_is_asked_for_as_the_answer() -> None:
    turn = make_turn("grab all the ERROR lines from server.log and put them in errors.txt. how many were there?",
                     reply("The code ran without errors and printed nothing."),
                     runs=(ran("errors = [l for l in open('server.log') if 'ERROR' in l]\nprint(len(errors))", "5\n"),
                           ran("open('errors.txt', 'w').writelines(errors)", "")))
    ask = counts.follow_up(turn)
    assert ask is not None and ask.final and ask.text is not None and "an output above printed the count" in ask.text


def test_a_task_that_begins_with_count_is_asked_for_the_count_it_never_printed() -> None:
    # ho54 dev: the lines were saved, nothing printed, and the silent run's words ended the turn
    request = "Count how many lines in app.log contain ERROR, and save just those lines into a new file called errors.txt."
    code = "lines = [l for l in open('app.log') if 'ERROR' in l]\nopen('errors.txt', 'w').writelines(lines)"
    turn = make_turn(request, reply("The code ran without errors and printed nothing."), runs=(ran(code, ""),))
    ask = counts.follow_up(turn)
    # the list the silent run kept is still there: its length is the count
    assert ask is not None and not ask.final and "`lines` holds what it picked" in (ask.text or "")
    assert "print(len(lines))" in (ask.text or "")
    unkept = "open('errors.txt', 'w').writelines(l for l in open('app.log') if 'ERROR' in l)"
    ask = counts.follow_up(make_turn(request, reply("Done."), runs=(ran(unkept, ""),)))
    assert ask is not None and "prints the count" in (ask.text or "")
    said = "There are 7 ERROR lines, saved in errors.txt."
    assert counts.follow_up(make_turn(request, reply(said), runs=(ran(code + "\nprint(len(lines))", "7\n"),))) is None
    # not a count's verb: "Copy the ERROR lines into errors.txt, the number of them doesn't matter"
    other = "Copy the ERROR lines of app.log into errors.txt, the number of them doesn't matter."
    assert counts.follow_up(make_turn(other, reply("Done."), runs=(ran(code, ""),))) is None


def test_the_list_a_silent_run_picked() -> None:
    assert counts.picked_list("with open('a') as f:\n    lines = f.readlines()\n    lines = [l for l in lines if 'E' in l]") == "lines"
    assert counts.picked_list("lines = [l for l in open('a')]") is None  # nothing picked
    assert counts.picked_list("def f():\n    x = [l for l in open('a') if l]\n    return x") is None  # not kept
