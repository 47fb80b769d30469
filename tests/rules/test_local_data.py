from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import local_data

from .handmade import block, make_turn

WEB = ('import requests\nurl = "https://api.openweathermap.org/data/2.5/weather?q=boathouse&appid=your_api_key"\n'
       'print(requests.get(url).json()["main"]["name"])')


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "volunteers.csv").write_text("name,distance_km\nAbi,3.5\nJo,1.2\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_code_that_goes_online_for_a_local_file_is_not_run() -> None:
    turn = make_turn("Which of the volunteers in volunteers.csv lives nearest the boathouse?")
    verdict = local_data.check(turn, block(WEB))
    assert verdict is not None and verdict.ask is not None and verdict.ask.sampling.get("temperature")
    assert verdict.note.startswith("Not run: this code goes to the internet (api.openweathermap.org), but what the request "
                                   "asks about is in volunteers.csv here")
    assert local_data.check(turn, block(WEB)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    ("Which of the volunteers in volunteers.csv lives nearest?", "import csv\nprint(list(csv.DictReader(open('volunteers.csv'))))"),
    ("look up today's exchange rate online and convert the totals in volunteers.csv", WEB),  # asked online
    ("what's the weather at the boathouse?", WEB),  # no file named
])
def test_left_alone(request_text: str, code: str) -> None:
    assert local_data.check(make_turn(request_text), block(code)) is None
