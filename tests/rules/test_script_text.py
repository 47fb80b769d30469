from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.fixes import save_code
from oi_local.core.rules import script_text

from .handmade import block, make_turn

BILLS = "month,amount\njan,48.25\nfeb,51.75\n"
SCRIPT = 'total = 0\nwith open("bills.csv", newline="") as f:\n    for row in csv.DictReader(f):\n        total += float(row["amount"])\nprint("Total:", total)\n'


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "bills.csv").write_text(BILLS)
    (tmp_path / "bill_total.py").write_text("import csv\nprint(oops)\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code.replace('"python3"', repr(sys.executable))], cwd=folder,
                          capture_output=True, text=True)


def test_a_written_script_gets_the_standard_library_import_it_uses(folder: Path) -> None:
    code = save_code("bill_total.py", SCRIPT)
    assert "NameError: name 'csv' is not defined" in _run(code, folder).stderr
    b = block(code)
    verdict = script_text.check(make_turn("bill_total.py crashes, fix it"), b)
    assert verdict is not None and "import csv added to bill_total.py" in verdict.warning
    assert _run(b.code, folder).stdout.startswith("Total: 100.0")
    assert (folder / "bill_total.py").read_text().startswith("import csv\ntotal = 0\n")


def test_a_header_of_ours_copied_into_the_script_is_taken_out(folder: Path) -> None:
    code = save_code("bill_total.py", "bill_total.py contains:\nimport csv\n" + SCRIPT)
    b = block(code)
    verdict = script_text.check(make_turn("fix bill_total.py"), b)
    assert verdict is not None and "'bill_total.py contains:' taken out" in verdict.warning
    assert _run(b.code, folder).stdout.startswith("Total: 100.0")


@pytest.mark.parametrize("code", [
    save_code("bill_total.py", "import csv\n" + SCRIPT),  # nothing missing
    save_code("bill_total.py", SCRIPT.replace("csv.DictReader(f)", "rows") + "print(numbers)\n"),  # not modules
    save_code("notes.txt", SCRIPT),  # not a script
    'print("csv.reader")',  # writes nothing
])
def test_left_alone(code: str) -> None:
    b = block(code)
    assert script_text.check(make_turn("fix bill_total.py"), b) is None and b.code == code
