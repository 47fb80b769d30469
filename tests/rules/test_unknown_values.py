from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import unknown_values

from .handmade import block, make_turn

OCTOBER = ('import csv\nrows = [r for r in csv.DictReader(open("bank/statement.csv")) '
           'if r["category"] == "groceries" and r["date"].startswith("{month}")]\nprint(sum(float(r["amount"]) for r in rows))')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "statement.csv").write_text("date,category,amount\n2025-10-01,groceries,-52.94\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_value_the_data_does_not_have_is_asked_afresh() -> None:
    turn = make_turn("how much did we spend on groceries in october? bank/statement.csv is the bank export")
    verdict = unknown_values.check(turn, block(OCTOBER.format(month="2024-10")))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert '"2024-10"' in verdict.note and "bank/statement.csv" in verdict.note
    assert unknown_values.check(turn, block(OCTOBER.format(month="2023-10"))) is None  # once a turn


def test_values_the_data_or_the_request_has_are_fine() -> None:
    turn = make_turn("how much did we spend on groceries in october? bank/statement.csv is the bank export")
    assert unknown_values.check(turn, block(OCTOBER.format(month="2025-10"))) is None
    turn = make_turn("how many rows of bank/statement.csv say 'rent'?")
    assert unknown_values.check(turn, block('print(sum(1 for l in open("bank/statement.csv") if "rent" in l))')) is None
    # no file named: nothing to know the values from
    assert unknown_values.check(make_turn("is 'abc' > 'abd'?"), block('print("abc" > "abd")')) is None


def test_a_folder_is_known_at_every_depth_names_and_text(folder: Path) -> None:
    # The top level holds only folders; the PDFs and the TODO comments are below it.
    (folder / "invoices" / "2024").mkdir(parents=True)
    (folder / "invoices" / "2024" / "march.pdf").write_bytes(b"%PDF-1.4\0binary")
    (folder / "app" / "db").mkdir(parents=True)
    (folder / "app" / "db" / "store.py").write_text("x = 1  # TODO: close the connection\n")
    walk = 'import os\nprint(sum(f.endswith(".pdf") for _, _, fs in os.walk("invoices") for f in fs))'
    turn = make_turn("how many pdf invoices are in invoices/? count the ones in all the subfolders too")
    assert unknown_values.check(turn, block(walk)) is None
    todo = ('import os\nprint(sum(l.strip().startswith("# TODO:") for r, _, fs in os.walk("app") '
            'for f in fs if f.endswith(".py") for l in open(os.path.join(r, f))))')
    assert unknown_values.check(make_turn("how many TODO comments are left in the python files under app/?"),
                                block(todo)) is None
    # A value that is nowhere, at any depth, is still caught.
    verdict = unknown_values.check(make_turn("how many pdf invoices are in invoices/?"),
                                   block(walk.replace(".pdf", ".docx")))
    assert verdict is not None and '".docx"' in verdict.note


def test_a_pattern_that_matches_nothing_in_the_data_is_asked_afresh(folder: Path) -> None:
    log = "2025-03-04 02:00:08 backup: run #415 FAILED, nothing copied\n2025-03-05 02:18:11 backup: run #416 finished OK\n"
    (folder / "pasted-1a2b3c4d.txt").write_text(log)
    turn = make_turn("here's the log:\n" + log + "how many nights did the backup fail?")
    code = 'import re\nlog = open("pasted-1a2b3c4d.txt").read()\nprint(re.findall(r"(\\d+) nights", log))'
    verdict = unknown_values.check(turn, block(code))
    assert verdict is not None and verdict.ask is not None and r'"(\d+) nights"' in verdict.note
    assert "pasted-1a2b3c4d.txt" in verdict.note
    named = 'import re\nlog = open("pasted-1a2b3c4d.txt").read()\npattern = r"run (\\d+) FAILED"\nprint(re.findall(pattern, log))'
    verdict = unknown_values.check(make_turn(turn.request), block(named))  # a pattern named first, then used
    assert verdict is not None and r'"run (\d+) FAILED"' in verdict.note
    # patterns that match the data (in any case), or do not compile, run as they are
    for pattern in (r"run #\d+ failed", r"FAILED", r"(\d+"):
        good = f'import re\nlog = open("pasted-1a2b3c4d.txt").read()\nprint(len(re.findall(r"{pattern}", log)))'
        assert unknown_values.check(make_turn(turn.request), block(good)) is None, pattern
    # a named CSV is the data too
    assert unknown_values.check(make_turn("which rows of bank/statement.csv are refunds?"),
                                block('import re\nprint(re.findall(r"reimbursed", open("bank/statement.csv").read()))')) is not None


def test_a_value_nowhere_in_the_file_the_code_opens_is_asked_afresh(folder: Path) -> None:
    log = "2025-03-04 02:00:08 ERROR backupd: nightly job 'photos' FAILED, nothing copied\n"
    (folder / "pasted-1a2b3c4d.txt").write_text(log)
    request = "how many nights did the backup fail? the log is in the message I pasted"
    made_up = ('n = 0\nfor line in open("pasted-1a2b3c4d.txt"):\n'
               '    if line.startswith("backupd[4380]: nightly job \'photos\' FAILED, nothing copied"):\n        n += 1\nprint(n)')
    verdict = unknown_values.check(make_turn(request), block(made_up))
    assert verdict is not None and verdict.ask is not None and "pasted-1a2b3c4d.txt" in verdict.note
    fine = ('n = 0\nfor line in open("pasted-1a2b3c4d.txt"):\n'
            '    if "nightly job \'photos\' FAILED, nothing copied" in line:\n        n += 1\nprint(n)')
    assert unknown_values.check(make_turn(request), block(fine)) is None
    main = 'def main():\n    print(open("pasted-1a2b3c4d.txt").read())\nif __name__ == "__main__":\n    main()'
    assert unknown_values.check(make_turn(request), block(main)) is None  # Python's own, not the data's


def test_a_path_inside_a_call_on_one_side_is_not_a_compared_value(folder: Path) -> None:
    (folder / "notes").mkdir()
    (folder / "notes" / "a.md").write_text("x")
    code = ('import os, time\nfor f in os.listdir("notes/"):\n'
            '    if os.path.getmtime(os.path.join("notes/", f)) > time.time() - 3 * 86400:\n        print(f)')
    assert unknown_values.compared(code) == []
    assert unknown_values.check(make_turn("which files in my notes folder changed in the last 3 days?"), block(code)) is None
    assert unknown_values.compared('print([r for r in rows if r["kind"] in ("alpha", "beta")])') == ["alpha", "beta"]


def test_a_follow_up_that_names_no_file_is_checked_against_the_file_pandas_reads(folder: Path) -> None:
    (folder / "loans.csv").write_text("member,book,borrowed,returned\nAna Silva,Dune,2025-01-06,\nTom,Emma,2025-01-02,2025-01-09\n")
    code = 'import pandas as pd\ndf = pd.read_csv("loans.csv")\nprint(df[df["returned"] == "Not Returned"])'
    verdict = unknown_values.check(make_turn("Which of their books haven't been returned yet?"), block(code))
    assert verdict is not None and '"Not Returned"' in verdict.note and "loans.csv" in verdict.note
    fine = 'import pandas as pd\ndf = pd.read_csv("loans.csv")\nprint(df[df["member"] == "Ana Silva"])'
    assert unknown_values.check(make_turn("Which of her books haven't been returned yet?"), block(fine)) is None


def test_a_date_the_request_names_in_words_is_known_as_code_writes_it(folder: Path) -> None:
    (folder / "bills.json").write_text('[{"id": 1, "due": "2024-05-20", "paid": false}]')
    code = ('import json\nbills = json.load(open("bills.json"))\n'
            'print([b["id"] for b in bills if b["due"] < "2024-06-01" and not b["paid"]])')
    assert unknown_values.check(make_turn("which bills in bills.json were due before 1 June 2024?"), block(code)) is None
    assert unknown_values.check(make_turn("which bills in bills.json were due before June 1st, 2024?"), block(code)) is None
    other = code.replace("2024-06-01", "2023-06-01")  # a date nobody said is still asked about
    assert unknown_values.check(make_turn("which bills in bills.json were due before 1 June 2024?"), block(other)) is not None


def test_a_made_up_value_for_a_column_with_empty_cells_is_told_how_empty_reads(folder: Path) -> None:
    (folder / "loans.csv").write_text("member,book,returned\nAna,Dune,\nTom,Emma,2025-01-09\nAna,Circe,\n")
    code = 'import pandas as pd\ndf = pd.read_csv("loans.csv")\nprint(df[df["returned"] == "Not Returned"])'
    verdict = unknown_values.check(make_turn("Which books in loans.csv haven't been returned yet?"), block(code))
    assert verdict is not None and verdict.ask is not None
    assert "returned is empty on 2 of its first 3 rows" in (verdict.ask.text or "") and ".isna()" in (verdict.ask.text or "")
    assert (verdict.ask.text or "").endswith(")")
