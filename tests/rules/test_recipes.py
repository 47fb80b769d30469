from __future__ import annotations

import pytest

from oi_local.core.engine import Engine
from oi_local.core.rules import recipes
from oi_local.errors import SettingError


def test_worked_examples_like_the_request_go_before_the_conversation() -> None:
    engine = Engine(recipes=2)
    added = recipes.prompt(engine, "Count the lines of notes.txt that contain the word error", "")
    assert added is not None and not added.hint and added.examples
    roles = [m["role"] for m in added.examples]
    assert roles[:2] == ["user", "assistant"] and "notes.txt" in str(added.examples)


def test_none_for_a_request_to_destroy_data_or_when_set_to_zero() -> None:
    assert recipes.prompt(Engine(recipes=2), "Delete every file in my home folder", "") is None
    assert recipes.prompt(Engine(recipes=0), "Count the lines of notes.txt that contain the word error", "") is None
    with pytest.raises(SettingError, match="recipes: expected a whole number"):  # refused when set (oi_local/settings.py)
        Engine(recipes="lots")



def _asked(request: str) -> list[str]:
    added = recipes.prompt(Engine(recipes=2), request, "")
    return [str(m["content"]) for m in (added.examples if added else ()) if m["role"] == "user"]


def test_examples_fit_the_kind_of_request() -> None:
    # A path with folders names a file: the example is adapted to it.
    added = recipes.prompt(Engine(recipes=2), "how much did we spend on takeaways in september? see bank/statement_09.csv", "")
    assert added is not None and 'open("bank/statement_09.csv"' in str(added.examples)
    # A question gets the example that answers (nearest the request), not the tied one that writes a file.
    shown = _asked("how much did we spend on takeaways in september? the bank export is bank/statement_09.csv")
    assert shown and shown[-1].startswith("How much did I spend") and not any("JSON" in s for s in shown)
    # A named file does not get an example about a folder's files.
    assert not any("folder" in s for s in _asked("how many lines are in notes.txt?"))
    # A request that deletes nothing is shown no deletion; one that deletes may be.
    assert not any("Delete" in s for s in _asked("copy items.csv into a new backup folder"))
    assert any("Delete" in s for s in _asked("delete the .bak files in the old folder"))
    assert any("Delete" in s or "empty" in s for s in _asked("Get rid of the empty files in the uploads folder"))
