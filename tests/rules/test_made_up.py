from __future__ import annotations

import pytest

from oi_local.core.rules import made_up

from .handmade import block, failed, make_turn, ran

MISSING = failed("open('expenses_march.csv')", "FileNotFoundError: [Errno 2] No such file or directory: 'expenses_march.csv'")


@pytest.mark.parametrize("code, lang", [
    ("print(0)", "python"),
    ("print('The total is', 42.5)", "python"),
    ("total = 0\nprint(f'Total: {total}')", "python"),
    ("# the file is missing\nprint(-1)", "python"),
    ('echo "Done"', "shell"),
    ("echo 0\nprintf 'ok\\n'", "shell"),
])
def test_after_a_failure_code_that_only_prints_fixed_values_is_not_run_and_ends_the_turn(code: str, lang: str) -> None:
    verdict = made_up.check(make_turn("Add up the amounts in expenses_march.csv", runs=(MISSING,)), block(code, lang))
    assert verdict is not None and verdict.stop and verdict.note.startswith("Not run: ")


@pytest.mark.parametrize("code, lang", [
    ("print(sum([1, 2, 3]))", "python"),  # computes
    ("print(total)", "python"),  # a value from an earlier run of the session
    ("import os\nprint(os.listdir('.'))", "python"),
    ("print(open('expenses_april.csv').read())", "python"),
    ("echo $HOME", "shell"),
    ("ls *.csv", "shell"),
    ("x = len('abc')\nprint(x)", "python"),
    ("print(", "python"),  # does not parse: not this rule's business
])
def test_code_that_computes_or_reads_anything_runs(code: str, lang: str) -> None:
    assert made_up.check(make_turn("Add up the amounts in expenses_march.csv", runs=(MISSING,)), block(code, lang)) is None


def test_only_after_a_failure_and_a_person_confirming_is_warned() -> None:
    assert made_up.check(make_turn("Say hello", runs=(ran("x = 1", ""),)), block("print('hello')")) is None
    assert made_up.check(make_turn("Say hello"), block("print('hello')")) is None
    warned = made_up.check(make_turn("Sum it", runs=(MISSING,), approve=lambda m: "run"), block("print(0)"))
    assert warned is not None and warned.warning.startswith("Careful: ") and not (warned.stop or warned.note)
