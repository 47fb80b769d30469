"""Nested columns: a listed column inside each JSON record's field is reached by the loop's own code."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import named_columns, nested_columns

from .handmade import block, make_turn

CONTACTS = [{"name": "Ana", "email": "ana@x.io", "address": {"street": "1 Main St", "city": "Porto"}, "phones": ["1"]},
            {"name": "Bo", "email": "bo@x.io", "address": {"street": "2 High St", "city": "Leeds"}, "phones": []}]
ASK = "Turn contacts.json into a CSV I can open in Excel, called contacts.csv, with the columns name, email and city."
# the 0.5B model's code (ho42): the record's own fields, the whole address dict in a column
OWN_FIELDS = ('import csv, json\nrecords = json.load(open("contacts.json"))\ncolumns = ["name", "email", "address", "phones"]\n'
              'with open("contacts.csv", "w", newline="") as f:\n    w = csv.writer(f)\n    w.writerow(columns)\n'
              '    for r in records:\n        w.writerow([r.get(c, "") for c in columns])')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "contacts.json").write_text(json.dumps({"contacts": CONTACTS}))
    return tmp_path


def test_a_city_inside_the_address_is_written_as_its_own_column(here: Path) -> None:
    found = nested_columns.asked(ASK, here)
    assert found == ("contacts.json", "contacts.csv", ["name", "email", "city"],
                     {"name": ["name"], "email": ["email"], "city": ["address", "city"]})
    run = subprocess.run([sys.executable, "-c", nested_columns.ready_code(*found)], capture_output=True, text=True, cwd=here)
    assert run.stdout == "2 rows written to contacts.csv with the columns name, email, city\n", run.stderr
    rows = list(csv.reader((here / "contacts.csv").open(newline="")))
    assert rows == [["name", "email", "city"], ["Ana", "ana@x.io", "Porto"], ["Bo", "bo@x.io", "Leeds"]]
    verdict = nested_columns.check(make_turn(ASK), block(OWN_FIELDS))
    assert verdict is not None and verdict.ask is not None and "city is in address" in verdict.note
    reaches = OWN_FIELDS.replace('r.get(c, "") for c in columns', 'r["name"], r["email"], r["address"]["city"]')
    assert nested_columns.check(make_turn(ASK), block(reaches)) is None


def test_left_to_the_model_when_every_column_is_a_records_own_or_one_is_nowhere(here: Path) -> None:
    assert nested_columns.asked(ASK.replace("city", "phones"), here) is None  # the records' own fields
    assert nested_columns.asked(ASK.replace("city", "country"), here) is None  # not in the records at all
    assert nested_columns.asked("how many contacts in contacts.json live in Porto?", here) is None


def test_a_note_in_brackets_ends_no_list_of_columns() -> None:
    assert named_columns.named("just three columns: name, email, joined (in that order)") == ["name", "email", "joined"]
