"""Problems in a script found by reading it (pyflakes), as shown to a model asked to fix it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from oi_local.core.pycheck import corrected, likely_file, problems


@pytest.mark.parametrize("code, expected", [
    ('def greet(name):\n    return "Hi " + name\n\npritn(greet("Ada"))\n', ["line 4: pritn is not defined (did you mean print?)"]),
    ("prices = [3, 4]\nprint(sum(price))\n", ["line 2: price is not defined (did you mean prices?)"]),
    ('values = [3, 4]\nprint("Mean:", statistics.mean(values))\n',
     ["line 2: statistics is not defined (it needs `import statistics`)"]),
    ("n = 0\ndef f():\n    print(n)\n    n = 1\n", ["line 3: n is used before it is given a value"]),
    ("for w in ['a']:\nprint(w)\n", ["line 2: expected an indented block after 'for' statement on line 1"]),
    ("print(undefined_thing_xyz)\n", ["line 1: undefined_thing_xyz is not defined"]),
    # a module's name used as a list is a list never made, not a module to import
    ("for n in numbers:\n    print(n)\n", ["line 1: numbers is not defined"]),
])
def test_what_would_make_the_script_fail_is_found(code: str, expected: list[str]) -> None:
    assert problems(code) == expected


def test_style_issues_and_working_code_are_not_problems() -> None:
    assert problems("import os\nimport sys\nx = 1\nprint(x)\n") == []  # unused imports are fine
    assert problems("try:\n    import numpy\nexcept ImportError:\n    numpy = None\n") == []
    assert len(problems("\n".join(f"print(a{i})" for i in range(10)))) == 3  # a few, not a flood


def test_problems_with_one_obvious_correction_are_corrected() -> None:
    code = 'def greet(name):\n    return "Hi " + name\n\npritn(greet("Ada"))  # pritnx stays\n'
    assert corrected(code) == 'def greet(name):\n    return "Hi " + name\n\nprint(greet("Ada"))  # pritnx stays\n'
    code = 'values = [3, 4]\nprint("Mean:", statistics.mean(values), math.pi)\n'
    assert corrected(code) == "import statistics\nimport math\n" + code
    # Nothing to correct, or no single obvious correction: None.
    assert corrected("print(1)\n") is None
    assert corrected("print(undefined_thing_xyz)\n") is None
    assert corrected("for w in ['a']:\nprint(w)\n") is None


def test_files_opened_for_reading_must_exist_in_the_folder_it_runs_in(tmp_path) -> None:
    (tmp_path / "config.ini").write_text("[ui]\ntheme = dark\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "sales.csv").write_text("a\n")
    code = ('with open("settings/config.ini") as f:\n    print(f.read())\n'
            'open("report.txt", "w").write("x")\nopen("data/salse.csv")\nopen("nowhere.bin")\n')
    assert problems(code, "read.py", tmp_path) == [
        "line 1: there is no file settings/config.ini (did you mean config.ini?)",
        "line 4: there is no file data/salse.csv (did you mean data/sales.csv?)",
        "line 5: there is no file nowhere.bin",
    ]  # the file opened for writing is not a problem
    fixed = corrected(code, "read.py", tmp_path)
    assert 'open("config.ini")' in fixed and 'open("data/sales.csv")' in fixed and 'open("nowhere.bin")' in fixed
    assert problems(code, "read.py") == []  # no folder given: not checked


def test_another_number_is_another_file_not_a_misspelling(tmp_path):
    # Pointed from week_23.csv to week_24.csv, the 0.5B model added up the wrong week.
    (tmp_path / "timesheets").mkdir()
    (tmp_path / "timesheets" / "week_24.csv").write_text("day,hours\n")
    (tmp_path / "timesheets" / "week_23.cvs").write_text("day,hours\n")
    assert likely_file("timesheets/week_23.csv", tmp_path) == "timesheets/week_23.cvs"
    (tmp_path / "timesheets" / "week_23.cvs").unlink()
    assert likely_file("timesheets/week_23.csv", tmp_path) is None
    assert likely_file("timesheets/wek_24.csv", tmp_path) == "timesheets/week_24.csv"


def test_a_loop_from_one_that_skips_the_first_item_is_a_problem_with_its_correction() -> None:
    from oi_local.core.pycheck import review

    code = ("def average(xs):\n    total = 0\n    for i in range(1, len(xs)):\n        total += xs[i]\n"
            "    return total / len(xs)\n\ndef steps(xs):\n    for i in range(1, len(xs)):\n        print(xs[i] - xs[i - 1])\n\n"
            "print(average([88, 92, 79, 85]))\n")
    found, fixed = review(code, "grades.py")
    assert found == ["line 3: range(1, len(xs)) starts at 1, so the loop skips the first item; range(len(xs)) takes every one"]
    assert fixed is not None and "for i in range(len(xs)):" in fixed and "for i in range(1, len(xs)):\n        print" in fixed
    out = subprocess.run([sys.executable, "-c", fixed], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "86.0"


def test_a_loop_one_past_the_end_is_a_problem_with_its_correction() -> None:
    from oi_local.core.pycheck import review

    code = ("def mean(values):\n    total = 0\n    for i in range(len(values) + 1):\n        total += values[i]\n"
            "    return total / len(values)\n\nfor k in range(len(values := [1, 2]) + 1):\n    print(k)\n\n"
            "print(mean([12.5, 14, 9.75]))\n")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).returncode == 1
    found, fixed = review(code, "stats.py")
    assert found == ["line 3: range(len(values) + 1) goes one past the last item (an IndexError); range(len(values)) stops at it"]
    assert fixed is not None and "for k in range(len(values := [1, 2]) + 1):" in fixed  # not reading values[k]: left
    out = subprocess.run([sys.executable, "-c", fixed], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "12.083333333333334"
