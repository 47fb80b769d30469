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


def test_only_examples_of_the_requests_kind_a_question_or_a_change() -> None:
    from oi_local.core.writes import question

    engine = Engine(recipes=2)
    for request in ("how much did we spend on groceries in october? bank/statement.csv is the bank export",
                    "Turn people.csv into a JSON file people.json", "How many lines of notes.txt mention the word urgent?",
                    "Rename the .jpeg files in photos to .jpg"):
        added = recipes.prompt(engine, request, "")
        assert added is not None, request
        asked = [str(m["content"]).split("\n\n")[0] for m in added.examples if m["role"] == "user"]
        assert asked and all(question(a) == question(request) for a in asked), (request, asked)
