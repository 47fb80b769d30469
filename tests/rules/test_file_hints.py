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
