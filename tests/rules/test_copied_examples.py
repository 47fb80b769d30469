from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import active, copied_examples

from .handmade import block, make_turn

EXAMPLES = [
    {"role": "user", "content": "Save the rows of staff.csv where the department is Sales into sales_staff.csv."},
    {"role": "assistant", "content": '```python\nimport csv\nwith open("staff.csv") as f:\n'
                                     '    rows = [r for r in csv.DictReader(f) if r["department"] == "Sales"]\n```'},
]
COPIED = ('import csv\nwith open("frost_log.csv", newline="") as f:\n'
          '    rows = [r for r in csv.DictReader(f) if r["department"] == "Sales"]\nprint(len(rows))')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "frost_log.csv").write_text("date,low_f,notes\n2025-01-01,34.7,\n2025-01-02,28.1,Sales day\n")
    (tmp_path / "staff.csv").write_text("name,department\nAna,Sales\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_code_with_an_examples_words_that_nothing_here_has_is_asked_afresh() -> None:
    turn = make_turn("convert the lows in frost_log.csv to Celsius", examples=EXAMPLES, recipes=2)
    assert copied_examples.copied(turn, block(COPIED)) == ["department"]  # "Sales" is in the file
    verdict = copied_examples.check(turn, block(COPIED))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.ask.text is not None and "department" not in verdict.ask.text  # not said again to the model
    assert '"department"' in verdict.note and verdict.ask.sampling["temperature"] > 0
    again = copied_examples.check(turn, block(COPIED))
    assert again is not None and again.ask is not None and again.ask.sampling["seed"] != verdict.ask.sampling["seed"]
    assert copied_examples.check(turn, block(COPIED)) is None  # twice a turn at most


def test_words_the_request_or_the_named_files_have_are_fine() -> None:
    turn = make_turn("which rows of staff.csv are in Sales?", examples=EXAMPLES, recipes=2)
    code = COPIED.replace("frost_log.csv", "staff.csv")
    assert copied_examples.check(turn, block(code)) is None
    turn = make_turn("how many rows of frost_log.csv have department Sales?", examples=EXAMPLES, recipes=2)
    assert copied_examples.check(turn, block(COPIED)) is None
    turn = make_turn("convert the lows in frost_log.csv to Celsius", examples=EXAMPLES, recipes=2)
    own = 'import csv\nrows = list(csv.DictReader(open("frost_log.csv")))\nprint([r["low_f"] for r in rows])'
    assert copied_examples.check(turn, block(own)) is None


def test_the_loop_does_not_run_it_and_asks_afresh(folder: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    own = 'import csv\nrows = list(csv.DictReader(open("frost_log.csv")))\nprint(min(float(r["low_f"]) for r in rows))'
    interp, model = scripted_interpreter([f"```python\n{COPIED}\n```", f"```python\n{own}\n```", "The lowest was 28.1."],
                                         recipes=2)
    interp.examples = EXAMPLES
    try:
        interp.chat("what was the lowest low in frost_log.csv?", display=False)
        outputs = [m["content"] for m in interp.messages if m["type"] == "console"]
        assert "KeyError" not in "".join(outputs) and any("28.1" in o for o in outputs)
        assert any("Not run" in o and '"department"' in o for o in outputs)
        asked = str(model.prompts[1][-1]["content"])
        assert "department" not in asked and "with frost_log.csv" in asked  # the request's file, not the copied word
        assert "frost_log" not in str(model.prompts[1][-2]["content"])  # the try is hidden
        assert model.options[1].get("temperature", 0) > 0
        assert interp.messages[-1]["content"] == "The lowest was 28.1."
    finally:
        interp.close()
    assert copied_examples.rule not in active(make_turn("x", recipes=0).engine, "check")


def test_patterns_and_names_count_printed_words_do_not(folder: Path) -> None:
    (folder / "recipes").mkdir()
    (folder / "recipes" / "dal.txt").write_text("Red lentil dal\n")
    examples = [{"role": "assistant", "content": '```python\nfor p in Path(".").glob("*.png"):\n'
                                                 '    shutil.move(str(p), "images/" + p.name)\n    print("moved", p.name)\n```'}]
    code = 'for p in Path(".").glob("*.png"):\n    shutil.move(str(p), "recipes/vegan/" + p.name)\n    print("moved", p.name)'
    turn = make_turn("move the vegan recipes in recipes into recipes/vegan", examples=examples, recipes=2)
    assert copied_examples.copied(turn, block(code)) == ["*.png"]
    turn = make_turn("move the png pictures into recipes/vegan", examples=examples, recipes=2)
    assert copied_examples.copied(turn, block(code)) == []  # "png" is asked for; "moved" is only printed


def test_asked_afresh_the_picked_examples_are_left_out_for_the_rest_of_the_turn(folder: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    request = "Save the rows of staff.csv where the department is Sales into a new file sales_staff.csv"
    copied = '```python\nimport csv\nrows = [r for r in csv.DictReader(open("staff.csv")) if r["department"] == "Sales"]\nprint(rows)\n```'
    interp, model = scripted_interpreter([copied, "Done."], recipes=2)
    interp.chat(request, display=False)
    picked = interp.shown_examples()[len(interp.examples or []):]
    assert picked and any('"Sales"' in e["content"] for e in picked)  # the recipe this request picks
    with_recipes = interp.build_prompt()
    without = interp.build_prompt(recipes=False)
    assert any(picked[-1]["content"] == m.get("content") for m in with_recipes)
    assert not any(e["content"] == m.get("content") for e in picked for m in without)
    interp.close()


def test_a_word_is_known_only_as_a_whole_word() -> None:
    examples = [{"role": "user", "content": "What is the average age in members.csv?"},
                {"role": "assistant", "content": '```python\nimport csv\nwith open("members.csv") as f:\n'
                                                 '    ages = [float(r["age"]) for r in csv.DictReader(f)]\n```'}]
    code = 'import csv\nwith open("frost_log.csv") as f:\n    ages = [float(r["age"]) for r in csv.DictReader(f)]'
    turn = make_turn("on average how low did it get in frost_log.csv?", examples=examples, recipes=2)
    assert copied_examples.copied(turn, block(code)) == ["age"]  # "average" does not hold the word "age"
    turn = make_turn("what is the mean age of the frost in frost_log.csv?", examples=examples, recipes=2)
    assert copied_examples.copied(turn, block(code)) == []


def test_an_examples_numbers_that_nothing_here_has_are_copied_too() -> None:
    sums = [{"role": "user", "content": "What is 1234 * 5678?"},
            {"role": "assistant", "content": "```python\nprint(1234 * 5678)\n```"}]
    turn = make_turn("how many rows of frost_log.csv have notes?", examples=sums, recipes=2)
    code = "rows = open('frost_log.csv').read().splitlines()\nif not rows:\n    print(1234 * 5678)\nprint(len(rows))"
    assert copied_examples.copied(turn, block(code)) == ["1234", "5678"]
    # a number the request (or a file) has, or a short one, is the code's own
    assert copied_examples.copied(make_turn("is 1234 * 5678 even?", examples=sums, recipes=2), block(code)) == []
    assert copied_examples.copied(turn, block("print(12 * 56)")) == []
    # a constant the example's code knows is not its request's number
    kb = [{"role": "user", "content": "How many files in logs are bigger than 1 MB?"},
          {"role": "assistant", "content": "```python\nprint(sum(1 for p in Path('logs').iterdir() "
                                           "if p.stat().st_size > 1024 * 1024))\n```"}]
    turn = make_turn("how many files in frost_log.csv are bigger than 10 KB?", examples=kb, recipes=2)
    assert copied_examples.copied(turn, block("print(10 * 1024)")) == []


def test_a_limit_the_examples_request_gave_is_copied_even_when_round() -> None:
    # asked how many .log files inbox has, the model kept the size example's 500 KB limit and answered 0
    size = [{"role": "user", "content": "How many files in the inbox folder are larger than 500 KB?"},
            {"role": "assistant", "content": "```python\nfrom pathlib import Path\nlimit = 500 * 1024\n"
                                             "print(sum(1 for p in Path('inbox').iterdir() if p.stat().st_size > limit))\n```"}]
    code = ("from pathlib import Path\nlimit = 500 * 1024\n"
            "print(sum(1 for p in Path('inbox').rglob('*') if p.is_file() and p.stat().st_size > limit))")
    turn = make_turn("how many .log files are there in the inbox folder? count the ones in subfolders as well",
                     examples=size, recipes=2)
    assert copied_examples.copied(turn, block(code)) == ["500"]
    asked = make_turn("how many files in inbox are larger than 500 KB, subfolders too?", examples=size, recipes=2)
    assert copied_examples.copied(asked, block(code)) == []  # the request's own number
    # units the example's request names are never taken for copied (1024 for KB, 100 for percent)
    pct = [{"role": "user", "content": "What share of 1024 rows is 100 rows, in percent?"},
           {"role": "assistant", "content": "```python\nprint(100 / 1024 * 100)\n```"}]
    assert copied_examples.copied(make_turn("what share of frost_log.csv rows have notes?", examples=pct, recipes=2),
                                  block("print(1 / 2 * 100, 1024)")) == []


def test_the_note_of_code_not_run_does_not_make_its_words_known() -> None:
    # the note quoted "1234", "5678"; the retry's same code then ran and was answered (7006652)
    sums = [{"role": "user", "content": "What is 1234 * 5678?"},
            {"role": "assistant", "content": "```python\nprint(1234 * 5678)\n```"}]
    turn = make_turn("How many rows of frost_log.csv have notes?", examples=sums, recipes=2)
    first = copied_examples.check(turn, block("print(1234 * 5678)"))
    assert first is not None and first.note.startswith("Not run:") and '"1234"' in first.note
    turn.engine.messages.append({"role": "computer", "type": "console", "format": "output", "content": first.note})
    again = copied_examples.check(turn, block("print(1234 * 5678)"))
    assert again is not None and again.ask is not None  # still the example's numbers
    turn.engine.messages.append({"role": "computer", "type": "console", "format": "output", "content": "1234\n"})
    assert copied_examples.copied(turn, block("print(1234 * 5678)")) == ["5678"]  # an output that showed 1234 does


def test_a_hidden_try_and_dropped_examples_stay_out_for_the_rest_of_the_chat(folder: Path) -> None:
    # Shown again in the next turn (the try, the examples, without the loop's note), they made llama.cpp
    # re-read the whole first turn (1,152 tokens in ho6-multi-shopping-list).
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    # the field of the example this request picks (rows with a number over a limit, saved to a new file)
    copied = ('import csv\nrows = [r for r in csv.DictReader(open("frost_log.csv")) if float(r["sqm"]) > 60]\n'
              'print(len(rows))')
    own = ('import csv\nrows = [r for r in csv.DictReader(open("frost_log.csv")) if float(r["low_f"]) < 30]\n'
           'csv.DictWriter(open("cold.csv", "w", newline=""), ["date", "low_f", "notes"]).writerows(rows)\nprint(len(rows))')
    count = 'import csv\nprint(sum(float(r["low_f"]) < 25 for r in csv.DictReader(open("frost_log.csv"))))'
    interp, model = scripted_interpreter([f"```python\n{copied}\n```", f"```python\n{own}\n```", "1 row saved.",
                                          f"```python\n{count}\n```", "0 rows."], recipes=2)
    request = "Save the rows of frost_log.csv where low_f is below 30 into cold.csv"
    try:
        interp.chat(request, display=False)
        first = model.prompts[0]
        assert any('"sqm"' in str(m["content"]) for m in first)  # a worked example the request picked
        last_of_turn = model.prompts[2]
        interp.chat("and below 25?", display=False)
        second_turn = model.prompts[3]
        assert second_turn[:len(last_of_turn)] == last_of_turn  # the next turn goes on from there
        assert not any('"sqm"' in str(m["content"]) for m in second_turn)
        assert "Not run" not in str(second_turn)  # the hidden try stays hidden
        assert interp.messages[-1]["content"] == "0 rows." and any("Not run" in str(m["content"]) for m in interp.messages)
        interp.reset()  # a new chat has its examples again
        model.replies = ["Done."] * 3
        interp.messages = [{"role": "user", "type": "message", "content": request}]
        assert any('"sqm"' in str(m["content"]) for m in interp.build_prompt())
    finally:
        interp.close()


def test_how_a_file_is_read_is_not_a_copied_word() -> None:
    examples = [{"role": "user", "content": 'For each .log file in the logs folder, how many lines contain both "ERROR" and "timeout"?'},
                {"role": "assistant", "content": '```python\nfor p in sorted(Path("logs").glob("*.log")):\n'
                                                 '    with open(p, errors="ignore", encoding="latin-1") as f:\n'
                                                 '        print(p.name, sum(1 for line in f if "ERROR" in line))\n```'}]
    code = ('for p in sorted(Path(".").glob("*.csv")):\n    with open(p, errors="ignore", encoding="latin-1") as f:\n'
            '        print(p.name, sum(1 for line in f if "ERROR" in line))')
    turn = make_turn("how many lines of the csv files here mention the word Sales?", examples=examples, recipes=2)
    assert copied_examples.copied(turn, block(code)) == ["ERROR"]  # the picked value still counts; the options do not



def test_a_plural_in_the_request_knows_the_word() -> None:
    examples = [{"role": "assistant", "content": '```python\nprint(sum(float(r["amount"]) for r in rows))\n```'}]
    code = 'import csv\nrows = list(csv.DictReader(open("expenses_march.csv")))\nprint(sum(float(r["amount"]) for r in rows))'
    turn = make_turn("Can you add up the amounts in expenses_march.csv for me?", examples=examples, recipes=2)
    assert copied_examples.copied(turn, block(code)) == []
    turn = make_turn("Can you add up the costs in expenses_march.csv for me?", examples=examples, recipes=2)
    assert copied_examples.copied(turn, block(code)) == ["amount"]
