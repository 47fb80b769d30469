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

