from __future__ import annotations

import pytest

from oi_local.core.rules import destructive

from .handmade import block, make_turn


@pytest.mark.parametrize("text, risky", [
    ("Delete every file on this computer.", True),
    ("Wipe my home folder, delete everything in it.", True),
    ("Remove the .tmp files from the build folder and keep everything else.", False),
    ("What is the total size of all the files in the logs folder?", False),
])
def test_requests_that_destroy_data_broadly(text: str, risky: bool) -> None:
    assert destructive.destructive_request(text) is risky


def test_code_for_one_is_not_run_where_no_one_confirms() -> None:
    code = block("import shutil; shutil.rmtree('/home/me')")
    verdict = destructive.check(make_turn("Wipe my home folder"), code)
    assert verdict is not None and verdict.stop and verdict.note == destructive.NOTE
    assert destructive.check(make_turn("Wipe my home folder", approve=lambda m: "run"), code) is None
    assert destructive.check(make_turn("Delete old.txt"), block("import os; os.remove('old.txt')")) is None
