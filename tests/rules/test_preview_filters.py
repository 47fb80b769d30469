from __future__ import annotations

import json
from pathlib import Path

import pytest

from oi_local.core.rules import preview_filters

from .handmade import block, make_turn

PETS = {"household": "Park Rd", "pets": [
    {"name": "Biscuit", "species": "dog", "born": "2019-04-11", "status": "due"},
    {"name": "Mochi", "species": "cat", "born": "2021-02-01", "status": "ok"}]}
ASK = "Which of my pets has a vaccination that runs out first, and on what date? It's all in pets.json"
COPIED = ('import json\npets = json.load(open("pets.json"))["pets"]\nfor pet in pets:\n'
          '    if pet["species"] == "dog" and pet["born"] == "2019-04-11":\n        print(pet["name"])')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pets.json").write_text(json.dumps(PETS))
    (tmp_path / "club.csv").write_text("name,paid\nAl,unpaid\nBo,paid\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_filter_copied_from_the_first_record_is_asked_afresh_once() -> None:
    turn = make_turn(ASK)
    verdict = preview_filters.check(turn, block(COPIED))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "species is 'dog'" in (verdict.ask.text or "") and "born is '2019-04-11'" in verdict.note
    assert preview_filters.check(turn, block(COPIED)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    ("which of my dogs in pets.json was born first?", COPIED.replace(' and pet["born"] == "2019-04-11"', "")),  # asked
    (ASK, COPIED.replace('"dog"', '"cat"').replace("2019-04-11", "2021-02-01")),   # not the first record's values
    ("who hasn't paid yet in club.csv?", 'import csv\nprint([r["name"] for r in csv.DictReader(open("club.csv")) if r["paid"] == "unpaid"])'),
    ("which pet in pets.json was born on 11 April 2019?", COPIED.replace('pet["species"] == "dog" and ', "")),  # a date
    ("what is Biscuit's status in pets.json?", COPIED.replace('pet["species"] == "dog" and pet["born"] == "2019-04-11"', 'pet["name"] == "Biscuit"')),
    # the field named ("haven't been returned" for returned == "no", ho58's writer's oracle)
    ("which pets in pets.json have a status that isn't ok?", COPIED.replace('pet["species"] == "dog" and pet["born"] == "2019-04-11"', 'pet["status"] == "due"')),
])
def test_filters_the_request_asks_for_are_left_alone(request_text: str, code: str) -> None:
    assert preview_filters.check(make_turn(request_text), block(code)) is None
