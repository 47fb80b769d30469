"""Rename by example: one name shown before and after gives the rule for every file named like it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import rename_example

from .handmade import block, make_turn

ASK = ("The files in receipts/ are named like receipt_07-03-2024.txt, where the date is day-month-year. Please rename "
       "them all to year-month-day first, like 2024-03-07_receipt.txt, so they sort in date order.")
DAYS = ("07-03-2024", "21-01-2024", "02-11-2023", "30-12-2023")
# the 0.5B model's try (ho40): names typed in, parts cut by hand
WRONG = ('from pathlib import Path\nfor r in sorted(Path("receipts").iterdir()):\n'
         '    r.rename(Path("receipts", r.name.replace("-", "_", 1)))')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "receipts").mkdir()
    for day in DAYS:
        (tmp_path / "receipts" / f"receipt_{day}.txt").write_text(day)
    (tmp_path / "receipts" / "notes.txt").write_text("not a receipt")
    return tmp_path


def test_every_file_named_like_the_example_is_renamed_as_it_shows(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{WRONG}\n```", "Renamed the four receipts."])
    interp.template = "small"
    try:
        interp.chat(ASK, display=False)
    finally:
        interp.close()
    names = sorted(p.name for p in (folder / "receipts").iterdir())
    assert names == ["2023-11-02_receipt.txt", "2023-12-30_receipt.txt", "2024-01-21_receipt.txt",
                     "2024-03-07_receipt.txt", "notes.txt"]
    assert (folder / "receipts" / "2024-01-21_receipt.txt").read_text() == "21-01-2024"  # each file kept its own


def test_numbers_padded_with_zeros_and_the_folder_found(folder: Path) -> None:
    (folder / "scans").mkdir()
    for n in (1, 3, 12):
        (folder / "scans" / f"scan{n}.png").write_bytes(b"")
    found = rename_example.asked("rename the pngs in scans so scan1.png becomes scan_001.png", folder)
    assert found is not None and found[0] == "scans"
    import subprocess
    import sys
    subprocess.run([sys.executable, "-c", rename_example.ready_code(*found[:1], *found[3:])], check=True, cwd=folder)
    assert sorted(p.name for p in (folder / "scans").iterdir()) == ["scan_001.png", "scan_003.png", "scan_012.png"]


def test_what_is_not_a_rename_by_example(folder: Path) -> None:
    assert rename_example.check(make_turn(ASK), block(WRONG)) is not None
    # no rename asked; a copy with a name; two dates in one name (which is which cannot be told)
    assert rename_example.asked("what is in receipt_07-03-2024.txt and 2024-03-07_receipt.txt?", folder) is None
    assert rename_example.asked("rename notes.txt to todo.txt", folder) is None
    (folder / "receipts" / "receipt_01-01-2024.txt").write_text("")
    assert rename_example.asked(ASK.replace("07-03-2024", "01-01-2024").replace("2024-03-07", "2024-01-01"), folder) is None


def test_names_with_spaces_in_quotes_and_two_pairs_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scans").mkdir()
    for n in (1, 2, 7, 10, 12):
        (tmp_path / "scans" / f"Scan {n}.pdf").write_text(str(n))
    ask = ("The files in my scans folder are named like 'Scan 1.pdf', 'Scan 12.pdf' and they sort in the wrong order. "
           "Rename them to scan_001.pdf, scan_012.pdf and so on, keeping each file's number.")
    found = rename_example.asked(ask, tmp_path)
    assert found is not None and found[:3] == ("scans", "Scan 1.pdf", "scan_001.pdf")
    run = subprocess.run([sys.executable, "-c", rename_example.ready_code(found[0], found[3], found[4])],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (tmp_path / "scans").iterdir()) == \
        ["scan_001.pdf", "scan_002.pdf", "scan_007.pdf", "scan_010.pdf", "scan_012.pdf"]
    assert (tmp_path / "scans" / "scan_012.pdf").read_text() == "12"
    # two pairs that follow different rules are no example
    (tmp_path / "scans" / "Scan 3.pdf").write_text("3")
    assert rename_example.asked("rename 'Scan 3.pdf', 'Scan 4.pdf' to scan_003.pdf, scan_9.pdf", tmp_path) is None


def test_a_word_the_example_moves_stands_for_any_text_when_the_example_alone_has_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scans").mkdir()
    for name in ("receipt 05.03.2024.pdf", "insurance 17.11.2023.pdf", "tax letter 02.01.2024.pdf", "notes.txt"):
        (tmp_path / "scans" / name).write_text(name)
    ask = ("The PDFs in my scans folder are named like 'receipt 05.03.2024.pdf' (day.month.year). Please rename all of "
           "them so the date comes first as year-month-day, e.g. '2024-03-05 receipt.pdf'.")
    b = block('from pathlib import Path\nfor p in Path("scans").iterdir():\n    p.rename(p.with_name("receipt_" + p.name))')
    verdict = rename_example.check(make_turn(ask), b)
    assert verdict is not None and verdict.ask is not None and verdict.ask.own
    code = (verdict.ask.text or "").split("```python\n")[1].split("```")[0]
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=tmp_path)
    assert sorted(p.name for p in (tmp_path / "scans").iterdir()) == [
        "2023-11-17 insurance.pdf", "2024-01-02 tax letter.pdf", "2024-03-05 receipt.pdf", "notes.txt"]
