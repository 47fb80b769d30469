from __future__ import annotations

import json
from pathlib import Path

import pytest

from oi_local.core.rules import named_month

from .handmade import block, make_turn, printed

ROWS = ("date,category,amount\n2024-02-27,groceries,10\n2024-03-02,groceries,20.5\n2024-03-15,fuel,40\n"
        "2024-03-20,groceries,7.25\n2024-04-01,groceries,100\n")
PICKED = ('import csv\nwith open("expenses.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
          'print(sum(float(r["amount"]) for r in rows if r["category"] == "groceries"))')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "expenses.csv").write_text(ROWS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("code", [
    PICKED,
    'import pandas as pd\ndf = pd.read_csv("expenses.csv")\nprint(df[df["category"] == "groceries"]["amount"].sum())',
    'import csv\ntotal = 0\nfor r in csv.DictReader(open("expenses.csv")):\n    if r["category"] == "groceries":\n'
    '        total += float(r["amount"])\nprint(total)',
    # rows read and picked in one comprehension (ho31-groceries-march)
    'import csv\nwith open("expenses.csv", newline="") as f:\n    groceries = [r for r in csv.DictReader(f) if '
    'r["category"] == "groceries"]\n    print(sum(float(r["amount"]) for r in groceries))',
])
def test_code_that_uses_no_month_is_narrowed_to_the_month_named(code: str) -> None:
    assert float(printed(code)) == 137.75  # every month
    b = block(code)
    verdict = named_month.check(make_turn("How much did I spend on groceries in March? Everything's in expenses.csv."), b)
    assert verdict is not None and verdict.ask is None and not verdict.again
    assert verdict.warning == ("Changed before it ran: the rows are narrowed to date in March 2024 first, as the request "
                               "asks (the code used every month).")
    assert float(printed(b.code)) == 27.75


def test_a_request_that_names_no_file_narrows_the_file_the_code_reads() -> None:
    b = block(PICKED)  # a follow-up: "and how much of that was in March?" after a question about expenses.csv
    assert named_month.check(make_turn("And how much of that was in March?"), b) is not None
    assert float(printed(b.code)) == 27.75


def test_json_records_too(folder: Path) -> None:
    (folder / "log.json").write_text(json.dumps([{"day": "2025-05-01", "km": 5}, {"day": "2025-05-09", "km": 7},
                                                 {"day": "2025-06-02", "km": 11}]))
    b = block('import json\nruns = json.load(open("log.json"))\nprint(sum(r["km"] for r in runs))')
    assert named_month.check(make_turn("how far did i run in may 2025? log.json"), b) is not None
    assert printed(b.code) == "12"


@pytest.mark.parametrize("request_text, code", [
    ("How much did I spend on groceries in March? expenses.csv",
     PICKED.replace('if r["category"] == "groceries"', 'if r["date"].startswith("2024-03")')),  # uses it
    ("How much did I spend on groceries in March? expenses.csv", PICKED.replace("rows if", "rows if r['date'][5:7] == '03' and")),
    ("How much did I spend on groceries in march 2023? expenses.csv", PICKED),  # a year the file does not have
    ("How much did I spend on groceries per month? expenses.csv", PICKED),  # no month named
    ("What share of March's spending went on groceries? expenses.csv", PICKED),  # a share
    ("Compare groceries in March and April. expenses.csv", PICKED),  # two months
    ("May I see the total for groceries? expenses.csv", PICKED),  # "May" the verb
    ("How much did I spend on groceries in March?", PICKED.replace("expenses.csv", "expenses")),  # no data file anywhere
])
def test_left_alone(request_text: str, code: str) -> None:
    b = block(code)
    assert named_month.check(make_turn(request_text), b) is None and b.code == code


def test_a_month_in_several_years_is_not_picked(folder: Path) -> None:
    (folder / "expenses.csv").write_text(ROWS + "2023-03-05,groceries,1\n")
    assert named_month.check(make_turn("groceries in March? expenses.csv"), block(PICKED)) is None
    b = block(PICKED)
    assert named_month.check(make_turn("groceries in March 2023? expenses.csv"), b) is not None
    assert float(printed(b.code)) == 1.0


def test_a_test_for_the_months_first_day_tests_the_month(folder: Path) -> None:
    code = ('import pandas as pd\ndf = pd.read_csv("expenses.csv")\n'
            'print(df[df["date"] == "2024-03-01"]["amount"].sum())')
    assert printed(code) == "0.0"  # as the model wrote it: no row on the 1st
    b = block(code)
    verdict = named_month.check(make_turn("how much did I spend in March 2024? it's in expenses.csv"), b)
    assert verdict is not None and "the whole month" in verdict.warning and printed(b.code) == "67.75"
    rows = ('import csv\nrows = list(csv.DictReader(open("expenses.csv")))\n'
            'print(sum(float(r["amount"]) for r in rows if r["date"] == "2024-03-01"))')
    b = block(rows)
    assert named_month.check(make_turn("total for March 2024 in expenses.csv?"), b) is not None and printed(b.code) == "67.75"
    b = block(rows)  # the first of the month asked for
    assert named_month.check(make_turn("what did I spend on 1 March 2024? see expenses.csv"), b) is None or "startswith" not in b.code


def test_a_test_for_another_day_of_the_month_not_asked_for_tests_the_month(folder: Path) -> None:
    (folder / "members.json").write_text(json.dumps([
        {"name": "Ana", "expires": "2024-07-20"}, {"name": "Ben", "expires": "2024-07-03"},
        {"name": "Cy", "expires": "2024-08-20"}]))
    code = ('import json\nitems = json.load(open("members.json"))\n'
            'rows = [b for b in items if b["expires"] == "2024-07-20"]\nprint([b["name"] for b in rows])')
    assert printed(code) == "['Ana']"  # as the model wrote it: the first record's day
    b = block(code)
    verdict = named_month.check(make_turn("who in members.json runs out in July 2024?"), b)
    assert verdict is not None and "b['expires'] == '2024-07-20' → b[\"expires\"].startswith('2024-07')" in verdict.warning
    assert printed(b.code) == "['Ana', 'Ben']"
    for asked in ("who in members.json runs out on 20 July 2024?", "who in members.json runs out on 2024-07-20?"):
        b = block(code)
        assert named_month.check(make_turn(asked), b) is None or "startswith" not in b.code, asked


def test_one_year_named_narrows_a_file_of_several_years(folder: Path) -> None:
    (folder / "listens.json").write_text(json.dumps([
        {"show": "Deep Field", "played": "2023-12-30", "minutes": 40}, {"show": "Deep Field", "played": "2024-01-02", "minutes": 18},
        {"show": "Other", "played": "2024-02-02", "minutes": 5}, {"show": "Deep Field", "played": "2024-03-09", "minutes": 50}]))
    code = 'import json\nplays = json.load(open("listens.json"))\nprint(sum(p["minutes"] for p in plays if p["show"] == "Deep Field"))'
    b = block(code)
    verdict = named_month.check(make_turn("how many minutes did I spend on Deep Field in 2024? listens.json"), b)
    assert verdict is not None and "in 2024" in verdict.warning
    assert printed(b.code) == "68"
    # the code uses the year already, the request names two years or none, or says since: left alone
    for request, c in (("how many minutes did I spend on Deep Field in 2024? listens.json",
                        code.replace('if p["show"]', 'if p["played"][:4] == "2024" and p["show"]')),
                       ("how many minutes did I spend on Deep Field in 2024 and 2023? listens.json", code),
                       ("how many minutes did I spend on Deep Field since 2024? listens.json", code),
                       ("how many minutes did I spend on Deep Field? listens.json", code)):
        assert named_month.check(make_turn(request), block(c)) is None, request
