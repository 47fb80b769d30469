from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import broken_scripts

from .handmade import block, make_turn

PACE = 'import csv\nfor r in csv.DictReader(open("runs.csv")):\n    print(r["time"] / r["km"])\n'
REQUEST = "pace.py is meant to work out my pace per km for every run in runs.csv but it crashes. can you fix it?"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pace.py").write_text(PACE)
    (tmp_path / "runs.csv").write_text("time,km\n26.5,5\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_prose_written_over_a_script_is_not_run(folder: Path) -> None:
    code = ('corrected = """\nWork out the pace of each run.\npace is min:sec per km, e.g. 26:35 over 5 km -> 5:19.\n"""\n'
            'with open("pace.py", "w") as f:\n    f.write(corrected)\n')
    b = block(code)
    verdict = broken_scripts.check(make_turn(REQUEST), b)
    assert verdict is not None and verdict.again and "pace.py" in verdict.note and "not Python" in verdict.note
    assert verdict.ask is not None and verdict.ask.hide
    for other in ['open("pace.py", "w").write("Work out the pace.\\n")',
                  'from pathlib import Path\nPath("pace.py").write_text("this is the fix")']:
        assert broken_scripts.check(make_turn(REQUEST), block(other)) is not None, other
    assert (folder / "pace.py").read_text() == PACE


def test_a_whole_script_a_new_file_or_a_text_file_is_left_alone(folder: Path) -> None:
    fixed = 'import csv\nfor r in csv.DictReader(open("runs.csv")):\n    print(float(r["time"]) / float(r["km"]))\n'
    code = f"fixed = {fixed!r}\nwith open('pace.py', 'w') as f:\n    f.write(fixed)\n"
    assert broken_scripts.check(make_turn(REQUEST), block(code)) is None
    subprocess.run([sys.executable, "-c", code], check=True, cwd=folder)
    assert subprocess.run([sys.executable, "pace.py"], capture_output=True, text=True, cwd=folder).stdout == "5.3\n"
    for code in ['open("notes.txt", "w").write("not python at all")',
                 'open("new_script.py", "w").write("not python at all")',  # not there: nothing to break
                 'text = make()\nopen("pace.py", "w").write(text)']:  # a text it does not give whole
        assert broken_scripts.check(make_turn(REQUEST), block(code)) is None, code


def test_a_script_written_over_a_data_file_is_not_run(folder: Path) -> None:
    fixed = 'import csv\nfor r in csv.DictReader(open("runs.csv")):\n    print(float(r["time"]) / float(r["km"]))\n'
    code = f"fixed = {fixed!r}\nwith open('runs.csv', 'w') as f:\n    f.write(fixed)\n"
    verdict = broken_scripts.check(make_turn(REQUEST), block(code))
    assert verdict is not None and "a data file" in verdict.note and "runs.csv" in verdict.note
    assert (folder / "runs.csv").read_text() == "time,km\n26.5,5\n"
    # data written over data, or a script into a new file: left alone
    assert broken_scripts.check(make_turn(REQUEST), block('open("runs.csv", "w").write("time,km\\n30,5\\n")')) is None
    new = f"fixed = {fixed!r}\nwith open('pace_fixed.txt', 'w') as f:\n    f.write(fixed)\n"
    assert broken_scripts.check(make_turn(REQUEST), block(new)) is None
