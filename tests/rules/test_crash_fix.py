"""Crash fix: asked to fix a crashing script, the model is given code that repairs it by running it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import crash_fix

from .handmade import block, make_turn, scripted_chat

ROOMS = {"unit": "C", "sensors": {"attic": [], "hall": [18.0, 19.0], "kitchen": [20.5, 21.5]}}
SCRIPT = ('import json\n\n# the average temperature of each room\nwith open("readings.json") as f:\n    data = json.load(f)\n\n'
          'for room, temps in data["sensor"].items():\n    average = sum(temps) / len(temps)\n'
          '    print(f"{room}: {average:.1f}")\n')
ASK = "rooms.py should print the average temperature per room from readings.json but it crashes. Can you fix it and run it?"
# the 0.5B model's tries (ho41): the same line again, then a copy of the script that rewrites itself
AGAIN = 'import json\ndata = json.load(open("readings.json"))\nfor room, temps in data["sensor"].items():\n    print(room)'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "readings.json").write_text(json.dumps(ROOMS))
    (tmp_path / "rooms.py").write_text(SCRIPT)
    return tmp_path


def _ready(folder: Path, script: str = "rooms.py", original: str | None = None) -> str:
    code = crash_fix.ready_code(script, original)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, timeout=120).stdout


def test_a_key_and_an_empty_count_are_mended_and_the_script_run(folder: Path) -> None:
    out = _ready(folder)
    assert "fixed rooms.py: 'sensor' -> 'sensors'; skip when len(temps) is 0" in out
    assert out.endswith("hall: 18.5\nkitchen: 21.0\n")
    run = subprocess.run([sys.executable, "rooms.py"], capture_output=True, text=True, cwd=folder)
    assert run.returncode == 0 and run.stdout == "hall: 18.5\nkitchen: 21.0\n"
    assert "# the average temperature of each room" in (folder / "rooms.py").read_text()  # the rest as it was
    assert sorted(p.name for p in folder.iterdir()) == ["readings.json", "rooms.py"]  # no try left behind


def test_names_imports_files_and_text_numbers(folder: Path) -> None:
    (folder / "prices.csv").write_text("item,price\ntea,2.50\ncake,3.25\n")
    cases = {
        "import csv\nrows = list(csv.DictReader(open('price.csv')))\nprint(sum(float(r['price']) for r in rows))\n": "5.75",
        "rows = list(csv.DictReader(open('prices.csv')))\nprint(len(rows))\n": "2",  # import csv forgotten
        "import csv\ntotal = 0\nfor r in csv.DictReader(open('prices.csv')):\n    total = total + r['price']\nprint(totl)\n": "5.75",
        "import csv\nrows = list(csv.DictReader(open('prices.csv')))\nprint(rows[0]['Item'].uper())\n": "TEA",
    }
    for code, want in cases.items():
        (folder / "shop.py").write_text(code)
        out = _ready(folder, "shop.py")
        assert out.rstrip().endswith(want) and "fixed shop.py" in out, (code, out)
        assert subprocess.run([sys.executable, "shop.py"], capture_output=True, text=True, cwd=folder).stdout.strip() == want


def test_an_honest_miss_leaves_the_script(folder: Path) -> None:
    hard = "import json\nprint(json.load(open('readings.json'))['humidity'])\n"
    (folder / "rooms.py").write_text(hard)
    out = _ready(folder)
    assert "rooms.py is not fixed: it still fails with KeyError: 'humidity'" in out
    assert (folder / "rooms.py").read_text() == hard
    (folder / "fine.py").write_text("print('ok')\n")
    assert "fine.py runs without an error as it is. It now prints: ok\n$ python fine.py\nok" in _ready(folder, "fine.py")


def test_the_script_as_the_turn_found_it_comes_first(folder: Path) -> None:
    overwritten = 'import json\nprint(json.load(open("readings.json"))["sensorz"]["hall"][5])\n'
    (folder / "rooms.py").write_text(overwritten)
    out = _ready(folder, original=SCRIPT)
    assert "fixed rooms.py: 'sensor' -> 'sensors'" in out and (folder / "rooms.py").read_text().startswith("import json\n\n# the")


def test_offered_when_the_models_tries_are_used_up(folder: Path) -> None:
    out = scripted_chat([f"```python\n{AGAIN}\n```", f"```python\n{AGAIN}\n```",
                                          "Fixed: the key was wrong and the attic has no readings."], ASK)
    run = subprocess.run([sys.executable, "rooms.py"], capture_output=True, text=True, cwd=folder)
    assert run.returncode == 0 and run.stdout == "hall: 18.5\nkitchen: 21.0\n"
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert "fixed rooms.py" in consoles[-1] and consoles[-1].rstrip().endswith("kitchen: 21.0")


def test_only_for_one_python_script_to_fix(folder: Path) -> None:
    for request in ("what does rooms.py print?",  # not a fix
                    "fix rooms.py and readings.py",  # one of them is not there: still one script
                    "rooms.py crashes, please delete it"):  # careful words: not ours
        turn = make_turn(request)
        crash_fix.start(turn)
        assert (turn.state["crash fix"] is not None) == (request == "fix rooms.py and readings.py"), request


GRADES = ('import json\n\n\ndef average(scores):\n    return sum(scores) / len(scores)\n\n\n'
          'data = json.load(open("scores.json"))\nfor student in data["students"]:\n    avg = average(student["scores"])\n'
          '    print(f"{student[\'name\']}: {avg:.2f}")\n')


def test_an_item_that_fails_in_a_called_function_is_skipped(folder: Path) -> None:
    (folder / "scores.json").write_text(json.dumps({"students": [{"name": "Ana", "scores": [70, 80]},
                                                                {"name": "Ben", "scores": []}, {"name": "Cy", "scores": [90]}]}))
    (folder / "grades.py").write_text(GRADES)
    out = _ready(folder, "grades.py")
    assert "fixed grades.py: line 10 skips the item it fails on (ZeroDivisionError)" in out
    assert out.endswith("Ana: 75.00\nCy: 90.00\n")
    # the guards let it run: it deletes nothing, and writes only the script
    from oi_local.core.rules import deletions, destructive

    for rule in (deletions, destructive):
        turn = make_turn("grades.py crashes, can you fix it and run it?")
        assert rule.rule.check is None or rule.rule.check(turn, block(crash_fix.ready_code("grades.py", GRADES))) is None


def test_a_total_started_for_a_new_name(folder: Path) -> None:
    (folder / "paid.txt").write_text("Ana,12\nBen,30\nAna,8\n")
    (folder / "owe.py").write_text('totals = {}\nfor line in open("paid.txt"):\n    name, amount = line.strip().split(",")\n'
                                   '    totals[name] += int(amount)\nfor name, paid in sorted(totals.items()):\n    print(name, paid)\n')
    out = _ready(folder, "owe.py")
    assert "fixed owe.py: totals[name] starts at 0" in out and out.endswith("Ana 20\nBen 30\n")


def test_offered_when_the_model_gives_up_after_a_refusal_and_a_failure(folder: Path) -> None:
    from .handmade import failed

    crash = failed("python3 rooms.py", "KeyError: 'sensor'\n(exit code 1)", lang="shell")
    turn = make_turn(ASK, runs=(crash,))
    crash_fix.start(turn)
    assert crash_fix.follow_up(turn) is None  # one failed try: the model's own fix comes first
    # the next try refused (ho40: the script's text written over the data file), then a reply without code
    turn.notes.append("Not run: this code writes a Python script over readings.json, a data file that is there.")
    ask = crash_fix.follow_up(turn)
    assert ask is not None and ask.ready and ask.own and "original = " in str(ask.text)
    assert crash_fix.follow_up(turn) is None  # once a turn


def test_left_to_the_model_when_it_moved_on_to_a_clean_run(folder: Path) -> None:
    from .handmade import failed, ran

    # session 44's end run: the script crashed twice, then the model's own fix ran inline, cleanly; writing that
    # into the script is asked first (core/rules/fix_asks.py); offered here, the search wrote over such a fix
    crash = failed("import subprocess\nsubprocess.run(['python3', 'rooms.py'])", "KeyError: 'sensor'")
    caught = ran("try:\n    print(data['sensors'])\nexcept KeyError as e:\n    print('Error:', e)", "{'hall': [18.0]}\n")
    turn = make_turn(ASK, runs=(crash, crash, caught))
    crash_fix.start(turn)
    assert crash_fix.follow_up(turn) is None


def test_tries_run_on_copies_and_only_the_fix_on_the_real_files(folder: Path) -> None:
    # a script that appends before it crashes: twenty tries on the real file would append twenty times
    (folder / "log.py").write_text('with open("runs.txt", "a") as f:\n    f.write("5\\n")\nprint(sum(int(x) for x in open("run.txt")))\n')
    (folder / "runs.txt").write_text("3\n")
    out = _ready(folder, "log.py")
    assert "fixed log.py: 'run.txt' -> 'runs.txt'" in out and out.endswith("$ python log.py\n8\n")
    assert (folder / "runs.txt").read_text() == "3\n5\n"  # appended once: by the one real run


def test_a_clean_run_that_prints_the_wrong_thing_is_not_a_fix(folder: Path) -> None:
    counter = 'numbers = [2, 4, 6, 8]\ntotal = 0\ncount = 0\nfor n in numbers:\n    total += n\nprint("Average:", total / count)\n'
    (folder / "average.py").write_text(counter)
    code = crash_fix.ready_code("average.py", None, ["Average: 5.0"])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, timeout=120).stdout
    assert out.startswith("average.py is not fixed: it still fails with ZeroDivisionError")  # 'Average: 0' is no fix
    assert (folder / "average.py").read_text() == counter  # "Average: 0" hides the bug: not written
    # told what it should print, a fix that prints it is kept
    code = crash_fix.ready_code("rooms.py", None, ["hall: 18.5"])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, timeout=120).stdout
    assert "fixed rooms.py" in out and out.endswith("hall: 18.5\nkitchen: 21.0\n")


def test_an_index_one_past_the_end(folder: Path) -> None:
    (folder / "last.py").write_text('fruits = ["apple", "banana", "cherry"]\nprint(fruits[3])\n')
    out = _ready(folder, "last.py")
    assert "fixed last.py: [3] -> [2]" in out and out.endswith("$ python last.py\ncherry\n")
    assert (folder / "last.py").read_text() == 'fruits = ["apple", "banana", "cherry"]\nprint(fruits[2])\n'


def test_another_types_word_for_it(folder: Path) -> None:
    (folder / "guests.py").write_text('guests = ["Ann", "Bob"]\nguests.add("Zoe")\nprint(", ".join(guests))\n')
    out = _ready(folder, "guests.py")
    assert "fixed guests.py: .add -> .append" in out and out.endswith("Ann, Bob, Zoe\n")


def test_a_sum_of_text_values_makes_each_a_number(folder: Path) -> None:
    # float(parts) around the list is another TypeError; each value made a number is the fix
    (folder / "hours.txt").write_text("7.5 8 6.25\n")
    (folder / "week.py").write_text('parts = open("hours.txt").read().split()\nprint(f"Hours: {sum(parts):.2f}")\n')
    out = _ready(folder, "week.py")
    assert "fixed week.py: map(float, parts). It now prints: Hours: 21.75\n" in out, out
    assert (folder / "week.py").read_text() == 'parts = open("hours.txt").read().split()\nprint(f"Hours: {sum(map(float, parts)):.2f}")\n'


def test_a_header_read_as_a_number_is_skipped_and_its_values_read_as_decimals(folder: Path) -> None:
    # ho42: int() of every row, the header first; skipping each failing row printed "Total: 0.00"
    (folder / "expenses.csv").write_text("date,description,amount\n2025-05-01,Tea,3.75\n2025-05-02,Taxi,18.40\n2025-05-03,Stamps,7\n")
    (folder / "totals.py").write_text('import csv\n\ntotal = 0\nwith open("expenses.csv") as f:\n    reader = csv.reader(f)\n'
                                      '    for row in reader:\n        total += int(row[2])\nprint(f"Total: {total:.2f}")\n')
    out = _ready(folder, "totals.py")
    assert "fixed totals.py: the header row skipped; int( -> float(. It now prints: Total: 29.15\n" in out, out


def test_the_second_refused_fix_gets_the_repair_instead_of_the_end(folder: Path) -> None:
    from oi_local.core.rules import broken_scripts

    # ho40: the fixed script written over the data file it reads, twice; the turn used to end there
    over_data = ('fixed = """import json\\nimport sys\\nfor room in json.load(open(\\"readings.json\\")):\\n    print(room)\\n"""\n'
                 'with open("readings.json", "w") as f:\n    f.write(fixed)')
    turn = make_turn(ASK)
    crash_fix.start(turn)
    first = broken_scripts.check(turn, block(over_data))
    assert first is not None and first.ask is not None and not first.stop and not first.ask.own
    second = broken_scripts.check(turn, block(over_data))
    assert second is not None and not second.stop and second.ask is not None and second.ask.own and second.ask.ready


def test_not_offered_when_the_scripts_own_last_run_was_clean(folder: Path) -> None:
    from .handmade import failed, ran

    # ho25: refused once, the script crashed, then the model's fix written and run cleanly; a search wrote over it
    crash = failed("python3 rooms.py", "KeyError: 'sensor'", lang="shell")
    fix = ran("open('rooms.py', 'w').write(fixed)\nimport subprocess\nsubprocess.run(['python3', 'rooms.py'])", "hall: 18.5\n")
    turn = make_turn(ASK, runs=(crash, fix))
    turn.notes.append("Not run: the request asks to run rooms.py, and this code does not run it; asked to run it.")
    crash_fix.start(turn)
    assert crash_fix.follow_up(turn) is None


def test_a_skip_that_skips_every_item_is_no_fix(folder: Path) -> None:
    # ho40 (dev3): totals[name] += int(amount) on a name not seen yet and decimals: skipping each line printed 0.00
    (folder / "costs.txt").write_text("Ana,12.50\nBo,30\nAna,7.50\n")
    (folder / "split.py").write_text('totals = {}\nwith open("costs.txt") as f:\n    for line in f:\n'
                                     '        name, amount = line.strip().split(",")\n        totals[name] += int(amount)\n'
                                     'print(f"Total: {sum(totals.values()):.2f}")\n')
    out = _ready(folder, "split.py")
    assert "Total: 50.00" in out and "skips the item" not in out, out
