from __future__ import annotations

import json

import pytest

from oi_local.core.rules import told_numbers

from .handmade import failed, make_turn, ran, reply

WRITE = 'import json\nb = {"rent": 950, "utilities": 140}\njson.dump(b, open("budget.json", "w"))\nprint("budget.json updated")'
ASKED = "Oh I forgot utilities, that's 140 a month. Add it to the file and tell me the new monthly total."


def test_a_change_that_asks_to_be_told_a_number_and_printed_none_is_asked_for_it() -> None:
    turn = make_turn(ASKED, reply("budget.json updated."), runs=(ran(WRITE, "budget.json updated\n"),))
    ask = told_numbers.follow_up(turn)
    assert ask is not None and "tell me the new monthly total, and nothing printed it" in (ask.text or "")
    assert ask.sampling.get("temperature") and told_numbers.follow_up(turn) is None  # once a turn


@pytest.mark.parametrize("request_text, what", [
    (ASKED, "the new monthly total"),
    ("copy the pdfs into archive and let me know how many there were", "how many there were"),
    ("Rename them and show me the total size", "the total size"),
    ("tell me the name of the newest file", None),  # not a number
    ("What is the total of sales.csv?", None),  # asked, not told (fresh retries see to questions)
    ("Which site in survey.csv had the most birds, and how many?", "how many"),
    ("who sold the most in q3.csv and how much did they sell", "how much did they sell"),
    ("how many birds were seen and which site had the most?", None),  # the number is the question itself
])
def test_what_is_to_be_told(request_text: str, what: str | None) -> None:
    assert told_numbers.told(request_text) == what


@pytest.mark.parametrize("output", ["budget.json updated, total 1495\n", "{'rent': 950}\n"])
def test_left_alone_when_a_run_printed_a_number(output: str) -> None:
    assert told_numbers.follow_up(make_turn(ASKED, reply("Done."), runs=(ran(WRITE, output),))) is None


def test_not_after_a_failed_run_nor_with_check_answers_off() -> None:
    from oi_local.core.rules import active

    turn = make_turn(ASKED, reply("It failed."), runs=(failed(WRITE, "PermissionError: budget.json"),))
    assert told_numbers.follow_up(turn) is None
    turn = make_turn(ASKED, reply("Done."), runs=(ran(WRITE, "ok\n"),), check_answers=False)
    assert told_numbers.rule not in active(turn.engine, "follow_up")


def test_in_the_loop_the_number_is_printed(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "budget.json").write_text('{"rent": 950, "groceries": 320, "transport": 85}')
    add = ('import json\nb = json.load(open("budget.json"))\nb["utilities"] = 140\n'
           'json.dump(b, open("budget.json", "w"))\nprint("budget.json updated")')
    total = 'import json\nprint(sum(json.load(open("budget.json")).values()))'
    interp, model = scripted_interpreter([f"```python\n{add}\n```", "budget.json updated.", f"```python\n{total}\n```",
                                          "The new monthly total is 1495."])
    interp.template = "small"
    try:
        out = interp.chat(ASKED.replace("the file", "budget.json"), display=False)
        assert [m["content"].strip() for m in out if m["type"] == "console"] == ["budget.json updated", "1495"]
        assert out[-1]["content"] == "The new monthly total is 1495." and model.calls == 4
        assert json.loads((tmp_path / "budget.json").read_text())["utilities"] == 140
    finally:
        interp.reset()


def test_a_two_part_question_answered_by_a_name_alone_is_asked_for_the_number() -> None:
    code = "import csv\nrows = list(csv.DictReader(open('survey.csv')))\nprint(max(rows, key=lambda r: int(r['birds']))['site'])"
    turn = make_turn("Which site in survey.csv had the most birds, and how many?", reply("Fen Lane."),
                     runs=(ran(code, "Fen Lane\n"),))
    ask = told_numbers.follow_up(turn)
    assert ask is not None and "how many, and nothing printed it" in (ask.text or "")


def test_a_change_that_asks_to_be_told_a_name_and_printed_nothing_is_asked_for_it() -> None:
    # ho57: the sorted names were written, nothing printed, "The code ran without errors and printed nothing."
    request = "Sort the names in team.txt alphabetically and save the file. Then tell me whose name comes first now."
    code = "names = sorted(open('team.txt').read().split())\nopen('team.txt', 'w').write('\\n'.join(names))"
    ask = told_numbers.follow_up(make_turn(request, reply("Done."), runs=(ran(code, ""),)))
    assert ask is not None and "tell me whose name comes first now, and nothing printed it" in (ask.text or "")
    # something printed: the answer may be in it
    assert told_numbers.follow_up(make_turn(request, reply("Ada."), runs=(ran(code, "Ada\n"),))) is None
    assert told_numbers.follow_up(make_turn("tidy team.txt", reply("Done."), runs=(ran(code, ""),))) is None
