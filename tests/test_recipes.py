"""Recipes: worked examples picked by word overlap from templates/recipes.yaml and shown to small
models before the conversation. Real recipe file, a scripted model through the public API."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from scripted import scripted_interpreter

from oi_local._paths import bundled
from oi_local.core.recipes import MIN_SCORE, adapt, as_messages, pick, words


def _requests(recipes: list[dict]) -> list[str]:
    return [r["request"].split("\n\n")[0] for r in recipes]


@pytest.mark.parametrize("request_text, expected", [
    ("Rename all the .log files in the archive folder so they end in .txt", "Rename every .txt file"),
    ("Move the .mp3 files into a new folder called audio", "Move all the .png images"),
    ("How many lines of error.log contain the word TODO?", "How many lines in build.log contain"),
    ("Commit all my changes to a new git repo", "Turn the current folder into a git repository"),
    ("In prefs.json set the language to fr, keep the rest", 'In settings.json, set "theme"'),
])
def test_the_closest_recipe_comes_first(request_text: str, expected: str) -> None:
    chosen = pick(request_text, 2)
    assert chosen and _requests(chosen)[0].startswith(expected), _requests(chosen)


@pytest.mark.parametrize("request_text", ["Tell me a joke", "hi", "What is 2 + 2?", "What time is it?", ""])
def test_chat_and_unrelated_requests_get_none(request_text: str) -> None:
    assert pick(request_text, 2) == []


def test_numbers_and_filler_words_do_not_count() -> None:
    assert words("How many of the 3 files are there?") == set()
    assert words("Renamed the photos") == {"renam", "photo"}


def test_the_picks_are_capped_and_a_weak_second_is_left_out() -> None:
    assert len(pick("How many lines in server.log contain ERROR?", 1)) == 1
    assert pick("How many lines in server.log contain ERROR?", 0) == []
    both = pick("What is the total size in bytes of the files in the logs folder?", 5)
    assert 1 <= len(both) <= 5


def test_a_second_pick_that_only_adds_a_condition_is_left_out() -> None:
    # Both share only "lines" and the log with the request; the second adds "contain the word".
    chosen = _requests(pick("How many lines are in server.log?", 2))
    assert chosen and chosen[0].startswith("How many lines does app.log have?"), chosen
    assert not any("contain" in r for r in chosen), chosen
    # A second pick that matches a word the first does not ("orders") is still shown.
    chosen = _requests(pick("How many orders in orders.csv have the status shipped?", 2))
    assert len(chosen) == 2 and chosen[1].startswith("What is the sum of the price column in orders"), chosen


def test_every_recipe_is_valid_code() -> None:
    recipes = yaml.safe_load((bundled("templates") / "recipes.yaml").read_text())
    assert len(recipes) >= 30
    for r in recipes:
        assert r["request"].strip() and r["code"].strip()
        assert all(isinstance(k, str) for k in r.get("keywords") or []), r["request"]
        if (r.get("language") or "python") == "python":
            ast.parse(r["code"])
        else:
            assert subprocess.run(["bash", "-n"], input=r["code"], text=True).returncode == 0


def test_a_recipe_really_does_its_task(tmp_path: Path) -> None:
    # The rename recipe run for real in a folder like the one its request describes.
    (tmp_path / "notes").mkdir()
    for name in ("a.txt", "b.txt", "keep.csv"):
        (tmp_path / "notes" / name).write_text("x")
    recipe = pick("Rename every .txt file in the notes folder so that it ends in .md instead.", 1)[0]
    out = subprocess.run([sys.executable, "-c", recipe["code"]], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == ["a.md", "b.md", "keep.csv"]


def test_recipes_reach_a_small_model_before_the_conversation_and_are_not_stored(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    interp, model = scripted_interpreter(["```python\nprint(3)\n```", "3 lines."])
    interp.template = "small"
    try:
        interp.chat("How many lines in server.log contain the word ERROR?", display=False)
        prompt = model.prompts[0]
        shown = [m["content"] for m in prompt]
        # The recipe is shown with the user's file name and word (a small model copies names along).
        i = shown.index("How many lines in server.log contain the word ERROR?")
        assert prompt[i + 1] == {"role": "assistant", "content": '```shell\ngrep -c "ERROR" server.log\n```'}
        assert prompt[-1]["content"].startswith("How many lines in server.log")  # the request comes after
        assert all("WARNING" not in str(m.get("content")) for m in interp.messages)
        # The same examples for every call of the turn (an unchanged prefix keeps the KV cache warm).
        assert model.prompts[1][: len(prompt) - 1] == prompt[:-1]
    finally:
        interp.close()


def test_no_recipes_for_risky_requests_plain_prompts_or_when_off(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    grep = "How many lines in build.log contain the word WARNING?"
    for setup, text in [
        ({"template": "small"}, "My disk is full. Delete the biggest files in my home folder to free up space."),
        ({}, "How many lines in server.log contain the word ERROR?"),  # a function model: the plain set
        ({"template": "small", "recipes": 0}, "How many lines in server.log contain the word ERROR?"),
    ]:
        interp, model = scripted_interpreter(["No."])
        for k, v in setup.items():
            setattr(interp, k, v)
        try:
            interp.chat(text, display=False)
            assert grep not in [m["content"] for m in model.prompts[0]], setup
        finally:
            interp.close()


def test_recipes_give_way_to_the_conversation_when_the_context_is_short(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    interp, model = scripted_interpreter(["ok"] * 5, code_first=False)
    interp.template = "small"
    try:
        base = len(interp.build_prompt())
        interp.messages = [{"role": "user", "type": "message", "content": "How many lines in server.log contain ERROR? " + "x " * 40}]
        with_recipes = interp.build_prompt()
        assert len(with_recipes) > base
        interp.llm.context_window = interp.llm.max_tokens + interp.last_trim.prompt_tokens - 20
        squeezed = interp.build_prompt()
        assert squeezed[-1]["content"].startswith("How many lines in server.log")
        assert "How many lines in build.log contain the word WARNING?" not in [m["content"] for m in squeezed]
    finally:
        interp.close()


def test_as_messages_shows_the_language() -> None:
    msgs = as_messages([{"request": "count lines", "code": "wc -l f\n", "language": "shell"}])
    assert msgs == [{"role": "user", "content": "count lines"}, {"role": "assistant", "content": "```shell\nwc -l f\n```"}]
    assert MIN_SCORE > 0



def test_a_recipe_is_shown_with_the_users_names_where_they_map_one_to_one() -> None:
    rename = pick("Rename every .txt file in the notes folder so that it ends in .md instead.", 1)[0]
    mine = adapt(rename, "Rename every .jpeg file in the photos folder so that it ends in .jpg instead.")
    assert mine["request"] == "Rename every .jpeg file in the photos folder so that it ends in .jpg instead."
    assert 'Path("photos").glob("*.jpeg")' in mine["code"] and 'with_suffix(".jpg")' in mine["code"]
    assert rename["code"].count("notes") == 1  # the library itself is untouched
    # Two files named where the recipe has one: file names are left alone, the folder still maps.
    copy = pick("Make a copy of budget.xlsx called budget_old.xlsx.", 1)[0]
    assert adapt(copy, "Copy a.txt and b.txt and c.txt") is copy
    assert adapt(copy, "Make a copy of plan.md called plan_v1.md.")["code"].count("plan_v1.md") == 2
    # "PDF files" names an extension too.
    move = pick("Move all the .png images in this folder into a new subfolder called images.", 1)[0]
    moved = adapt(move, "Move all the PDF files in this folder into a new subfolder called pdfs.")["code"]
    assert 'glob("*.pdf")' in moved and 'Path("pdfs")' in moved
    # "this folder" is "." (the 0.5B model searched the recipe's "reports" folder for the user's files).
    count = pick("How many .csv files are there in the reports folder and its subfolders?", 1)[0]
    here = adapt(count, "How many Python (.py) files are there in this folder, including its subfolders?")
    assert here["request"] == "How many .py files are there in this folder and its subfolders?"
    assert 'Path(".").rglob("*.py")' in here["code"] and "reports" not in here["code"]
    # Quoted text too (the 0.5B model appended the recipe's "call mum" and a line of its own).
    append = pick('Add the line "call mum" at the end of todo.txt.', 1)[0]
    mine = adapt(append, 'Add "milk" as a new last line to shopping.txt.')
    assert 'f.write("milk\\n")' in mine["code"] and "call mum" not in mine["code"] + mine["request"]
    # "the word X" is such text (shown "the word WARNING" as it was, the 0.5B model counted WARNING for ERROR).
    word = pick("How many lines in build.log contain the word WARNING?", 1)[0]
    mine = adapt(word, "How many lines in server.log contain the word ERROR?")
    assert "ERROR" in mine["code"] and "WARNING" not in mine["code"] + mine["request"]


def test_a_calculation_is_not_shown_for_a_request_about_files() -> None:
    assert pick("How many seconds are there in 4 weeks?", 1)[0]["request"].startswith("How many seconds")
    assert not any("seconds" in r["request"] for r in pick("How many seconds of audio are in clips.csv?", 2))


def test_a_recipe_about_another_kind_of_file_is_not_picked() -> None:
    assert pick("sum_to.py should print the sum of the numbers from 1 to 100. Fix it.", 2) == []
    assert pick("What is the sum of the price column in prices.csv?", 1)[0]["request"].startswith("What is the sum of the price column")


def test_a_recipe_whose_files_would_become_another_kind_is_not_picked() -> None:
    # its sales_staff.csv would be shown as temps.png: rows written "into a new file temps.png"
    assert not any("Save the rows" in r["request"] for r in
                   pick("Draw a line chart of the daily temperatures in weather.csv and save it as temps.png.", 2))
    assert pick("Save the rows of people.csv where the city is Oslo into a new file oslo.csv", 1)[0]["request"].startswith(
        "Save the rows of staff.csv")
    # a recipe for any kind of file still fits (the find-a-file one for budget_2025.xlsx: left out, the copy
    # recipe was shown and the model joined a path instead of searching, ho4-shell-find-file)
    found = pick("I saved a file called budget_2025.xlsx somewhere inside the projects folder. What is its path?", 1)
    assert found and found[0]["request"].startswith("Where is the file called")
