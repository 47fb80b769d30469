from __future__ import annotations

import pytest

from oi_local.core.rules import which_answers

from .handmade import failed, make_turn, printed, ran, reply

CODE = 'import os\nprint(max(os.path.getsize(os.path.join("data", f)) for f in os.listdir("data")))'


def test_a_which_question_answered_with_a_bare_number_is_asked_for_the_thing() -> None:
    turn = make_turn("Which file in the data folder is the largest?", reply("The output is 16500."), runs=(ran(CODE, "16500\n"),))
    ask = which_answers.follow_up(turn)
    assert ask is not None and "I asked which file, and the code printed only 16500" in (ask.text or "")
    assert ask.own and "print(max(os.listdir('data'), key=lambda f:" in (ask.text or "")  # the file, found by its size
    assert which_answers.follow_up(turn) is None  # once a turn


def test_one_number_in_the_requests_own_words_is_asked_for_the_thing() -> None:
    asked = "can you draw the temperature from greenhouse.csv as a line chart? also, which day was the hottest?"
    turn = make_turn(asked, reply("The hottest day was on 30.20 C."), runs=(ran(CODE, "The hottest day was on 30.20 C.\n"),))
    ask = which_answers.follow_up(turn)
    assert ask is not None and "I asked which day" in (ask.text or "")
    for output in ("The hottest day was 2024-06-14\n", "2024-06-14\n", "Hottest: Tuesday, 30.2 C\n"):  # the day is there
        assert which_answers.follow_up(make_turn(asked, reply("x"), runs=(ran(CODE, output),))) is None, output


def test_a_longer_sentence_round_the_number_and_its_unit_is_asked_for_the_thing() -> None:
    # ho54 dev: the city asked, the temperature printed in a sentence of the request's words
    asked = "Which city in temps.csv had the single hottest day?"
    said = "The city with the single hottest day is 39.4°C."
    turn = make_turn(asked, reply(said), runs=(ran(CODE, said + "\n"),))
    ask = which_answers.follow_up(turn)
    assert ask is not None and "I asked which city" in (ask.text or "")
    named = "The city with the single hottest day is Seville, 39.4°C."
    assert which_answers.follow_up(make_turn(asked, reply(named), runs=(ran(CODE, named + "\n"),))) is None


def test_a_max_over_the_rows_gets_the_loops_code_that_prints_the_row_it_came_from(tmp_path, monkeypatch) -> None:
    # ho54 dev: asked again for the city, the model printed the temperature again
    monkeypatch.chdir(tmp_path)
    (tmp_path / "temps.csv").write_text("date,city,max_c\n2024-07-01,Oslo,22.5\n2024-07-02,Seville,39.4\n")
    code = ('import csv\nwith open("temps.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
            'max_temp = max(float(row["max_c"]) for row in rows)\nprint(f"The hottest day is {max_temp}°C.")')
    asked = "Which city in temps.csv had the single hottest day?"
    turn = make_turn(asked, reply("The hottest day is 39.4°C."), runs=(ran(code, "The hottest day is 39.4°C.\n"),))
    ask = which_answers.follow_up(turn)
    assert ask is not None and ask.own and "I asked which city" in (ask.text or "")
    own = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    assert own.endswith("print(max(rows, key=lambda row: float(row['max_c'])))")
    assert "'city': 'Seville'" in printed(own)
    filtered = which_answers.row_code("print(min(float(r['t']) for r in rows if r['city'] != 'Oslo'))")
    assert filtered is not None and filtered.endswith("print(min((r for r in rows if r['city'] != 'Oslo'), key=lambda r: float(r['t'])))")
    assert which_answers.row_code("print(max(sizes))") is None


@pytest.mark.parametrize("request_text, thing", [
    ("which month did we pick the most of those?", "month"),
    ("Whats the hottest day in weather.csv, and what day of the week was it?", "day"),
    ("and which one of them is the oldest?", "item"),
    ("who worked the most hours in shifts.csv?", "person"),
])
def test_what_is_asked_for(request_text: str, thing: str) -> None:
    found = which_answers.asked_thing(request_text)
    assert found is not None and found[1] == thing


@pytest.mark.parametrize("request_text, output", [
    ("Which file in the data folder is the largest?", "feb.log 16500\n"),  # the name is printed
    ("what's the total of sales.csv?", "123.5\n"),  # a number is asked for
    ("what year was the oldest book written?", "1818\n"),
    ("and what would it be if we left out the lowest score?", "72.21\n"),  # no thing asked
    ("What is 3 + 4?", "7\n"),
    ("Copy the biggest file into backup", "16500\n"),  # not a question
])
def test_left_alone(request_text: str, output: str) -> None:
    assert which_answers.follow_up(make_turn(request_text, reply("Done."), runs=(ran(CODE, output),))) is None


def test_not_after_a_failed_run_nor_with_check_answers_off() -> None:
    from oi_local.core.rules import active

    turn = make_turn("Which file is the largest?", reply("It failed."), runs=(failed(CODE, "FileNotFoundError: data"),))
    assert which_answers.follow_up(turn) is None
    turn = make_turn("Which file is the largest?", reply("16500"), runs=(ran(CODE, "16500\n"),), check_answers=False)
    assert which_answers.rule not in active(turn.engine, "follow_up")


def test_in_the_loop_the_thing_is_found(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "jan.log").write_text("x" * 10)
    (tmp_path / "data" / "feb.log").write_text("x" * 30)
    # the loop's own code (the reply starts with it): the model's, and the file its largest size is from
    interp, model = scripted_interpreter([f"```python\n{CODE}\n```", "The output is 30.", "feb.log is the largest, 30 bytes."])
    interp.template = "small"
    try:
        out = interp.chat("Which file in the data folder is the largest?", display=False)
        assert [m["content"].strip() for m in out if m["type"] == "console"] == ["30", "30\nfeb.log"]
        assert out[-1]["content"] == "feb.log is the largest, 30 bytes." and model.calls == 3
    finally:
        interp.reset()


def test_a_which_question_that_asks_an_amount_too_answered_with_a_bare_name_is_asked_for_both() -> None:
    asked = "Which region sold the most in sales.csv, and what was its total?"
    turn = make_turn(asked, reply("The North region."), runs=(ran(CODE, "North\n"),))
    ask = which_answers.follow_up(turn)
    assert ask is not None and 'I asked which region and "what was its total"' in (ask.text or "")
    assert "printed only North" in (ask.text or "") and "the region and its value together" in (ask.text or "")
    assert which_answers.follow_up(turn) is None  # once a turn


@pytest.mark.parametrize("request_text, amount", [
    ("which category cost the most, and how much?", "how much"),
    ("Who worked the most shifts and the total hours they worked?", "the total hours they worked"),
    ("which day was the wettest, and what was the average rainfall?", "what was the average rainfall"),
    ("Which file is the largest?", None),
    ("which customers ordered and paid?", None),
])
def test_the_amount_asked_beside_the_thing(request_text: str, amount: str | None) -> None:
    assert which_answers.asked_amount(request_text) == amount


@pytest.mark.parametrize("request_text, output", [
    ("Which region sold the most, and what was its total?", "North 1847.35\n"),  # both printed
    ("Which region sold the most?", "North\n"),  # no amount asked: the name is the answer
    ("Which region sold the most, and what was its total?", "North\nSouth\nEast\n"),  # a list, not one name
])
def test_a_name_left_alone(request_text: str, output: str) -> None:
    assert which_answers.follow_up(make_turn(request_text, reply("North."), runs=(ran(CODE, output),))) is None


def test_still_a_number_after_the_ask_ends_saying_so() -> None:
    asked = "draw the temperature from greenhouse.csv as a line chart? also, which day was the hottest?"
    turn = make_turn(asked, reply("The hottest day was on 30.20 C."), runs=(ran(CODE, "The hottest day was on 30.20 C.\n"),))
    assert which_answers.finish(turn) is None  # not asked yet
    assert which_answers.follow_up(turn) is not None
    turn.runs.append(ran(CODE, "The hottest day was on 30.20 C.\n30.2\n"))
    assert which_answers.finish(turn) == 'This is not done: I asked which day, and the code printed only "The hottest day was on 30.20 C. 30.2".'
    turn.runs.append(ran(CODE, "2024-06-14 30.2\n"))
    assert which_answers.finish(turn) is None


def test_the_thing_alone_for_a_thing_and_its_amount_gets_the_amount_the_output_pairs_with_it() -> None:
    asked = "birds.json has our survey counts. Which site had the most birds counted altogether, and how many was that?"
    output = "defaultdict(<class 'int'>, {'Reedbed Hide': 51, 'Estuary Wall': 116, 'Oak Copse': 59})\nEstuary Wall\n"
    turn = make_turn(asked, reply("Estuary Wall"), runs=(ran(CODE, output),))
    assert which_answers.finish(turn) == "Estuary Wall: 116 (the code's output pairs them)."
    lines = "Reedbed Hide 51\nEstuary Wall 116\nOak Copse 59\n"
    assert which_answers.finish(make_turn(asked, reply("It was estuary wall."), runs=(ran(CODE, lines),))) == (
        "estuary wall: 116 (the code's output pairs them).")
    # no answer kept, the output shown as the result: the name it printed last gets its amount (ho54 dev)
    shown = "Result:\n" + output.strip()
    assert which_answers.finish(make_turn(asked, reply(shown), runs=(ran(CODE, output),))) == (
        "Estuary Wall: 116 (the code's output pairs them).")
    # An answer with a number, a name the output gives no one amount, or no amount asked: nothing added.
    assert which_answers.finish(make_turn(asked, reply("Estuary Wall, 116 birds"), runs=(ran(CODE, output),))) is None
    assert which_answers.finish(make_turn(asked, reply("Oak Copse"), runs=(ran(CODE, "Oak Copse 59\nOak Copse 12\n"),))) is None
    assert which_answers.finish(make_turn("Which site had the most birds?", reply("Estuary Wall"), runs=(ran(CODE, output),))) is None


def test_the_thing_in_the_printed_row_is_said_when_the_answer_does_not_name_it() -> None:
    asked = "Which city in temps.csv had the single hottest day?"
    output = "The city with the single hottest day is 39.4°C.\n{'date': '2024-07-10', 'city': 'Seville', 'max_c': '39.4'}\n"
    shown = "Result:\n" + output.strip()
    assert which_answers.finish(make_turn(asked, reply(shown), runs=(ran(CODE, output),))) == (
        "The city: Seville (in the row the code printed).")
    said = "The city with the single hottest day is 39.4°C."
    assert which_answers.finish(make_turn(asked, reply(said), runs=(ran(CODE, output),))) == (
        "The city: Seville (in the row the code printed).")
    named = "Seville had the hottest day, 39.4°C."
    assert which_answers.finish(make_turn(asked, reply(named), runs=(ran(CODE, output),))) is None
    other = "What was the hottest temperature in temps.csv?"  # no thing asked
    assert which_answers.finish(make_turn(other, reply(said), runs=(ran(CODE, output),))) is None
