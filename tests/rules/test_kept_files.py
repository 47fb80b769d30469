from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import kept_files

from .handmade import block, make_turn

RUN = "please run club/fees_report.py and tell me the total. don't change anything in the club folder, it's her script"
RENAME = block('from pathlib import Path\nfor p in Path("club").glob("membership.csv"):\n    p.rename(p.with_suffix(".md"))')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club").mkdir()
    (tmp_path / "club" / "membership.csv").write_text("name,fee\nAl,10\n")
    (tmp_path / "club" / "fees_report.py").write_text("print('total: 10')\n")
    (tmp_path / "notes.txt").write_text("a b c\n")
    return tmp_path


@pytest.mark.parametrize("request_text, expected", [
    (RUN, {"club": True}),
    ("tell me the 3 biggest files, dont delete anything", {".": False}),
    ("copy notes.txt into backup/ and don't touch the original", {"notes.txt": True}),
    ("leave notes.txt alone and count the rows of club/membership.csv", {"notes.txt": True}),
    ("count the words, do not modify notes.txt.", {"notes.txt": True}),
    ("don't move the club folder", {"club": False}),
    ("fix the typo in notes.txt. Don't change anything else please", {}),  # the rest only: not a path
    ("rename the photos without changing their extension", {}),
    ("how many words are in notes.txt?", {}),
])
def test_the_paths_a_request_keeps(request_text: str, expected: dict[str, bool], folder: Path) -> None:
    assert kept_files.kept(request_text, folder) == expected


def test_code_that_changes_a_kept_folder_is_not_run_and_asked_afresh(folder: Path) -> None:
    turn = make_turn(RUN)
    verdict = kept_files.check(turn, RENAME)
    assert verdict is not None and verdict.again and "says not to change club" in verdict.note
    assert verdict.ask is not None and verdict.ask.hide
    write = block("open('club/membership.csv', 'w').write('')")
    second = kept_files.check(turn, write)
    assert second is not None and second.stop and "club/membership.csv" in second.note


@pytest.mark.parametrize("request_text, code", [
    (RUN, "import subprocess\nsubprocess.run(['python3', 'club/fees_report.py'])"),  # runs it, changes nothing
    (RUN, "open('summary.txt', 'w').write('10')"),  # writes outside the kept folder
    ("copy notes.txt into backup/ and don't touch the original", "import shutil, os\nos.makedirs('backup')\nshutil.copy('notes.txt', 'backup/')"),
    ("tell me the biggest file, dont delete anything", "open('notes.txt', 'a').write('x')"),  # only deleting was ruled out
])
def test_code_that_keeps_them_runs(request_text: str, code: str) -> None:
    assert kept_files.check(make_turn(request_text), block(code)) is None


def test_in_the_loop_the_kept_file_survives_and_a_person_confirming_is_warned(folder: Path) -> None:
    from scripted import scripted_interpreter

    interp, model = scripted_interpreter([
        f"```python\n{RENAME.code}\n```", "```python\nopen('summary.txt', 'w').write('fees: 10')\nprint('written')\n```",
        "summary.txt says the fees are 10."])
    try:
        interp.chat("write the fee total of club/membership.csv into summary.txt, and don't change anything in the "
                    "club folder", display=False)
        assert (folder / "club" / "membership.csv").read_text() == "name,fee\nAl,10\n"
        assert not (folder / "club" / "membership.md").exists()
        assert "says not to change club" in str(model.prompts[1][-1]["content"])
        assert (folder / "summary.txt").read_text() == "fees: 10"
    finally:
        interp.close()
    warned = kept_files.check(make_turn(RUN, approve=lambda m: "run"), RENAME)
    assert warned is not None and warned.warning.startswith("Careful: ") and not (warned.stop or warned.again)


def test_some_of_a_folder_kept_does_not_keep_the_folder(tmp_path: Path) -> None:
    # "delete the old ones ... but do not touch the newer ones in logs/": the old ones may go
    (tmp_path / "logs").mkdir()
    ask = ("zip the .log files in logs/ that are older than 30 days into old_logs.zip and delete them, "
           "but do not touch the newer ones in logs/")
    assert kept_files.kept(ask, tmp_path) == {}
    assert kept_files.kept("leave the recent logs in logs/ alone and remove the rest", tmp_path) == {}
    assert kept_files.kept("don't touch anything in logs/", tmp_path) == {"logs": True}  # the whole folder
