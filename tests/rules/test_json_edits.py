"""JSON edits: a request made only of edits of one JSON file is held to just those edits."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import json_edits

from .handmade import failed, make_turn, ran

SETTINGS = {"name": "tea-shop", "db": {"host": "localhost", "port": 5432}, "maintenance": True,
            "flags": {"dark_mode": False}, "editors": ["kim@shop.example"]}
REQUEST = ("Update settings.json: set the db port to 6543, switch maintenance off, and add lee@shop.example to the "
           "editors list. Leave everything else alone.")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    return tmp_path


def test_a_run_with_unasked_changes_is_put_back_and_gets_the_loops_code(here: Path) -> None:
    # ho50: the features were switched off too, and the admin already there appended again
    found = json_edits.asked(REQUEST, here)
    assert found is not None and found[1] == [("set", ("db", "port"), 6543), ("switch", ("maintenance",), False),
                                              ("add", ("editors",), "lee@shop.example")]
    turn = make_turn(REQUEST)
    json_edits.start(turn)
    wrong = dict(SETTINGS, maintenance=False, flags={"dark_mode": True}, db={"host": "localhost", "port": 6543})
    (here / "settings.json").write_text(json.dumps(wrong))
    turn.runs.append(ran("x", "done\n"))
    ask = json_edits.after_run(turn)
    assert ask is not None and ask.own and json_edits.after_run(turn) is None  # once a turn
    assert json.loads((here / "settings.json").read_text()) == SETTINGS  # put back as the turn found it
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=here)
    assert json.loads((here / "settings.json").read_text()) == dict(
        SETTINGS, db={"host": "localhost", "port": 6543}, maintenance=False, editors=["kim@shop.example", "lee@shop.example"])
    assert (here / "settings.json").read_text().startswith('{\n  "name"')  # the file's indent kept


def test_the_asked_edits_alone_are_left_alone_and_a_failure_is_put_back(here: Path) -> None:
    turn = make_turn(REQUEST)
    json_edits.start(turn)
    right = dict(SETTINGS, db={"host": "localhost", "port": 6543}, maintenance=False,
                 editors=["kim@shop.example", "lee@shop.example"])
    (here / "settings.json").write_text(json.dumps(right))
    turn.runs.append(ran("x", ""))
    assert json_edits.after_run(turn) is None
    (here / "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    turn = make_turn(REQUEST)
    json_edits.start(turn)
    (here / "settings.json").write_text("")  # emptied by a run that failed
    turn.runs.append(failed("x", "TypeError: x"))
    assert json_edits.after_run(turn) is not None and json.loads((here / "settings.json").read_text()) == SETTINGS


@pytest.mark.parametrize("request_text", [
    "set the db port to 6543 and the host to example.org in settings.json",  # a part the loop cannot read
    "set the colour to red in settings.json",  # no such key
    "what is the db port in settings.json?",  # no edit
    "enable dark mode and rename the shop to tea-house in settings.json",  # a rename
])
def test_left_alone(here: Path, request_text: str) -> None:
    assert json_edits.asked(request_text, here) is None


def test_enable_and_remove(here: Path) -> None:
    found = json_edits.asked("in settings.json enable dark mode, then remove kim@shop.example from editors", here)
    assert found is not None and found[1] == [("switch", ("flags", "dark_mode"), True),
                                              ("remove", ("editors",), "kim@shop.example")]


def test_switched_and_bumped_to_a_value(here: Path) -> None:
    # ho52: "switch the editor theme in settings.json to dark and bump the font size up to 14" was read as no edit
    (here / "settings.json").write_text(json.dumps({"editor": {"theme": "light", "font_size": 12}, "language": "en"}))
    found = json_edits.asked("switch the editor theme in settings.json to dark and bump the font size up to 14. "
                             "dont change anything else in it pls", here)
    assert found is not None and found[1] == [("set", ("editor", "theme"), "dark"), ("set", ("editor", "font_size"), 14)]
    found = json_edits.asked("in settings.json turn the font size down to 10", here)
    assert found is not None and found[1] == [("set", ("editor", "font_size"), 10)]


def test_a_new_value_said_as_news_is_an_edit(here: Path) -> None:
    # ho53: "my new email is ..." was not read; the model wrote an address of its own
    assert json_edits.asked("Please update settings.json: my new name is tea-house, and add lee@shop.example to my "
                            "editors.", here) == (here / "settings.json", [("set", ("name",), "tea-house"),
                                                                           ("add", ("editors",), "lee@shop.example")])
    assert json_edits.asked("in settings.json the db port is now 6543", here) == (
        here / "settings.json", [("set", ("db", "port"), 6543)])
    assert json_edits.asked("my new neighbour is lovely, what is in settings.json?", here) is None  # no such key


def test_a_section_switched_on_is_its_one_switch(here: Path) -> None:
    # ho58: "turn sync on" of {"sync": {"enabled": false, ...}} was read as sync = true, and the model's right edit put back
    (here / "settings.json").write_text(json.dumps({"theme": "light", "sync": {"enabled": False, "server": "nas", "every": 30},
                                                    "backup": {"daily": False, "hourly": True}}))
    found = json_edits.asked("In settings.json, switch the theme to dark and turn sync on. Leave everything else as it is.",
                             here)
    assert found is not None and found[1] == [("set", ("theme",), "dark"), ("switch", ("sync", "enabled"), True)]
    turn = make_turn("In settings.json, switch the theme to dark and turn sync on.")
    json_edits.start(turn)
    (here / "settings.json").write_text(json.dumps({"theme": "dark", "sync": {"enabled": True, "server": "nas", "every": 30},
                                                    "backup": {"daily": False, "hourly": True}}))
    turn.runs.append(ran("x", ""))
    assert json_edits.after_run(turn) is None  # the right edit is kept
    # two switches, none named as one; a section is no value to set
    assert json_edits.asked("in settings.json turn backup on", here) is None
    assert json_edits.asked("in settings.json set sync to off", here) is None
    assert json_edits.asked("in settings.json turn sync off", here) == (here / "settings.json",
                                                                       [("switch", ("sync", "enabled"), False)])


KEEPS = {"name": "photos", "keep": {"daily": 6, "weekly": 4, "monthly": 6}, "threads": 2}


@pytest.mark.parametrize("request_text, path, value", [
    ("In keep.json, change it to keep 9 monthly copies instead of 6. Don't change anything else.", ("keep", "monthly"), 9),
    ("keep.json: the weekly copies from 4 to 8 please", ("keep", "weekly"), 8),
    ("Set keep.json to use 3 threads instead of 2.", ("threads",), 3),
])
def test_a_number_given_with_the_one_it_replaces_is_an_edit_of_the_key_holding_it(
        here: Path, request_text: str, path: tuple[str, ...], value: int) -> None:
    (here / "keep.json").write_text(json.dumps(KEEPS, indent=2))
    found = json_edits.asked(request_text, here)
    assert found is not None and found[1] == [("set", path, value)]
    turn = make_turn(request_text)
    json_edits.start(turn)
    flat = dict(KEEPS, keep=value)  # a whole section flattened, as the model did
    (here / "keep.json").write_text(json.dumps(flat))
    turn.runs.append(ran("x", "ok\n"))
    ask = json_edits.after_run(turn)
    assert ask is not None and ask.text is not None
    code = ask.text.split("```python\n")[1].split("```")[0]
    subprocess.run([sys.executable, "-c", code], cwd=here, check=True, capture_output=True)
    want = json.loads(json.dumps(KEEPS))
    json_edits._get(want, path[:-1])[path[-1]] = value
    assert json.loads((here / "keep.json").read_text()) == want


@pytest.mark.parametrize("request_text", [
    "In keep.json, keep 9 copies instead of 6.",  # two keys hold 6, and no word names one
    "In keep.json keep 9 monthly copies instead of 5.",  # no key holds 5
])
def test_a_replaced_number_no_one_key_holds_is_no_edit(here: Path, request_text: str) -> None:
    (here / "keep.json").write_text(json.dumps(KEEPS, indent=2))
    assert json_edits.asked(request_text, here) is None
