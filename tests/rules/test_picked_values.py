from __future__ import annotations

import json
from pathlib import Path

import pytest

from oi_local.core.rules import picked_values

from .handmade import block, make_turn

PICK = ('import csv\nfrom collections import defaultdict\ntimes = defaultdict(list)\nwith open("laps.csv", newline="") as f:\n'
        '    for r in csv.DictReader(f):\n        times[r["runner"]].append(float(r["seconds"]))\n'
        'means = {k: sum(v) / len(v) for k, v in times.items()}\nprint(means["Okafor"])\n')
ASK = "What's the average lap time in laps.csv?"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "laps.csv").write_text("runner,seconds\nOkafor,61.5\nLindqvist,58.0\nOkafor,63.5\n")
    (tmp_path / "team.json").write_text(json.dumps({"players": [{"name": "Ruiz", "goals": 4}, {"name": "Tan", "goals": 2}]}))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_one_rows_value_printed_by_a_typed_in_key_is_asked_afresh() -> None:
    turn = make_turn(ASK)
    verdict = picked_values.check(turn, block(PICK))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == "Not run: the code prints the value for 'Okafor', typed in, which the request does not name; asked afresh."
    assert "Okafor" not in str(verdict.ask.text) and "one runner" in str(verdict.ask.text)
    assert verdict.ask.sampling["temperature"] > 0
    assert picked_values.check(turn, block(PICK)) is None  # once a turn
    js = block('import json\nd = json.load(open("team.json"))\ngoals = {p["name"]: p["goals"] for p in d["players"]}\n'
               'print(f"{goals[\'Tan\']} goals")')
    assert picked_values.check(make_turn("how many goals did the team score in total? (team.json)"), js) is not None


@pytest.mark.parametrize("request_text, code", [
    ("What's Okafor's average lap time in laps.csv?", PICK),  # the request names the key
    ("average lap for okafor please, laps.csv", PICK),  # in other case
    (ASK, PICK.replace('print(means["Okafor"])', "print(sum(means.values()) / len(means))")),
    (ASK, PICK.replace('means["Okafor"]', 'means["Nobody"]')),  # not a value of the file: not a pick from it
    (ASK, 'import csv\nfor r in csv.DictReader(open("laps.csv")):\n    print(r["seconds"])'),  # a column
])
def test_left_alone(request_text: str, code: str) -> None:
    assert picked_values.check(make_turn(request_text), block(code)) is None


def test_a_key_an_earlier_turn_showed_is_the_persons() -> None:
    earlier = [{"role": "computer", "type": "console", "format": "output", "content": "Okafor 62.5\nLindqvist 58.0"},
               {"role": "assistant", "type": "message", "content": "Okafor is slowest."},
               {"role": "user", "type": "message", "content": "and what's that runner's best lap?"}]
    turn = make_turn("who is slowest in laps.csv?", *earlier)
    turn.start = 4
    assert picked_values.check(turn, block(PICK)) is None
