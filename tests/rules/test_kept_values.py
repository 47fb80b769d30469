from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import kept_values

from .handmade import block, make_turn

DOC = {"version": "2.3.0", "theme": "light", "language": "en",
       "notifications": {"email": True, "push": True, "sms": False, "digest": "weekly"},
       "autosave_minutes": 5, "recent_files": ["report.docx", "budget.xlsx"]}
# Every key of the preview set again (ho45's reply, with this file's names).
EDIT = ('import json\nwith open("prefs.json") as f:\n    settings = json.load(f)\nsettings["theme"] = "dark"\n'
        'settings["language"] = "fr"\n'
        'settings["notifications"] = {"email": False, "push": False, "sms": False, "digest": "weekly"}\n'
        'settings["autosave_minutes"] = 5\n'
        'with open("prefs.json", "w") as f:\n    json.dump(settings, f, indent=2)\nprint(settings)\n')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "prefs.json").write_text(json.dumps(DOC))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_only_the_asked_values_change(folder: Path) -> None:
    b = block(EDIT)
    verdict = kept_values.check(make_turn("In prefs.json, turn off the email notifications and switch the language to "
                                          "French (\"fr\"). Leave everything else alone."), b)
    assert verdict is not None and "theme, notifications → push left as prefs.json has them" in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True, capture_output=True)
    saved = json.loads((folder / "prefs.json").read_text())
    assert saved == {**DOC, "language": "fr", "notifications": {**DOC["notifications"], "email": False}}


def test_a_key_above_with_no_sibling_named_changes_them_all(folder: Path) -> None:
    b = block(EDIT.replace('settings["theme"] = "dark"\n', ""))
    verdict = kept_values.check(make_turn("mute the notifications in prefs.json, french language please"), b)
    assert verdict is None  # every change is asked: "notifications" names them, "language" and "fr" the other


def test_a_value_said_in_the_request_is_asked(folder: Path) -> None:
    b = block(EDIT)
    verdict = kept_values.check(make_turn("prefs.json: I want the dark look, and turn off email notifications"), b)
    assert verdict is not None and "language" in verdict.warning and "theme" not in verdict.warning
    subprocess.run([sys.executable, "-c", b.code], check=True, capture_output=True)
    saved = json.loads((folder / "prefs.json").read_text())
    assert saved["theme"] == "dark" and saved["language"] == "en" and saved["notifications"]["push"] is True


@pytest.mark.parametrize("request_text, code", [
    ("in prefs.json change the colour scheme", EDIT),  # nothing asked is changed: the words may name it otherwise
    ("reset prefs.json to the defaults", EDIT),
    ("what is the theme in prefs.json?", EDIT.replace("json.dump", "print")),  # not written back
    ("set theme to dark in prefs.json", 'import json\ns = json.load(open("prefs.json"))\ns["theme"] = "dark"; s["language"] = "x"\n'
                                        'json.dump(s, open("prefs.json", "w"))\n'),  # two statements on a line
])
def test_left_alone(request_text: str, code: str) -> None:
    b = block(code)
    assert kept_values.check(make_turn(request_text), b) is None and b.code == code
