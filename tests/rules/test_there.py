from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import there

from .handmade import block, make_turn, printed, reply

TEMPS = ("date,city,max_c,min_c\n2024-07-01,Seville,38.2,21.0\n2024-07-01,Oslo,22.5,12.1\n"
         "2024-07-02,Seville,39.4,19.8\n2024-07-02,Oslo,24.0,13.4\n")
FIRST = "Which city in temps.csv had the single hottest day?"
COLDEST = ("import csv\nwith open('temps.csv', newline='') as f:\n    rows = list(csv.DictReader(f))\n"
           "print(min(float(row['min_c']) for row in rows))")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "temps.csv").write_text(TEMPS)
    return tmp_path


def _follow_up(request: str, answer: str = "The hottest day was in Seville, 39.4°C."):
    return make_turn(FIRST, reply(answer), {"role": "user", "type": "message", "content": request})


def test_there_walks_only_the_rows_of_the_place_the_last_answer_named(here: Path) -> None:
    b = block(COLDEST)
    verdict = there.check(_follow_up("What was the coldest night there?"), b)
    assert verdict is not None and verdict.warning == (
        "Changed before it ran: only the rows where city is 'Seville', as the request says \"there\".")
    assert "for row in rows if str(row['city']).strip() == 'Seville'" in b.code
    assert printed(b.code).strip() == "19.8"
    # the record handed whole to min() with a key is picked from those rows too (ho54 dev: a Lisbon row was printed)
    b = block(COLDEST + "\nprint(min(rows, key=lambda row: float(row['min_c'])))")
    assert there.check(_follow_up("What was the coldest night there?"), b) is not None
    assert printed(b.code).splitlines()[-1] == "{'date': '2024-07-02', 'city': 'Seville', 'max_c': '39.4', 'min_c': '19.8'}"


def test_a_for_loop_and_that_city(here: Path) -> None:
    code = ("import csv\nlow = None\nfor r in csv.DictReader(open('temps.csv')):\n    t = float(r['min_c'])\n"
            "    low = t if low is None else min(low, t)\nprint(low)")
    b = block(code)
    assert there.check(_follow_up("and the coldest night in that city?"), b) is not None
    assert printed(b.code).strip() == "19.8"


@pytest.mark.parametrize("request_text, answer, code", [
    ("What was the coldest night there?", "The hottest day was 39.4°C.", COLDEST),  # no city named
    ("What was the coldest night there?", "Seville and Oslo were both hot.", COLDEST),  # two named
    ("What was the coldest night there?", "Seville.", COLDEST.replace("for row in rows", "for row in rows if row['city'] == 'Seville'")),
    ("What was the coldest night overall?", "Seville.", COLDEST),  # no "there"
    ("What was the coldest night in that file?", "Seville.", COLDEST),  # "that file" is no column
    ("is there any night below 13 degrees?", "Seville.", COLDEST),  # "there" as no place
    ("were there nights below 13 degrees? there's one I remember", "Seville.", COLDEST),
])
def test_left_alone(here: Path, request_text: str, answer: str, code: str) -> None:
    b = block(code)
    assert there.check(_follow_up(request_text, answer), b) is None and b.code == code


def test_a_first_request_is_left_alone(here: Path) -> None:
    assert there.check(make_turn("What was the coldest night there?"), block(COLDEST)) is None
