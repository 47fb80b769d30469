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
    ("keep just the first row per email address in members.csv and write it to members_clean.csv",
     "Keep only the first row for each phone number in callers.csv"),
    ("put my photos in the snaps folder into a folder for each year, the date is in the file name",
     "Move the files in the camera folder into one subfolder per year"),
    ("how many hours did the team log on saturdays and sundays in log.csv? dates are day/month/year",
     "How many of the shifts in rota.csv were on a Saturday or Sunday"),
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
    ("Join all the .txt letters in the letters folder into one file, oldest first (names begin with the date), "
     "each letter's name on a line above it", "Merge the .md entries in the journal folder"),
    ("Looking at takings.csv, which was the busiest month, and what did it bring in?", "What were the monthly totals"),
    ("Duplicate menu.txt as menu_summer.txt and change every 'soup' to 'salad' in the new one, don't touch the original",
     "Copy flyer.txt to flyer_final.txt"),
    ("Make a spreadsheet (csv) from orders.json: a row per order with the id, the customer's name and what the order "
     "comes to, qty times price over its items", "Turn jobs.json into jobs.csv"),
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
                      "camera/x.jpg": "", "camera/y.jpg": "", "camera/IMG_20190704_1200.jpg": ""})
    _run(_recipe("Tidy the unsorted folder"), tmp_path)
    assert _files(tmp_path / "unsorted") == ["jpg/c.jpg", "other/README", "pdf/B.PDF", "pdf/a.pdf"]
    os.utime(tmp_path / "camera/x.jpg", (datetime(2021, 6, 1).timestamp(),) * 2)
    os.utime(tmp_path / "camera/y.jpg", (datetime(2023, 6, 1).timestamp(),) * 2)
    # the year a name gives comes first (its file was changed in 2023)
    os.utime(tmp_path / "camera/IMG_20190704_1200.jpg", (datetime(2023, 6, 1).timestamp(),) * 2)
    _run(_recipe("Move the files in the camera folder"), tmp_path)
    assert _files(tmp_path / "camera") == ["2019/IMG_20190704_1200.jpg", "2021/x.jpg", "2023/y.jpg"]


def test_the_recently_changed_files_recipe_leaves_out_older_ones(tmp_path: Path) -> None:
    _write(tmp_path, {"homework/new.txt": "", "homework/maths/new2.txt": "", "homework/old.txt": ""})
    month_ago = time.time() - 30 * 24 * 60 * 60
    os.utime(tmp_path / "homework/old.txt", (month_ago, month_ago))
    out = _run(_recipe("Which files in the homework folder"), tmp_path)
    assert out.split() == ["homework/maths/new2.txt", "homework/new.txt"]


def test_the_copy_from_subfolders_recipe_keeps_both_of_two_same_names(tmp_path: Path) -> None:
    _write(tmp_path, {"papers/a.pdf": "1", "papers/2023/a.pdf": "2", "papers/2023/b.pdf": "3", "papers/notes.txt": ""})
    _run(_recipe("Copy all the .pdf files from the papers folder"), tmp_path)
    assert _files(tmp_path / "gathered") == ["a.pdf", "b.pdf", "papers_a.pdf"]  # the second a.pdf, named by its folder
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
    assert _run(_recipe("For each .log file in the logs"), tmp_path).splitlines() == [
        "{'api.log': 2, 'web.log': 0}", "total: 2 most: api.log"]


def test_the_csv_recipes_print_the_right_numbers(tmp_path: Path) -> None:
    _write(tmp_path, {
        "ledger.csv": "date,amount\n2024-01-02,1200.50\n2024-01-03,-45.25\n2024-01-09,-100\n2024-01-10,30\n",
        "rota.csv": "date,hours\n06/01/2024,8\n07/01/2024,6\n08/01/2024,8\n13/01/2024,4\n",
        "shop_orders.csv": "shop,quantity,price\nNorth,2,3.50\nSouth,1,10\nNorth,4,0.25\n",
        "signups.csv": "name,email\nAna,ana@x.org\nBo,bo@x.org\nAna B,ana@x.org \nCy,cy@x.org\n",
        "catches.csv": "species,length\npike,60\nperch,20\npike,70\nperch,25\n",
    })
    assert "in: 1230.5 out: 145.25 net: 1085.25" in _run(_recipe("How much money came in"), tmp_path)
    assert _run(_recipe("How many of the shifts in rota.csv"), tmp_path).splitlines() == ["3 of 4 on a weekend", "hours on weekends: 18.0"]
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
    _write(tmp_path, {"quiz_rounds.csv": "name,team,score\nA,7b,60\nB,7a,80\nC,7b,70\n"})
    out = _run(_recipe("Draw a bar chart"), tmp_path)
    assert "{'7a': 80.0, '7b': 65.0}" in out and "saved team_scores.png" in out
    assert (tmp_path / "team_scores.png").read_bytes()[:4] == b"\x89PNG"


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


# The second batch: everyday shapes the library still missed, each asked in other words than its recipe's.
@pytest.mark.parametrize("request_text, expected", [
    ("what's the oldest file in my archive folder?", "Which file in the attic folder was changed longest ago"),
    ("list everything in the projects folder sorted by size, largest first", "List the files in the shelf folder"),
    ("remove the files in the tmp folder that haven't been modified in 60 days", "Delete the files in the spool folder"),
    ("zip up the photos folder into photos_backup.zip, including subfolders", "Zip the moodboard folder"),
    ("put the .pdf files from the receipts folder into receipts_2024.zip", "Make a zip file tax_papers.zip"),
    ("unzip backup.zip into a folder called restored", "Unpack parcel.zip"),
    ("count the files in the desktop folder by extension", "How many files of each kind"),
    ("find the empty directories under the projects folder", "Which folders inside the workshop folder are empty?"),
    ("which city in cities.csv has the largest population? show the whole row", "Which hike in hikes.csv"),
    ("what are the 3 cheapest products in catalog.csv?", "What are the 5 most expensive dishes"),
    ("can you sort scores.csv by score from highest to lowest and save it", "Sort the rows of rainfall.csv"),
    ("what share of the votes did each party get in election.csv, as a percentage?", "What percentage of all the votes"),
    ("how many orders per status are there in orders.csv? give me a breakdown", "How many incidents of each type"),
    ("how many unique values are in the country column of visitors.csv", "Which different genres"),
    ("save the rows of products.csv where the price is over 20 into expensive.csv", "Save the rows of flats.csv"),
    ("list the names of the students in scores.csv who scored below 50", "Which pupils in spelling_quiz.csv"),
    ("which rows in events.csv have a date between 2024-01-01 and 2024-03-31?", "Which entries in checkins.csv"),
    ("what are the totals per month in expenses.csv?", "What were the monthly totals"),
    ("convert the distance column in runs.csv from km to miles and add it as a new column", "Add a column km to walks.csv"),
    ("plot the closing price over time from stock_prices.csv as a line chart and save it as prices.png", "Draw a line chart"),
    ("list all the tags used across the posts in posts.json and how often each is used", "Which skills do the people"),
    ("which users in users.json don't have a phone number", "Which records in roster.json"),
    ("sort the products in products.json by price and save them back", "Sort the plants in plants_db.json"),
    ("change the price of the item with id 3 in items.json to 9.99", "In stockroom.json, set the quantity"),
    ("how many tasks in tasks.json are there for each status?", "How many tickets in helpdesk.json"),
    ('how often does the word "whale" appear in moby.txt? any case', 'How many times does the word "otter"'),
    ("what are the 20 most frequent words in speech.txt", "What are the 10 most common words"),
    ("show me the 3rd line of todo.txt", "What does line 7 of recital.txt say?"),
    ("what is the longest line in poem.txt", "Which line of lyrics.txt is the longest?"),
    ("show me all lines in journal.txt that mention python, ignoring case", "Which lines of logbook.txt"),
    ('replace every "colour" with "color" in report.txt', "In letter.txt, replace every"),
    ("how old is someone born on 12 May 1990?", "How old is someone born on"),
    ("what date will it be 90 days after 3 may 2025?", "What date is 45 days after"),
    ("what's the percentage increase from 1200 to 1500?", "By what percentage did it go up"),
    ("how many kilometres is 26.2 miles?", "Convert 26.2 miles to kilometres."),
    ("can you collect all the e-mail addresses in inbox_dump.txt into a list, no repeats", "Pull every email address out"),
    ("find all the urls in notes.md and put them in a file", "List every web link in bookmarks.md"),
])
def test_a_second_batch_request_gets_its_recipe_first(request_text: str, expected: str) -> None:
    chosen = pick(request_text, 2)
    assert chosen and _requests(chosen)[0].startswith(expected), _requests(chosen)


def test_second_batch_requests_that_must_not_move() -> None:
    # Requests the new recipes could have taken: a bare conversion goes to the calculation, not the CSV column
    # recipe; a question that says not to delete is not shown the deletion; a plain total keeps its recipe.
    assert _requests(pick("convert 5 miles to km", 1))[0].startswith("Convert 26.2 miles")
    website = _requests(pick("which files in website/ are older than 2024? I want to tidy out the old junk but "
                             "don't delete anything yet", 2))
    assert not any(r.startswith("Delete the files in the spool") for r in website), website
    assert _requests(pick("What is the total of the amount column in sales.csv?", 1))[0].startswith("How much money came in")
    # "second" is not an ordinal of the line-number recipe here
    assert not any(r.startswith("What does line 7") for r in _requests(pick("How many seconds are there in 3 days?", 2)))


def _ago(path: Path, days: float) -> None:
    when = time.time() - days * 24 * 60 * 60
    os.utime(path, (when, when))


def test_the_second_batch_folder_recipes(tmp_path: Path) -> None:
    _write(tmp_path, {"attic/new.txt": "n", "attic/old.txt": "o", "attic/mid.txt": "m",
                      "shelf/small.txt": "1", "shelf/big.txt": "12345", "shelf/mid.txt": "123",
                      "spool/fresh.tmp": "", "spool/stale.tmp": "", "spool/sub/stale2.tmp": "",
                      "storeroom/a.PDF": "", "storeroom/b.pdf": "", "storeroom/c.jpg": "", "storeroom/README": "",
                      "workshop/full/x.txt": "x"})
    for name, days in (("attic/new.txt", 1), ("attic/old.txt", 400), ("attic/mid.txt", 30),
                       ("spool/stale.tmp", 45), ("spool/sub/stale2.tmp", 45)):
        _ago(tmp_path / name, days)
    (tmp_path / "workshop/empty1").mkdir()
    (tmp_path / "workshop/full/empty2").mkdir()
    assert _run(_recipe("Which file in the attic folder"), tmp_path).startswith("oldest: old.txt last modified")
    assert [line.split()[0] for line in _run(_recipe("List the files in the shelf folder"), tmp_path).splitlines()] == \
        ["big.txt", "mid.txt", "small.txt"]
    assert _run(_recipe("Delete the files in the spool folder"), tmp_path).splitlines() == ["deleted spool/stale.tmp"]
    assert _files(tmp_path / "spool") == ["fresh.tmp", "sub/stale2.tmp"]  # a subfolder's files are left alone
    assert _run(_recipe("How many files of each kind"), tmp_path).splitlines() == [".pdf 2", "(none) 1", ".jpg 1"]
    assert _run(_recipe("Which folders inside the workshop folder"), tmp_path).splitlines() == \
        ["empty: workshop/empty1", "empty: workshop/full/empty2"]


def test_the_zip_recipes_pack_and_unpack(tmp_path: Path) -> None:
    import zipfile

    _write(tmp_path, {"moodboard/a.png": "a", "moodboard/2024/b.png": "b", "paperwork/tax.pdf": "t",
                      "paperwork/notes.txt": "n", "paperwork/bill.pdf": "b"})
    _run(_recipe("Zip the moodboard folder"), tmp_path)
    with zipfile.ZipFile(tmp_path / "moodboard.zip") as z:
        assert sorted(z.namelist()) == ["moodboard/2024/b.png", "moodboard/a.png"]
    assert "2 files in tax_papers.zip" in _run(_recipe("Make a zip file tax_papers.zip"), tmp_path)
    with zipfile.ZipFile(tmp_path / "tax_papers.zip") as z:
        assert sorted(z.namelist()) == ["bill.pdf", "tax.pdf"]
    (tmp_path / "moodboard.zip").rename(tmp_path / "parcel.zip")
    out = _run(_recipe("Unpack parcel.zip"), tmp_path)
    assert "extracted moodboard/a.png" in out
    assert (tmp_path / "unpacked/moodboard/2024/b.png").read_text() == "b"


def test_the_second_batch_csv_questions(tmp_path: Path) -> None:
    _write(tmp_path, {
        "hikes.csv": "name,km\nRidge,12.5\nLake,4\nSummit,21.1\n",
        "bistro_menu.csv": "dish,price\nsoup,4.5\nsteak,22\nsalad,7\nfish,18.5\nbread,2\npie,9\ncake,6\n",
        "incidents.csv": "day,type\n1,fall\n2,burn\n3,fall \n4,cut\n5,fall\n",
        "ballots.csv": "candidate,votes\nAda,30\nBo,10\nAda,20\nCy,40\n",
        "albums.csv": "title,genre\nA,jazz\nB,rock\nC,jazz\nD, folk\n",
        "spelling_quiz.csv": "name,score\nAmy,48\nBen,50\nCal,12.5\n",
        "checkins.csv": "date,place\n2024-03-31,gym\n2024-04-01,pool\n2024-04-30,park\n2024-05-01,gym\n",
        "outgoings.csv": "date,amount\n2024-01-05,10.5\n2024-02-01,3\n2024-01-30,4.25\n",
    })
    out = _run(_recipe("Which hike in hikes.csv"), tmp_path).splitlines()
    assert out == ["highest: {'name': 'Summit', 'km': '21.1'}", "lowest: {'name': 'Lake', 'km': '4'}"]
    assert _run(_recipe("What are the 5 most expensive dishes"), tmp_path).split("\n")[:5] == \
        ["steak 22", "fish 18.5", "pie 9", "salad 7", "cake 6"]
    assert _run(_recipe("How many incidents of each type"), tmp_path).splitlines() == ["fall 3", "burn 1", "cut 1"]
    assert _run(_recipe("What percentage of all the votes"), tmp_path).splitlines() == \
        ["Ada 50.0 50.0%", "Cy 40.0 40.0%", "Bo 10.0 10.0%"]
    assert _run(_recipe("Which different genres"), tmp_path).strip() == "3 different: ['folk', 'jazz', 'rock']"
    assert _run(_recipe("Which pupils in spelling_quiz.csv"), tmp_path).strip() == "2 names: ['Amy', 'Cal']"
    out = _run(_recipe("Which entries in checkins.csv"), tmp_path)
    assert "'pool'" in out and "'park'" in out and "gym" not in out and out.splitlines()[-1] == "2 rows"
    assert _run(_recipe("What were the monthly totals"), tmp_path).splitlines() == ["2024-01 14.75", "2024-02 3.0", "highest: 2024-01 14.75"]


def test_the_second_batch_csv_changes_keep_the_header(tmp_path: Path) -> None:
    _write(tmp_path, {"rainfall.csv": "town,mm\nA,3.5\nB,12\nC,0\n",
                      "flats.csv": "street,sqm,rent\nOak,55,700\nElm,72,950\nAsh,60,800\nYew,101,1400\n",
                      "walks.csv": "route,miles\nloop,3\ncoast,10.5\n"})
    assert "3 rows sorted" in _run(_recipe("Sort the rows of rainfall.csv"), tmp_path)
    assert (tmp_path / "rainfall.csv").read_text().splitlines() == ["town,mm", "B,12", "A,3.5", "C,0"]
    assert "2 rows saved to roomy_flats.csv" in _run(_recipe("Save the rows of flats.csv"), tmp_path)
    assert (tmp_path / "roomy_flats.csv").read_text().splitlines() == ["street,sqm,rent", "Elm,72,950", "Yew,101,1400"]
    _run(_recipe("Add a column km to walks.csv"), tmp_path)
    assert (tmp_path / "walks.csv").read_text().splitlines() == ["route,miles,km", "loop,3,4.8", "coast,10.5,16.9"]


def test_the_line_chart_recipe_sorts_the_dates_and_saves_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    _write(tmp_path, {"reservoir.csv": "date,level\n2024-03-08,80.1\n2024-03-01,81.5\n2024-03-15,79.9\n"})
    out = _run(_recipe("Draw a line chart"), tmp_path)
    assert "3 points from 2024-03-01 to 2024-03-15" in out and "saved reservoir_level.png" in out
    assert (tmp_path / "reservoir_level.png").read_bytes()[:4] == b"\x89PNG"


def test_the_second_batch_json_recipes(tmp_path: Path) -> None:
    crew = [{"name": "Ann", "skills": ["rope", "first aid"]}, {"name": "Bo", "skills": ["rope"]}, {"name": "Cy"}]
    roster = {"people": [{"name": "Ann", "phone": "123"}, {"name": "Bo", "phone": ""}, {"name": "Cy"}]}
    plants = {"garden": "north", "plants": [{"name": "fern", "height": 40}, {"name": "oak", "height": 900},
                                            {"name": "moss", "height": 2}]}
    stock = [{"id": 11, "quantity": 1}, {"id": "12", "quantity": 3}]
    helpdesk = {"tickets": [{"priority": "high"}, {"priority": "low"}, {"priority": "high"}, {}]}
    _write(tmp_path, {"crew.json": json.dumps(crew), "roster.json": json.dumps(roster), "plants_db.json": json.dumps(plants),
                      "stockroom.json": json.dumps(stock), "helpdesk.json": json.dumps(helpdesk)})
    assert _run(_recipe("Which skills do the people"), tmp_path).splitlines()[1:] == ["rope 2", "first aid 1"]
    out = _run(_recipe("Which records in roster.json"), tmp_path)
    assert out.splitlines()[-1] == "2 of 3 have no phone" and "'Bo'" in out and "'Cy'" in out
    assert _run(_recipe("Sort the plants in plants_db.json"), tmp_path).strip() == "[900, 40, 2]"
    saved = json.loads((tmp_path / "plants_db.json").read_text())
    assert saved["garden"] == "north" and [p["name"] for p in saved["plants"]] == ["oak", "fern", "moss"]
    assert "1 record(s) changed" in _run(_recipe("In stockroom.json, set the quantity"), tmp_path)
    assert json.loads((tmp_path / "stockroom.json").read_text()) == [{"id": 11, "quantity": 1}, {"id": "12", "quantity": 40}]
    assert _run(_recipe("How many tickets in helpdesk.json"), tmp_path).splitlines() == ["high 2", "low 1", "None 1"]


def test_the_second_batch_text_recipes(tmp_path: Path) -> None:
    _write(tmp_path, {
        "field_diary.txt": "An otter. Otters play; OTTER again!\nno otter-like thing? otter\n",
        "novella.txt": "The cat. the dog, THE end; a cat's toy\n",
        "recital.txt": "".join(f"verse {i}\n" for i in range(1, 10)),
        "lyrics.txt": "short\nthe longest line here\nmid line\n",
        "logbook.txt": "Rain today\nsunny\nheavy RAIN and wind\ndrained\n",
        "letter.txt": "Dear Mr Smyth,\nThanks, Mr Smyth. Mr Smythe\n",
    })
    assert _run(_recipe('How many times does the word "otter"'), tmp_path).strip() == "otter appears 4 times"
    assert _run(_recipe("What are the 10 most common words"), tmp_path).splitlines()[:2] == ["the 3", "cat 1"]
    assert _run(_recipe("What does line 7 of recital.txt"), tmp_path).strip() == "line 7: verse 7"
    assert _run(_recipe("Which line of lyrics.txt"), tmp_path).strip() == "line 2 has 21 characters: the longest line here"
    assert _run(_recipe("Which lines of logbook.txt"), tmp_path).splitlines() == \
        ["1 Rain today", "3 heavy RAIN and wind", "4 drained", "3 lines contain rain"]
    assert _run(_recipe("In letter.txt, replace every"), tmp_path).strip() == "replaced 3 times"
    assert (tmp_path / "letter.txt").read_text() == "Dear Mr Smith,\nThanks, Mr Smith. Mr Smithe\n"


def test_the_second_batch_calculations(tmp_path: Path) -> None:
    from datetime import date

    today = date.today()
    age = today.year - 1987 - ((today.month, today.day) < (11, 9))
    assert _run(_recipe("How old is someone born on"), tmp_path).strip() == f"age: {age} on {today}"
    assert _run(_recipe("What date is 45 days after"), tmp_path).strip() == "2025-03-20 Thursday"
    assert _run(_recipe("By what percentage did it go up"), tmp_path).strip() == "+15.00%"
    assert _run(_recipe("Convert 26.2 miles to kilometres."), tmp_path).strip() == "26.2 miles = 42.165 km"
    # the interest paid in all is the payments less the loan (ho39: the 0.5B model multiplied the yearly rate)
    assert _run(_recipe("What is the monthly payment on a 150000 loan"), tmp_path).splitlines() == [
        "monthly payment: 750.94", "total interest: 75280.61"]


def test_the_first_row_per_key_recipe_keeps_the_first_of_each(tmp_path: Path) -> None:
    _write(tmp_path, {"callers.csv": "name,phone\nAna,555-1\nBen,555-2\nAnn,555-1 \n"})
    out = _run(_recipe("Keep only the first row for each phone"), tmp_path)
    assert out.strip() == "3 rows, 2 kept in callers_unique.csv"
    assert (tmp_path / "callers_unique.csv").read_text().splitlines() == ["name,phone", "Ana,555-1", "Ben,555-2"]


def test_a_sum_of_the_requests_own_numbers_gets_no_files_example_and_months_do_not_pick() -> None:
    fuel = "My car uses 6.4 litres of petrol per 100 km. Petrol costs 1.89 per litre. How much for a 575 km trip?"
    assert not any(_slots_files(r) for r in pick(fuel, 2))
    chosen = _requests(pick("What date will it be 100 days after 17 March 2025?", 2))
    assert chosen and chosen[0].startswith("What date is 45 days after"), chosen


def _slots_files(recipe: dict) -> list[str]:
    from oi_local.core.recipes import _slots

    return _slots(recipe["request"])["file"]


@pytest.mark.parametrize("request_text, expected", [
    ("What is the 60th Fibonacci number, if the first and second are both 1?", "What is the 40th Fibonacci number"),
    ("Move all the PDF files in this folder into a new subfolder called pdfs.", "Move all the .png images"),
    ("What is the grand total of all orders in orders.json (price times quantity for every item)?",
     "What do all the invoices in invoices.json add up to"),
    ("What's the median monthly rent in flats.csv?", "What is the median price in listings.csv?"),
])
def test_whole_suite_requests_keep_their_recipe(request_text: str, expected: str) -> None:
    # each lost its example to a newer recipe's generic keyword, folder name or other action
    chosen = _requests(pick(request_text, 2))
    assert chosen and chosen[0].startswith(expected), chosen


def test_the_median_recipe_prints_the_median(tmp_path: Path) -> None:
    _write(tmp_path, {"listings.csv": "name,price\na,100\nb,300\nc,\nd,200\ne,250\n"})
    assert _run(_recipe("What is the median price"), tmp_path).strip() == "4 prices, median: 225.0"


def test_the_merge_with_names_recipe_writes_each_name_above_its_text_in_order(tmp_path: Path) -> None:
    _write(tmp_path, {"journal/2025-02-01 ski.md": "Snow.\n", "journal/2024-12-30 party.md": "Fun.\n\n"})
    out = _run(_recipe("Merge the .md entries in the journal folder"), tmp_path)
    assert out.startswith("2 entries")
    assert (tmp_path / "journal_all.md").read_text() == "2024-12-30 party.md\nFun.\n\n2025-02-01 ski.md\nSnow.\n\n"


def test_the_copy_and_replace_recipe_changes_the_copy_only(tmp_path: Path) -> None:
    _write(tmp_path, {"flyer.txt": "draft one\nstill a draft\n"})
    out = _run(_recipe("Copy flyer.txt to flyer_final.txt"), tmp_path)
    assert out.strip() == "flyer_final.txt: 2 replaced; flyer.txt unchanged"
    assert (tmp_path / "flyer_final.txt").read_text() == "final one\nstill a final\n"
    assert (tmp_path / "flyer.txt").read_text() == "draft one\nstill a draft\n"


def test_the_nested_json_to_csv_recipe_adds_up_each_records_lines(tmp_path: Path) -> None:
    _write(tmp_path, {"jobs.json": '{"jobs": [{"number": 7, "date": "2025-01-02", "client": {"name": "Hart, Mills"}, '
                                   '"lines": [{"hours": 2, "rate": 40}, {"hours": 1.5, "rate": 30}]}]}'})
    assert _run(_recipe("Turn jobs.json into jobs.csv"), tmp_path).strip() == "1 rows written to jobs.csv"
    assert (tmp_path / "jobs.csv").read_text().splitlines() == ["number,date,client,total", '7,2025-01-02,"Hart, Mills",125.0']


def test_a_narrow_recipe_is_shown_only_for_requests_that_say_its_needed_words() -> None:
    def first(request: str) -> str:
        chosen = pick(request, 2)
        return _requests(chosen)[0] if chosen else ""

    assert first("copy notes.txt to notes_v2.txt and in the copy change every 'cat' to 'dog'").startswith("Copy flyer.txt")
    for request in ("Make a backup copy of thesis.docx, keep the original as it is",
                    "In letter.txt, change every Smyth to Smith",
                    "Start a file runs.txt to log my runs, one run per line."):
        assert not first(request).startswith(("Copy flyer.txt", "Merge the .md entries")), request
    assert not first("How many hours did each volunteer log in shifts.csv?").startswith("How many of the shifts in rota.csv")


def test_the_json_to_csv_columns_recipe_writes_the_columns_asked(tmp_path: Path) -> None:
    _write(tmp_path, {"pets.json": '{"pets": [{"name": "Rex", "species": "dog", "age": 3, "tags": ["a"]}, '
                                   '{"name": "Tom", "species": "cat"}]}'})
    out = _run(_recipe("Turn pets.json into pets.csv"), tmp_path)
    assert out.startswith("2 rows written to pets.csv")
    assert (tmp_path / "pets.csv").read_text().splitlines() == ["name,species,age", "Rex,dog,3", "Tom,cat,"]
    assert _requests(pick("make people.json into a spreadsheet people.csv with the columns name and town", 2))[0].startswith(
        "Turn pets.json into pets.csv")


def test_the_json_to_csv_columns_recipe_says_which_asked_column_no_record_has(tmp_path: Path) -> None:
    _write(tmp_path, {"pets.json": '[{"name": "Rex", "kind": "dog", "age": 3}]'})
    out = _run(_recipe("Turn pets.json into pets.csv"), tmp_path)
    assert "no record has ['species'] - the fields are ['age', 'kind', 'name']" in out


def test_the_extraction_recipes_find_each_address_and_link_once(tmp_path: Path) -> None:
    _write(tmp_path, {"minutes.txt": "From: Jo.Park@Acme.co.uk\nCc: lena_vogt+ship@northwind.io, jo.park@acme.co.uk.\n"
                                     "Ask mark@northwind.io (not @here or a@b).\n",
                      "bookmarks.md": "See https://a.example/x?y=1, and (https://b.example/path).\nAgain https://a.example/x?y=1.\n"})
    _run(_recipe("Pull every email address out"), tmp_path)
    assert (tmp_path / "contacts.txt").read_text() == "jo.park@acme.co.uk\nlena_vogt+ship@northwind.io\nmark@northwind.io\n"
    _run(_recipe("List every web link in bookmarks.md"), tmp_path)
    assert (tmp_path / "links.txt").read_text() == "https://a.example/x?y=1\nhttps://b.example/path\n"
    # a request that only names a web address is not shown the extraction
    assert not any(r.startswith("List every web link") for r in _requests(pick("download the page at https://example.com", 2)))
