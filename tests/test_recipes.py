"""Recipes: worked examples picked by word overlap from templates/recipes.yaml and shown to small
models before the conversation. Real recipe file, a scripted model through the public API."""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime
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


# Everyday shapes, each asked in other words than its recipe's: the recipe comes first.
@pytest.mark.parametrize("request_text, expected", [
    ("rename the files in my scans folder so there are no spaces in the names, use underscores",
     "In the recordings folder, replace the spaces"),
    ("Change all the file names in the tracks folder to lower case", "Make the names of the files in the podcasts"),
    ("Put the prefix draft_ in front of the names of all the .docx files in the essays folder", 'Add "2023_" to the front'),
    ("Organise the files in the downloads folder into subfolders by file extension", "Tidy the unsorted folder"),
    ("Sort the pictures in the phone folder into folders by year", "Move the files in the camera folder into one subfolder per year"),
    ("Which files in the documents folder have been modified during the past week?", "Which files in the homework folder"),
    ("Gather every .mp3 from the music folder and all its subfolders into a single folder called playlist",
     "Copy all the .pdf files from the papers folder"),
    ("Count the files in each subfolder of the archive folder and their total size", "For each subfolder of the clients folder"),
    ('For every .log file in the server folder, count the lines that contain both "GET" and "404"', "For each .log file in the logs"),
    ("What was my total income and total spending in transactions.csv? Negative amounts are payments",
     "How much money came in and how much went out"),
    ("How many entries in visits.csv fall on a weekend? Dates are in dd/mm/yyyy format", "How many of the shifts in rota.csv"),
    ("Work out the revenue per region from sales.csv, where revenue is quantity times unit price",
     "For each shop in shop_orders.csv"),
    ("Export the records in events.json dated after 2023-06-30 to a CSV called late_events.csv", "Write the bookings in bookings.json"),
    ('How many "blue pens" were sold in total according to sales.json, and in how many orders?', "In deliveries.json"),
    ("Are there any usernames that appear twice in accounts.csv?", "Which email addresses appear more than once"),
    ("Remove the duplicate rows from contacts.csv but keep the header", "Make each row of guests.csv appear only once"),
    ("Merge all the CSV files in the exports folder into one combined.csv with a single header", "Combine all the .csv files"),
    ("What's the mean salary per department in staff.csv?", "What is the average length of the fish of each species"),
    ("Make a bar graph of the average temperature per month from weather.csv and save it to temps.png", "Draw a bar chart"),
    ("Count the commits per author in this repo over the last month", "How many commits did each author make"),
    ("Which files were modified in the git history during the last 10 days?", "Which files were changed in this git repository"),
    ("Which day of the week was 1 January 2000?", "What day of the week is"),
    ("How many days until 25 December 2026 from 1 March 2026?", "How many days are there between"),
    # keywords added to older recipes: the smallest too, the lines of any text file
    ("Which product in stock.json has the lowest count?", "Which country in countries.json has the largest area?"),
    ("how many lines are in notes.txt?", "How many lines does app.log have?"),
])
def test_an_everyday_request_gets_its_recipe_first(request_text: str, expected: str) -> None:
    chosen = pick(request_text, 2)
    assert chosen and _requests(chosen)[0].startswith(expected), _requests(chosen)


def _recipe(start: str) -> dict:
    recipes = yaml.safe_load((bundled("templates") / "recipes.yaml").read_text())
    found = [r for r in recipes if r["request"].startswith(start)]
    assert len(found) == 1, start
    return found[0]


def _run(recipe: dict, cwd: Path) -> str:
    shell = (recipe.get("language") or "python") == "shell"
    cmd = ["bash", "-c", recipe["code"]] if shell else [sys.executable, "-c", recipe["code"]]
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_renaming_recipes_change_only_the_names(tmp_path: Path) -> None:
    _write(tmp_path, {"recordings/band practice.m4a": "a", "recordings/solo.m4a": "b",
                      "podcasts/Episode One.MP3": "c", "podcasts/two.mp3": "d"})
    assert "band practice.m4a -> band_practice.m4a" in _run(_recipe("In the recordings folder"), tmp_path)
    _run(_recipe("Make the names of the files in the podcasts"), tmp_path)
    assert _files(tmp_path) == ["podcasts/episode one.mp3", "podcasts/two.mp3",
                                "recordings/band_practice.m4a", "recordings/solo.m4a"]
    # Adapted to the user's prefix, extension and folder, it still runs; a second run adds nothing.
    _write(tmp_path, {"archive/a.txt": "", "archive/old_b.txt": "", "archive/c.csv": ""})
    prefix = adapt(_recipe('Add "2023_" to the front'), 'Add "old_" to the start of every .txt file name in the archive folder')
    _run(prefix, tmp_path)
    _run(prefix, tmp_path)
    assert _files(tmp_path / "archive") == ["c.csv", "old_a.txt", "old_b.txt"]


def test_the_sorting_recipes_move_each_file_into_its_subfolder(tmp_path: Path) -> None:
    _write(tmp_path, {"unsorted/a.pdf": "", "unsorted/B.PDF": "", "unsorted/c.jpg": "", "unsorted/README": "",
                      "camera/x.jpg": "", "camera/y.jpg": ""})
    _run(_recipe("Tidy the unsorted folder"), tmp_path)
    assert _files(tmp_path / "unsorted") == ["jpg/c.jpg", "other/README", "pdf/B.PDF", "pdf/a.pdf"]
    os.utime(tmp_path / "camera/x.jpg", (datetime(2021, 6, 1).timestamp(),) * 2)
    os.utime(tmp_path / "camera/y.jpg", (datetime(2023, 6, 1).timestamp(),) * 2)
    _run(_recipe("Move the files in the camera folder"), tmp_path)
    assert _files(tmp_path / "camera") == ["2021/x.jpg", "2023/y.jpg"]


def test_the_recently_changed_files_recipe_leaves_out_older_ones(tmp_path: Path) -> None:
    _write(tmp_path, {"homework/new.txt": "", "homework/maths/new2.txt": "", "homework/old.txt": ""})
    month_ago = time.time() - 30 * 24 * 60 * 60
    os.utime(tmp_path / "homework/old.txt", (month_ago, month_ago))
    out = _run(_recipe("Which files in the homework folder"), tmp_path)
    assert out.split() == ["homework/maths/new2.txt", "homework/new.txt"]


def test_the_copy_from_subfolders_recipe_keeps_both_of_two_same_names(tmp_path: Path) -> None:
    _write(tmp_path, {"papers/a.pdf": "1", "papers/2023/a.pdf": "2", "papers/2023/b.pdf": "3", "papers/notes.txt": ""})
    _run(_recipe("Copy all the .pdf files from the papers folder"), tmp_path)
    assert _files(tmp_path / "all_pdfs") == ["a.pdf", "b.pdf", "papers_a.pdf"]  # the second a.pdf, named by its folder
    assert len(_files(tmp_path / "papers")) == 4  # copied, not moved


def test_the_subfolder_recipe_counts_files_and_bytes(tmp_path: Path) -> None:
    _write(tmp_path, {"clients/acme/a.txt": "12345", "clients/acme/old/b.txt": "123", "clients/bolt/c.txt": "1",
                      "clients/top.txt": "ignored"})
    (tmp_path / "clients/empty").mkdir()
    out = _run(_recipe("For each subfolder of the clients folder"), tmp_path)
    assert out.splitlines() == ["acme 2 files 8 bytes", "bolt 1 files 1 bytes", "empty 0 files 0 bytes"]


def test_the_two_word_log_recipe_counts_per_file(tmp_path: Path) -> None:
    _write(tmp_path, {"logs/api.log": "ERROR timeout db\nERROR disk\nINFO timeout\nERROR timeout x\n",
                      "logs/web.log": "INFO ok\n", "logs/skip.txt": "ERROR timeout\n"})
    assert _run(_recipe("For each .log file in the logs"), tmp_path).splitlines() == ["api.log 2", "web.log 0"]


def test_the_csv_recipes_print_the_right_numbers(tmp_path: Path) -> None:
    _write(tmp_path, {
        "ledger.csv": "date,amount\n2024-01-02,1200.50\n2024-01-03,-45.25\n2024-01-09,-100\n2024-01-10,30\n",
        "rota.csv": "date,hours\n06/01/2024,8\n07/01/2024,6\n08/01/2024,8\n13/01/2024,4\n",
        "shop_orders.csv": "shop,quantity,price\nNorth,2,3.50\nSouth,1,10\nNorth,4,0.25\n",
        "signups.csv": "name,email\nAna,ana@x.org\nBo,bo@x.org\nAna B,ana@x.org \nCy,cy@x.org\n",
        "catches.csv": "species,length\npike,60\nperch,20\npike,70\nperch,25\n",
    })
    assert "in: 1230.5 out: 145.25 net: 1085.25" in _run(_recipe("How much money came in"), tmp_path)
    assert "3 of 4 on a weekend" in _run(_recipe("How many of the shifts in rota.csv"), tmp_path)
    assert _run(_recipe("For each shop in shop_orders.csv"), tmp_path).splitlines() == ["North 8.0", "South 10.0"]
    assert "1 repeated: {'ana@x.org': 2}" in _run(_recipe("Which email addresses appear"), tmp_path)
    assert _run(_recipe("What is the average length of the fish"), tmp_path).splitlines() == ["perch 22.5", "pike 65.0"]


def test_the_csv_recipes_that_write_keep_one_header(tmp_path: Path) -> None:
    _write(tmp_path, {"guests.csv": "name,diet\nAl,veg\nBea,none\nAl,veg\nAl,fish\n",
                      "monthly/jan.csv": "day,amount\n1,5\n2,6\n", "monthly/feb.csv": "day,amount\n1,7\n"})
    assert "4 rows -> 3" in _run(_recipe("Make each row of guests.csv"), tmp_path)
    assert (tmp_path / "guests.csv").read_text().splitlines() == ["name,diet", "Al,veg", "Bea,none", "Al,fish"]
    assert "3 rows written" in _run(_recipe("Combine all the .csv files"), tmp_path)
    assert (tmp_path / "year.csv").read_text().splitlines() == ["day,amount", "1,7", "1,5", "2,6"]  # feb, jan: by name


def test_the_json_recipes_read_a_list_inside_an_object(tmp_path: Path) -> None:
    bookings = {"bookings": [{"name": "Ida", "date": "2024-02-28"}, {"name": "Jo", "date": "2024-03-01", "room": 4},
                             {"name": "Kim", "date": "2024-05-10"}]}
    deliveries = [{"product": "oat milk", "quantity": 6}, {"product": "tea", "quantity": 2},
                  {"product": "oat milk", "quantity": 12}]
    _write(tmp_path, {"bookings.json": json.dumps(bookings), "deliveries.json": json.dumps(deliveries)})
    assert "2 rows written" in _run(_recipe("Write the bookings in bookings.json"), tmp_path)
    assert (tmp_path / "recent_bookings.csv").read_text().splitlines() == ["name,date,room", "Jo,2024-03-01,4", "Kim,2024-05-10,"]
    assert "2 deliveries, 18 units" in _run(_recipe("In deliveries.json"), tmp_path)


def test_the_chart_recipe_saves_a_png_without_a_window(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    _write(tmp_path, {"grades.csv": "name,class,score\nA,7b,60\nB,7a,80\nC,7b,70\n"})
    out = _run(_recipe("Draw a bar chart"), tmp_path)
    assert "{'7a': 80.0, '7b': 65.0}" in out and "saved class_scores.png" in out
    assert (tmp_path / "class_scores.png").read_bytes()[:4] == b"\x89PNG"


def test_the_git_recipes_count_commits_and_changed_files(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("no git")

    def commit(author: str, when: str, name: str) -> None:
        with open(tmp_path / name, "a") as f:
            f.write(author + when + "\n")
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        for cmd in (["git", "add", "-A"], ["git", "-c", f"user.name={author}", "-c", "user.email=x@y", "commit", "-qm", name]):
            subprocess.run(cmd, cwd=tmp_path, env=env, check=True, capture_output=True)

    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    commit("Old", "2023-01-01T10:00:00", "old.txt")
    commit("Ann", "2024-06-01T10:00:00", "a.txt")
    commit("Ann", "2024-06-02T10:00:00", "b.txt")
    commit("Bob", "2024-06-03T10:00:00", "a.txt")
    assert _run(_recipe("How many commits did each author make"), tmp_path).split() == ["2", "Ann", "1", "Bob"]
    now = time.strftime("%Y-%m-%dT%H:%M:%S")
    commit("Cy", now, "a.txt")
    commit("Cy", now, "c.txt")
    commit("Cy", now, "a.txt")
    assert _run(_recipe("Which files were changed in this git repository"), tmp_path).split() == ["2", "a.txt", "1", "c.txt"]


def test_the_date_calculations(tmp_path: Path) -> None:
    assert _run(_recipe("What day of the week is"), tmp_path).strip() == "Friday"
    assert _run(_recipe("How many days are there between"), tmp_path).strip() == "171"
