from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import deletions

from .handmade import block, make_turn


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_deleting_files_the_request_did_not_name_is_not_auto_run() -> None:
    turn = make_turn("Remove the .tmp files in the build folder")
    verdict = deletions.check(turn, block("rm build/a.tmp build/app.bin", lang="shell"))
    assert verdict is not None and verdict.again and "build/app.bin" in verdict.shown
    assert "app.bin" not in verdict.note  # the model is not told the names of the files to keep
    assert deletions.check(turn, block("rm build/a.tmp", lang="shell")) is None


def test_wiping_a_folder_when_some_files_were_asked_for() -> None:
    code = block("import os\nfor f in os.listdir('logs'):\n    os.remove(os.path.join('logs', f))")
    verdict = deletions.check(make_turn("Delete the empty files in logs, leave the others alone"), code)
    assert verdict is not None and "logs/" in verdict.note
    assert deletions.check(make_turn("Delete everything in the logs folder"), code) is None


def test_a_person_confirming_sees_a_warning_first() -> None:
    turn = make_turn("Remove the .tmp files in the build folder", approve=lambda m: "run")
    verdict = deletions.check(turn, block("rm build/a.tmp build/app.bin", lang="shell"))
    assert verdict is not None and verdict.warning.startswith("Careful: ") and not verdict.again


def test_code_that_deletes_files_for_a_request_that_asks_nothing_to_go_is_refused() -> None:
    loop = block('import os\nfor f in os.listdir("backup_drive"):\n    if f.endswith(".HEIC"):\n'
                 '        os.remove(os.path.join("backup_drive", f))\nprint("done")')
    request = "I've been copying photos off camera_roll/ into backup_drive/ by hand and lost track of them"
    verdict = deletions.check(make_turn(request), loop)
    assert verdict is not None and verdict.again and verdict.note == deletions.NOTHING_ASKED_NOTE
    assert deletions.check(make_turn(request), block("rm -f backup_drive/*.HEIC", "shell")) is not None
    assert deletions.check(make_turn(request), block("cp camera_roll/a.HEIC backup_drive/", "shell")) is None
    for asked in ("Tidy up backup_drive: get rid of the duplicates", "Move the photos into backup_drive",
                  "Clean out the temp files in build", "Delete the .HEIC files in backup_drive"):
        verdict = deletions.check(make_turn(asked), loop)
        assert verdict is None or verdict.note != deletions.NOTHING_ASKED_NOTE, asked


def test_a_request_that_says_not_to_delete_anything_gets_no_deletion() -> None:
    unlink = block('from pathlib import Path\nPath("website/robots.txt").unlink()\nprint(3)')
    for request in ("which files in website/ are older than 2024? I want to tidy out the old junk but don't delete "
                    "anything yet", "Sort the files in website by age, do not remove any of them",
                    "Move the old pages into website/old without deleting anything"):
        verdict = deletions.check(make_turn(request), unlink)
        assert verdict is not None and verdict.note == deletions.NOTHING_ASKED_NOTE, request
    # asked to delete, and said what not to delete: not this rule's refusal
    verdict = deletions.check(make_turn("Delete website/robots.txt but don't delete the html pages"), unlink)
    assert verdict is None or verdict.note != deletions.NOTHING_ASKED_NOTE


def test_words_that_only_start_like_removal_words_ask_nothing_to_go() -> None:
    # "temperature" read as "temp files", "movies" as "move": a fix request's code deleted readings.json unasked
    from oi_local.core.rules.deletions import _MAY_REMOVE

    assert _MAY_REMOVE.search("clear out the temp files") and _MAY_REMOVE.search("move the old logs away")
    for request in ("rooms.py should print the average temperature per room but it crashes. Can you fix it?",
                    "how many movies are in films.csv?"):
        assert not _MAY_REMOVE.search(request), request
