from __future__ import annotations

import sys
from pathlib import Path

import pytest

from oi_local.core.rules import copy_sources

from .handmade import block, make_turn

OVER = 'with open("reports/q_report.txt", "w") as f:\n    f.write("latest.txt")\n'
ASK = "ok, copy that one here and call it latest.txt"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "q_report.txt").write_text("Q3 numbers\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_code_that_writes_over_the_file_to_copy_is_not_run() -> None:
    turn = make_turn(ASK)
    verdict = copy_sources.check(turn, block(OVER))
    assert verdict is not None and verdict.again and verdict.ask is not None
    assert verdict.note == ("Not run: this code writes over reports/q_report.txt, and the request asks for a copy: "
                            "the original stays as it is. Write the copy to latest.txt.")
    again = copy_sources.check(turn, block(OVER))
    assert again is not None and again.stop  # the second time the turn ends
    shell = copy_sources.check(make_turn("back up my reports please"), block("echo x > reports/q_report.txt", "shell"))
    assert shell is not None and "reports/q_report.txt" in shell.note and "a new file" in shell.note
    confirmed = copy_sources.check(make_turn(ASK, approve=lambda m: "run"), block(OVER))
    assert confirmed is not None and not confirmed.again and confirmed.warning.startswith("Careful: ")


@pytest.mark.parametrize("request_text, code", [
    (ASK, 'import shutil\nshutil.copy("reports/q_report.txt", "latest.txt")'),  # a copy
    (ASK, 'open("latest.txt", "w").write(open("reports/q_report.txt").read())'),  # the named copy, not there yet
    ("copy q_report.txt into reports/q_report.txt", OVER),  # named as the copy
    ("copy the header into reports/q_report.txt and update the totals", OVER),  # a change asked too
    (ASK, 'open("reports/q_report.txt", "a").write("x")'),  # an append is not writing over
    ("how many lines does reports/q_report.txt have?", OVER),  # not a copy (question writes' business)
    ("don't copy anything, just fix reports/q_report.txt", OVER),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert copy_sources.check(make_turn(request_text), block(code)) is None


def test_in_a_chat_the_original_survives(folder: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    good = 'import shutil\nshutil.copy("reports/q_report.txt", "latest.txt")\nprint("copied")'
    interp, _ = scripted_interpreter([f"```python\n{OVER}```", f"```python\n{good}\n```", "Copied it to latest.txt."])
    try:
        interp.chat(ASK, display=False)
    finally:
        interp.close()
    assert (folder / "reports" / "q_report.txt").read_text() == "Q3 numbers\n"
    assert (folder / "latest.txt").read_text() == "Q3 numbers\n"
