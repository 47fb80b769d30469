from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import file_hints


def test_the_files_a_request_names_go_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sales.csv").write_text("region,amount\nnorth,10\n")
    added = file_hints.prompt(None, "What is the total amount in sales.csv?", "")
    assert added is not None and "region,amount" in added.hint and not added.examples
    follow_up = file_hints.prompt(None, "And the average?", "What is the total amount in sales.csv?")
    assert follow_up is not None and "region,amount" in follow_up.hint  # the earlier request's files
    assert file_hints.prompt(None, "What is 2 + 2?", "") is None


@pytest.mark.parametrize("request_text", [
    "before i start on my thesis again, put a copy of essay/draft.md in a new folder essay/backup_nov",
    "copy items.csv into a new backup folder",
    "back my essay/draft.md up into old/",
    "rename essay/draft.md to essay/draft_v1.md",
])
def test_a_request_that_only_moves_files_gets_their_sizes_not_their_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request_text: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "essay").mkdir()
    (tmp_path / "essay" / "draft.md").write_text("| transect | detections |\n|---|---|\n| towpath | 167 |\n")
    (tmp_path / "items.csv").write_text("item,price\npen,1.20\n")
    added = file_hints.prompt(None, request_text, "")
    assert added is not None
    assert "detections" not in added.hint and "price" not in added.hint  # nothing to process by hand
    assert "is a file of" in added.hint and " bytes." in added.hint


@pytest.mark.parametrize("request_text", [
    "copy the rows of items.csv where the price is over 1 into dear.csv",
    "copy items.csv to items_old.csv and change the pen's price to 2",
    "how many lines does items.csv have? then back it up",
    "copy lines.txt to old/ and count its words",
])
def test_a_request_about_what_is_in_a_file_still_sees_its_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request_text: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "items.csv").write_text("item,price\npen,1.20\n")
    (tmp_path / "lines.txt").write_text("one two\n")
    added = file_hints.prompt(None, request_text, "")
    assert added is not None and ("item,price" in added.hint or "one two" in added.hint)
