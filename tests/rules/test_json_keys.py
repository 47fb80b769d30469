from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import json_keys

from .handmade import block, make_turn

DOC = {"device": "Hall", "schedule": {"morning": {"from": "06:30", "temp": 20.5}, "night": {"from": "22:30", "temp": 16}},
       "away_mode": False}
EDIT = ('import json\nwith open("home/thermostat.json") as f:\n    settings = json.load(f)\nsettings["night_temp"] = 17.5\n'
        'with open("home/thermostat.json", "w") as f:\n    json.dump(settings, f, indent=2)\n')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "thermostat.json").write_text(json.dumps(DOC))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_new_top_level_key_for_a_nested_setting_is_set_where_the_setting_is(folder: Path) -> None:
    b = block(EDIT)
    verdict = json_keys.check(make_turn("in home/thermostat.json can you change the night temp to 17.5?"), b)
    assert verdict is not None and "schedule → night → temp" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True)
    saved = json.loads((folder / "home" / "thermostat.json").read_text())
    assert saved["schedule"]["night"]["temp"] == 17.5 and "night_temp" not in saved
    assert saved["schedule"]["morning"] == DOC["schedule"]["morning"]


def test_several_fitting_paths_are_named_and_the_code_not_run() -> None:
    b = block(EDIT.replace('"night_temp"', '"temp"'))
    turn = make_turn("in home/thermostat.json change the temp to 17.5")
    verdict = json_keys.check(turn, b)
    assert verdict is not None and verdict.again and "schedule → night → temp" in verdict.note
    assert "schedule → morning → temp" in verdict.note
    assert json_keys.check(turn, b) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    ("add a new night_temp setting of 17.5 to home/thermostat.json", EDIT),           # asked to add
    ("in home/thermostat.json set away mode on", EDIT.replace('settings["night_temp"] = 17.5', 'settings["away_mode"] = True')),
    ("in home/thermostat.json set the colour to blue", EDIT.replace('"night_temp"', '"colour"')),  # no path fits
])
def test_left_alone(request_text: str, code: str) -> None:
    assert json_keys.check(make_turn(request_text), block(code)) is None
