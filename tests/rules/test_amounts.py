"""Amounts: a total, average or count of narrowed rows gets the pandas code that works it out."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import amounts

from .handmade import block, make_turn, reply

ASK = ("listening.json is exported from my podcast app. how many minutes did I spend on Deep Field in 2024, and how "
       "many episodes was that?")
PLAYS = [("Deep Field", 18, "2024-01-03"), ("Deep Field", 50, "2024-05-09"), ("Night Cast", 40, "2024-02-01"),
         ("Deep Field", 33, "2023-12-30"), ("Deep Field", 27, "2024-11-20")]
# the 0.5B model's try (ho38): each episode's minutes, every year
WRONG = ('import json\nwith open("listening.json") as f:\n    data = json.load(f)\nfor show in data["history"]:\n'
         '    if show.get("show") == "Deep Field":\n        print(show.get("episode"), show.get("minutes"))')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    history = [{"show": s, "episode": f"#{i}", "minutes": m, "played": d} for i, (s, m, d) in enumerate(PLAYS)]
    (tmp_path / "listening.json").write_text(json.dumps({"history": history}))
    (tmp_path / "people.csv").write_text("name,city,coming,plus_one,active\nAna,Berlin,yes,yes,true\n"
                                         "Bo,Paris,yes,no,false\nCy,Berlin,no,no,true\n")
    return tmp_path


def test_the_minutes_and_episodes_of_one_show_in_one_year(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{WRONG}\n```", "95 minutes over 3 episodes."])
    interp.template = "small"
    try:
        out = interp.chat(ASK, display=False)
    finally:
        interp.close()
    consoles = [str(m["content"]) for m in out if m["type"] == "console"]
    assert consoles[-1] == "total minutes: 95\nepisodes: 3\n"


def test_what_is_asked_and_what_is_left_alone(folder: Path) -> None:
    found = amounts.asked("How many of the people in people.csv live in Berlin?", folder)
    assert found is not None and found["what"] == [("count", "people")] and found["filters"] == {"city": ["berlin"]}
    for request in ("how many people have said yes in people.csv?",  # "yes" in two columns
                    "how many people in people.csv are active and from Berlin?",  # a yes/no column named
                    "how many minutes did I spend on Deep Field last week? listening.json",  # a relative time
                    "how many minutes of Deep Field per year in listening.json?",  # a breakdown
                    "how many minutes of Deep Field over 30 and under 50 in listening.json?",  # two thresholds
                    "how many minutes in listening.json?"):  # nothing narrows: plain code does it
        assert amounts.asked(request, folder) is None, request
    right = ('import pandas as pd, json\ndf = pd.DataFrame(json.load(open("listening.json"))["history"])\n'
             'df = df[(df["show"] == "Deep Field") & df["played"].str.startswith("2024")]\n'
             'print(df["minutes"].sum(), len(df))')
    assert amounts.check(make_turn(ASK), block(right)) is None
    assert amounts.check(make_turn(ASK), block(WRONG)) is not None


def test_a_total_asked_in_another_unit_than_its_column_is_converted(folder: Path) -> None:
    import subprocess
    import sys

    (folder / "rides.csv").write_text("date,route,distance_km\n2026-03-01,canal,12.5\n2026-03-08,hills,30.0\n"
                                      "2026-04-02,canal,12.5\n")
    request = "rides.csv has my bike rides in km. what's the total distance in miles?"
    code = 'import pandas as pd\nprint(pd.read_csv("rides.csv")["distance_km"].sum())'  # no conversion
    turn = make_turn(request)
    verdict = amounts.check(turn, block(code))
    assert verdict is not None and verdict.ask is not None and "in miles" in (verdict.note or "")
    ready = (verdict.ask.text or "").split("```python\n", 1)[1].split("\n```", 1)[0]
    out = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, cwd=folder).stdout
    assert out.splitlines() == ["total distance_km: 55", "that in miles: 34.18"]
    # narrowed to a month as well, and code that converts itself is left alone
    verdict = amounts.check(make_turn("total distance in miles for march from rides.csv please"), block(code))
    assert verdict is not None
    ready = (verdict.ask.text or "").split("```python\n", 1)[1].split("\n```", 1)[0]
    out = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, cwd=folder).stdout
    assert out.splitlines()[-1] == "that in miles: 26.41"
    converts = 'import pandas as pd\nprint(pd.read_csv("rides.csv")["distance_km"].sum() * 0.621371)'
    assert amounts.check(make_turn(request), block(converts)) is None


def test_units_asked_in() -> None:
    from oi_local.core.units import asked_in

    assert asked_in("runs.csv has my runs for april in miles. what's the total distance in kilometres?",
                    "distance_miles") == ("km", 1.609344)
    assert asked_in("what's the total distance in kilometres? my runs are in miles", "distance")[0] == "km"
    assert asked_in("total weight in kg", "weight_lbs") == ("kg", 0.45359237)
    assert asked_in("how much did I spend in pounds", "amount_eur") is None  # money, not weight
    assert asked_in("total distance in km", "distance_km") is None  # the column's own unit
    assert asked_in("how many hours in total", "minutes") is None  # "in total" is no unit


def test_a_follow_up_about_a_negated_value_narrows_to_the_value_that_says_it(folder: Path) -> None:
    import subprocess
    import sys

    (folder / "bills.csv").write_text("bill,supplier,amount,state\nB1,Gas Co,80.00,settled\nB2,Water Ltd,42.50,unsettled\n"
                                      "B3,Gas Co,95.25,unsettled\nB4,Phone Co,30.00,settled\n")
    turn = make_turn("what do the bills in bills.csv come to altogether?", reply("They come to 247.75."),
                     {"role": "user", "type": "message", "content": "and how much of that hasnt been settled yet?"})
    # the model's follow-up: the file's name read as its text, no rows, 0
    code = 'import csv\nprint(sum(float(r["amount"]) for r in csv.DictReader("bills.csv") if r["state"] == "settled"))'
    verdict = amounts.check(turn, block(code))
    assert verdict is not None and verdict.ask is not None
    ready = (verdict.ask.text or "").split("```python\n", 1)[1].split("\n```", 1)[0]
    out = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, cwd=folder).stdout
    assert out.splitlines() == ["total amount: 137.75"]
    # a negated value with no value that says it: left to the model
    (folder / "trips.csv").write_text("city,km\nOslo,12\nBergen,30\n")
    assert amounts.asked("what is the total km in trips.csv, not counting Oslo?", folder) is None
    assert amounts.asked("what is the total km in trips.csv for Oslo?", folder) is not None


def test_how_much_of_a_quantity_and_a_price_is_not_taken_for_one_column(folder: Path) -> None:
    (folder / "cafe.csv").write_text("date,item,qty,unit_price\n2025-03-03,Oat latte,2,4.10\n2025-03-09,Tea,1,2.00\n")
    assert amounts.asked("How much money did oat lattes make us in March? Everything is in cafe.csv.", folder) is None


def test_a_second_question_it_does_not_answer_leaves_the_request_to_the_model(folder: Path) -> None:
    # ho52: the count of German orders was given as ready code; "the biggest single order amount" was never printed
    (folder / "orders.csv").write_text("order_id,country,amount_eur\n1,Germany,89.9\n2,France,1284.9\n3,Germany,412.75\n")
    assert amounts.asked("how many orders in orders.csv went to Germany?", folder) is not None
    assert amounts.asked("Two questions about orders.csv: how many orders went to Germany, and what was the biggest "
                         "single order amount?", folder) is None


def test_a_threshold_on_a_number_column_narrows_the_rows(folder: Path) -> None:
    import subprocess
    import sys

    from .handmade import ran

    # ho52: "ok and on how many days was it above 65?" after the average of resting_hr.csv; the code read the
    # column's floats as rows (`r['resting_bpm']` of a float), then printed the largest value
    (folder / "resting_hr.csv").write_text("date,resting_bpm\n" + "".join(
        f"2025-03-{i:02d},{v}\n" for i, v in enumerate([62, 64, 61, 67, 59, 70, 66, 65], 1)))
    earlier = "My watch exported my resting heart rate to resting_hr.csv. What was my average?"
    followup = "ok and on how many days was it above 65?"
    found = amounts.asked(followup, folder, earlier)
    assert found is not None and found["what"] == [("count", "days")] and found["limit"] == ("resting_bpm", ">", "65")
    out = subprocess.run([sys.executable, "-c", amounts.ready_code(found)], capture_output=True, text=True, cwd=folder)
    assert out.stdout == "days: 3\n"
    turn = make_turn(earlier, reply("63.1"), {"role": "user", "type": "message", "content": followup}, runs=(ran("x", "63.1"),))
    wrong = "import csv\nv = [float(r['resting_bpm']) for r in csv.DictReader(open('resting_hr.csv'))]\nprint(max(v))"
    verdict = amounts.check(turn, block(wrong))
    assert verdict is not None and verdict.ask is not None and verdict.ask.own
    right = "import csv\nv = [float(r['resting_bpm']) for r in csv.DictReader(open('resting_hr.csv'))]\nprint(sum(1 for x in v if x > 65))"
    assert amounts.check(turn, block(right)) is None
    # "65 or more" is at least; "over 65%" is no threshold on the numbers; two thresholds are not one
    assert amounts.asked("how many days in resting_hr.csv was it 65 or more?", folder)["limit"] == ("resting_bpm", ">=", "65")
    for request in ("how many days in resting_hr.csv over 65%?", "how many days in resting_hr.csv between over 60 and under 66?",
                    "how many days until my average in resting_hr.csv is over 65?"):
        assert amounts.asked(request, folder) is None, request
