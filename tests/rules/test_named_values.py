from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import named_values

from .handmade import block, make_turn, printed

SHEET = "day,employee,hours\nMon,Priya,7.5\nMon,Tom,8\nTue,Priya,6.25\nTue,Tom,7\n"
# rows made anew from each one by map(): not plain rows to narrow, so the request is asked afresh
ALL_ROWS = ('import csv\nwith open("timesheet.csv", newline="") as f:\n    rows = list(map(dict, csv.DictReader(f)))\n'
            'print(sum(float(r["hours"]) for r in rows))')
LOADED = ALL_ROWS.replace("list(map(dict, csv.DictReader(f)))", "list(csv.DictReader(f))")
PRIYA = ALL_ROWS.replace("for r in rows)", 'for r in rows if r["employee"] == "Priya")')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "timesheet.csv").write_text(SHEET)
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "statement.csv").write_text("date,category,amount\n2025-04-02,Takeaway,-18.45\n2025-04-04,Groceries,-62\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_code_that_uses_no_value_the_request_names_is_asked_afresh() -> None:
    turn = make_turn("How many hours did Priya work in total last week? It's all in timesheet.csv.")
    verdict = named_values.check(turn, block(ALL_ROWS))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == ('Not run: the code never uses "Priya", which the request asks about (the employee column '
                            'of timesheet.csv); asked afresh.')
    assert named_values.check(turn, block(ALL_ROWS)) is not None  # a second ask
    assert named_values.check(turn, block(ALL_ROWS)) is None  # twice a turn at most


@pytest.mark.parametrize("request_text, code", [
    ("How many hours did Priya work? It's all in timesheet.csv.", PRIYA),  # uses it
    ("How many hours did priya work? timesheet.csv", PRIYA.replace('"Priya"', '"priya"')),  # in any case
    ("How many hours were worked in total? timesheet.csv", ALL_ROWS),  # no value named
    ("How many hours did Priya work? It's in timesheet.csv", "print(7.5 + 6.25)"),  # does not read the file
    ("what did we spend on takeaways? bank/statement.csv",
     'import csv\nprint(sum(float(r["amount"]) for r in csv.DictReader(open("bank/statement.csv")) if r["category"] == "takeaway"))'),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert named_values.check(make_turn(request_text), block(code)) is None


def test_the_values_of_a_path_or_a_header_are_not_named(folder: Path) -> None:
    (folder / "statement").mkdir()
    (folder / "statement" / "log.csv").write_text("kind,hours\nstatement,2\nhours,3\n")
    code = 'import csv\nprint(len(list(csv.DictReader(open("statement/log.csv")))))'
    assert named_values.check(make_turn("how many rows are in statement/log.csv?"), block(code)) is None
    assert named_values.check(make_turn("total the hours in statement/log.csv"), block(code)) is None


def test_in_a_turn_the_retry_picks_the_rows() -> None:
    interp, model = scripted_interpreter([f"```python\n{ALL_ROWS}\n```", f"```python\n{PRIYA}\n```", "Priya worked 13.75 hours."])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        out = interp.chat("How many hours did Priya work in total last week? It's all in timesheet.csv.", display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles[0].startswith("Not run: the code never uses \"Priya\"") and consoles[-1] == "13.75"
        assert "I asked about \"Priya\" (the employee column of timesheet.csv)" in str(model.prompts[1])
        assert out[-1]["content"] == "Priya worked 13.75 hours." and model.calls == 3
    finally:
        interp.close()


def test_a_json_file_of_records_is_a_table_too(folder: Path) -> None:
    import json

    (folder / "budget").mkdir()
    (folder / "budget" / "nov.json").write_text(json.dumps({"month": "November", "transactions": [
        {"date": "2025-11-01", "shop": "Aldi", "category": "groceries", "amount": 41.2},
        {"date": "2025-11-02", "shop": "Shell", "category": "fuel", "amount": 60.0}]}))
    every = 'import json\ndata = json.load(open("budget/nov.json"))\nprint(sum(t["amount"] for t in data["transactions"]))'
    turn = make_turn("how much did we spend on groceries in november? its all in budget/nov.json")
    verdict = named_values.check(turn, block(every))
    assert verdict is not None and verdict.ask is not None and '"groceries"' in verdict.ask.text
    assert "category" in verdict.ask.text
    picked = every.replace('for t in data["transactions"])', 'for t in data["transactions"] if t["category"] == "groceries")')
    assert named_values.check(make_turn(turn.request), block(picked)) is None
    assert named_values.records(folder / "timesheet.csv") == {}  # not JSON


def test_a_variable_or_a_printed_label_named_after_the_value_picks_no_rows() -> None:
    turn = make_turn("How many hours did Priya work in total last week? It's all in timesheet.csv.")
    labelled = ALL_ROWS.replace("print(sum(", "priya = rows\nprint('Priya worked', sum(").replace("in rows))", "in priya))")
    assert named_values.check(turn, block(labelled)) is not None
    in_braces = ALL_ROWS.replace("print(sum(float(r[\"hours\"]) for r in rows))",
                                 "print(f\"Priya: {sum(float(r['hours']) for r in rows if r['employee'] == 'Priya')}\")")
    assert named_values.check(make_turn(turn.request), block(in_braces)) is None


def test_a_value_only_in_a_printed_label_is_asked_again() -> None:
    turn = make_turn("How many hours did Priya work? It's all in timesheet.csv.")
    assert named_values.check(turn, block(ALL_ROWS)) is not None
    label = ALL_ROWS.replace("print(sum(", 'print("Priya worked", sum(')
    verdict = named_values.check(turn, block(label))
    assert verdict is not None and verdict.ask is not None and verdict.ask.sampling["seed"] != 16


@pytest.mark.parametrize("code", [
    LOADED,
    'import pandas as pd\ndf = pd.read_csv("timesheet.csv")\nprint(df["hours"].sum())',
    'import csv\ntotal = 0\nwith open("timesheet.csv", newline="") as f:\n    for row in csv.DictReader(f):\n'
    '        total += float(row["hours"])\nprint(total)',
    # values taken as the rows are read (ho34-kettle-average): the comprehension gets the test
    'import csv\nwith open("timesheet.csv", newline="") as f:\n    hours = [float(r["hours"]) for r in csv.DictReader(f)]\n'
    'print(sum(hours))',
    ALL_ROWS.replace("list(map(dict, csv.DictReader(f)))", "[dict(r) for r in csv.DictReader(f)]"),
])
def test_rows_loaded_plainly_are_narrowed_to_the_one_value_named_andprinted(code: str) -> None:
    assert printed(code) == "28.75"  # every row
    turn = make_turn("How many hours did Priya work in total last week? It's all in timesheet.csv.")
    b = block(code)
    verdict = named_values.check(turn, b)
    assert verdict is not None and verdict.ask is None and not verdict.again
    assert verdict.warning == ('Changed before it ran: the rows are narrowed to employee "Priya" first, as the request '
                               'asks (the code used every row).')
    assert printed(b.code) == "13.75"
    assert named_values.check(turn, block(code)) is None  # once a turn


def test_json_records_at_the_top_are_narrowed(folder: Path) -> None:
    import json

    (folder / "users.json").write_text(json.dumps([
        {"name": "a", "age": 30, "country": "Canada", "active": True},
        {"name": "b", "age": 40, "country": "USA", "active": True},
        {"name": "c", "age": 52, "country": "Canada", "active": True},
        {"name": "d", "age": 50, "country": "Canada", "active": False}]))
    code = ('import json\nwith open("users.json") as f:\n    users = json.load(f)\n'
            '    active = [u for u in users if u["active"]]\n    print(len(active), sum(u["age"] for u in active) / len(active))')
    b = block(code)
    verdict = named_values.check(make_turn("how many users in users.json are active and from canada, and their average age?"), b)
    assert verdict is not None and verdict.warning and printed(b.code) == "2 41.0"


def test_json_records_under_a_key_are_narrowed_where_the_code_takes_them_out(folder: Path) -> None:
    import json

    (folder / "team.json").write_text(json.dumps({"team": "all", "people": [
        {"name": "Tariq", "department": "engineering", "born": "1971-03-15"},
        {"name": "Ingrid", "department": "design", "born": "1979-08-02"},
        {"name": "Ola", "department": "design", "born": "1990-01-20"}]}))
    code = ('import json\nwith open("team.json") as f:\n    data = json.load(f)\npeople = data["people"]\n'
            'oldest = min(people, key=lambda x: x["born"])\nprint(oldest["name"])')
    b = block(code)
    verdict = named_values.check(make_turn("Who's the oldest person in the design department? The staff list is in team.json."), b)
    assert verdict is not None and verdict.warning and printed(b.code) == "Ingrid"


@pytest.mark.parametrize("request_text", [
    "What percent of the hours in timesheet.csv did Priya work?",  # a share: the other rows count
    "How many hours did everyone but Priya work? timesheet.csv",
    "Compare Priya's and Tom's hours in timesheet.csv",  # two values of one column
    "How many hours are in timesheet.csv, leaving out Priya's?",  # a value left out: narrowed to it, the
    "Total hours in timesheet.csv, ignoring Priya",  # answer was the refunded orders' total (ho26)
])
def test_not_narrowed_where_the_other_rows_count(request_text: str) -> None:
    b = block(LOADED)
    verdict = named_values.check(make_turn(request_text), b)
    assert verdict is not None and verdict.ask is not None and b.code == LOADED


def test_in_a_turn_the_narrowed_code_runs_without_an_ask() -> None:
    interp, model = scripted_interpreter([f"```python\n{LOADED}\n```", "Priya worked 13.75 hours."])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        out = interp.chat("How many hours did Priya work in total last week? It's all in timesheet.csv.", display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles == ["13.75"] and model.calls == 2
        assert "== 'Priya'" in next(m["content"] for m in out if m["type"] == "code")  # what ran is what is kept
    finally:
        interp.close()


def test_a_follow_up_that_names_no_file_reads_the_file_of_the_request_before() -> None:
    interp, model = scripted_interpreter(["```python\nprint(2)\n```", "2", f"```python\n{LOADED}\n```", "13.75"])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        interp.chat("how many people are in timesheet.csv?", display=False)
        # "last week": amounts (which takes a plain follow-up's total first) leaves this one to named values
        out = interp.chat("ok, and how many hours did Priya work last week?", display=False)
        assert [m["content"].strip() for m in out if m["type"] == "console"] == ["13.75"]
        assert "== 'Priya'" in next(m["content"] for m in out if m["type"] == "code")
    finally:
        interp.close()
    turn = make_turn("ok, and how many hours did Priya work? see hours.csv")
    assert named_values.check(turn, block(LOADED)) is None  # names a file of its own (not there): not the earlier one


def test_a_value_the_request_adds_is_not_a_row_it_asks_about(tmp_path, monkeypatch) -> None:
    from oi_local.core.rules import named_values

    monkeypatch.chdir(tmp_path)
    (tmp_path / "quiz.csv").write_text("name,points\nNora,12\nIvan,9\nOmar,11\n")
    assert named_values.named("Add a row for Omar with 11 points to quiz.csv, then tell me the average points", tmp_path) == []
    assert named_values.named("add up the points for Omar in quiz.csv", tmp_path) == [("quiz.csv", "name", "Omar")]


def test_a_follow_up_that_names_no_file_reads_the_file_the_code_reads() -> None:
    # two requests after the file was made: neither this request nor the one before names it
    code = ('import csv\nwith open("timesheet.csv") as f:\n    reader = csv.DictReader(f)\n'
            '    total = sum(float(r["hours"]) for r in reader)\nprint(total)')
    turn = make_turn("And how many hours is that for Tom now?")
    b = block(code)
    verdict = named_values.check(turn, b)
    assert verdict is not None and 'employee "Tom"' in verdict.warning
    assert printed(b.code).strip() == "15.0"
    # a first request that names no file: the file the code reads holds Priya (rows made anew: asked afresh)
    assert named_values.check(make_turn("How many hours did Priya work?"), block(ALL_ROWS)).ask is not None
    # a request that names another data file is not read from the code's
    assert named_values.check(make_turn("How many hours did Tom work? see hours.csv"), block(code)) is None
