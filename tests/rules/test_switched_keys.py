"""Switched keys: a true/false setting the request switches on or off is written as asked."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import switched_keys

from .handmade import block, make_turn

SETTINGS = {"city": "Leeds", "units": "metric", "alerts": {"rain": True, "frost": False, "wind_kmh": 60},
            "show_sunrise": True, "darkMode": False}
# the 0.5B model's kind of edit: every setting written out again as the file had them
REWRITE = ('import json\nwith open("settings.json") as f:\n    s = json.load(f)\ns["city"] = "Edinburgh"\n'
           's["alerts"] = {"rain": True, "frost": False, "wind_kmh": 60}\ns["show_sunrise"] = True\n'
           'with open("settings.json", "w") as f:\n    json.dump(s, f, indent=2)\n')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    return tmp_path


def test_a_switch_written_the_other_way_is_written_as_asked(here: Path) -> None:
    b = block(REWRITE)
    verdict = switched_keys.check(make_turn("In settings.json change the city to Edinburgh and switch the frost alerts on."), b)
    assert verdict is not None and "'frost' is written True" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], cwd=here, check=True)
    got = json.loads((here / "settings.json").read_text())
    assert got["alerts"] == {"rain": True, "frost": True, "wind_kmh": 60} and got["city"] == "Edinburgh"


def test_which_requests_it_reads_as_switching(here: Path) -> None:
    assert switched_keys.asked("turn off the sunrise display and enable dark mode in settings.json", here) == {
        "show_sunrise": False, "darkMode": True}
    assert switched_keys.asked("disable rain alerts in settings.json but keep frost as it is", here) == {"rain": False}
    for request in ("what does settings.json say about frost?",  # no on or off
                    "switch the frost alerts on",  # no file named
                    "set the city to York in settings.json"):  # no true/false key named
        assert switched_keys.asked(request, here) == {}, request
    # code that already writes it as asked, or does not write it: left as it is
    right = REWRITE.replace('"frost": False', '"frost": True')
    assert switched_keys.check(make_turn("switch the frost alerts on in settings.json"), block(right)) is None
    assert switched_keys.check(make_turn("switch the frost alerts off in settings.json"), block(REWRITE)) is None
