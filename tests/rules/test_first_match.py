from __future__ import annotations

import pytest

from oi_local.core.rules import first_match

from .handmade import block, make_turn

DESIGNERS = ('import json\ndata = json.load(open("team.json"))\n'
             'designs = [g for g in data["people"] if g["department"] == "design"]\nprint(designs[0]["name"])')


@pytest.mark.parametrize("request_text, code", [
    ("Who's the oldest person in the design department? The staff list is in team.json.", DESIGNERS),
    ("which file in lists has the most lines?", 'import os\nfiles = os.listdir("lists")\nprint(files[0])'),
    ("what is the cheapest item in menu.csv?", 'import pandas as pd\ndf = pd.read_csv("menu.csv")\nprint(df.iloc[0])'),
    ("the biggest order in orders.json?", 'print(next(o for o in orders if o["total"]))'),
])
def test_a_first_match_printed_for_a_superlative_is_asked_afresh(request_text: str, code: str) -> None:
    turn = make_turn(request_text)
    verdict = first_match.check(turn, block(code))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note.startswith("Not run: the code prints the first match it finds")
    assert "max() or min()" in str(verdict.ask.text)
    assert first_match.check(turn, block(code)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    ("Who's the oldest person in the design department?", DESIGNERS.replace("designs[0]", "min(designs, key=lambda g: g['born'])")),
    ("what's the latest entry in app.log?", 'lines = open("app.log").read().splitlines()\nprint(lines[-1])'),  # time order
    ("what's the first line of notes.txt?", 'print(open("notes.txt").readlines()[0])'),  # no superlative
    ("which are the top 3 scores?", 'print(sorted(scores, reverse=True)[:3][0])'),  # ranked
])
def test_left_alone(request_text: str, code: str) -> None:
    assert first_match.check(make_turn(request_text), block(code)) is None


PICKED = ('import re\nword = "harbour"\ntext = open("reviews.txt").read()\n'
          'n = len(re.findall(r"\\b" + re.escape(word) + r"\\b", text, re.IGNORECASE))\nprint(word, "appears", n, "times")')


def test_a_word_the_code_picked_for_a_most_question_is_asked_afresh_without_examples() -> None:
    turn = make_turn("Which word appears most often in reviews.txt, and how many times?")
    verdict = first_match.check(turn, block(PICKED))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide and verdict.ask.drop_recipes
    assert '"harbour"' in verdict.note and "collections.Counter" in str(verdict.ask.text)


@pytest.mark.parametrize("request_text, code", [
    ("How often does harbour appear in reviews.txt? Is it the most common word?", PICKED),  # the request gives it
    ("How many times does a word appear most in reviews.txt?", PICKED.replace("print(word", "print(max([n]), word")),  # ranked
    ("Count the word harbour in reviews.txt", PICKED),  # no superlative
    ("Which of the lines in reviews.txt is the longest?", 'text = open("reviews.txt").read()\nsep = "\\n"\nprint(len(text))'),
])
def test_picked_words_left_alone(request_text: str, code: str) -> None:
    assert first_match.check(make_turn(request_text), block(code)) is None
