from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, data_case

from .handmade import block, make_turn

LOG = ("2025-10-07 01:30:03 INFO backupd: nightly job 'photos' finished OK (41 files copied)\n"
       "2025-10-08 01:33:14 ERROR backupd: nightly job 'photos' FAILED, nothing copied\n"
       "2025-10-09 01:32:53 ERROR backupd: nightly job 'photos' FAILED, nothing copied\n")
COUNT = ('n = 0\nfor line in open("backup.log"):\n    if "failed" in line:\n        n += 1\n'
         'print("failed nights:", n)')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "backup.log").write_text(LOG)
    (tmp_path / "fees.csv").write_text("name,status\nAna,Paid\nBo,Overdue\nCy,Paid\n")
    (tmp_path / "mixed.txt").write_text("Error one\nERROR two\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_word_the_data_writes_in_another_case_is_spelled_as_the_data_has_it(folder: Path) -> None:
    b = block(COUNT)
    verdict = data_case.check(make_turn("how many nights did the backup fail? see backup.log"), b)
    assert verdict is not None and '"failed" → "FAILED"' in verdict.warning
    assert "if 'FAILED' in line:" in b.code and 'print("failed nights:", n)' in b.code  # the label stays
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder)
    assert out.stdout.strip() == "failed nights: 2"
    # a column's values, found by the file the code opens (no file named in the request)
    code = 'import csv\nrows = list(csv.DictReader(open("fees.csv")))\nprint(sum(r["status"] == "paid" for r in rows))'
    new, changes = data_case.respelled(code, data_case._data(make_turn("how many have paid?"), code))
    assert "r[\"status\"] == 'Paid'" in new and changes == ['"paid" → "Paid"']


def test_left_alone(folder: Path) -> None:
    turn = make_turn("how many failed? see backup.log and mixed.txt")
    for code in (COUNT.replace('"failed" in line', '"failed" in line.lower()'),  # folds case itself
                 COUNT.replace('"failed"', '"FAILED"'),  # as written
                 COUNT.replace('"failed"', '"crashed"'),  # nowhere at all: another rule's business
                 'print(sum("error" in l for l in open("mixed.txt")))',  # Error and ERROR: which?
                 'print("failed" + "x")'):  # not a test
        b = block(code)
        assert data_case.check(turn, b) is None and b.code == code, code
    assert data_case.check(make_turn("how many failed?"), block("print('failed' in 'x')")) is None  # no data


def test_off_with_repair_slips() -> None:
    assert data_case.rule not in active(make_turn("x", repair_slips=False).engine, "check")
