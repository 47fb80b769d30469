from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import fix_asks

from .handmade import make_turn, ran, reply


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sum_to.py").write_text("def sum_to(n):\n    return sum(range(n))\nprint(sum_to(4))\n")
    return tmp_path


def test_an_unchanged_script_is_asked_about_at_most_three_times(folder: Path) -> None:
    fixed = "def sum_to(n):\n    return sum(range(n + 1))\nprint(sum_to(4))"
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("Fixed!"))
    fix_asks.start(turn)  # the script as it was when the turn began
    assert turn.state["fixing"] == {folder / "sum_to.py": (folder / "sum_to.py").read_text()}
    turn.runs.append(ran(fixed, "10\n"))
    turn.steps = 1
    asks = [fix_asks.follow_up(turn) for _ in range(4)]
    assert all(asks[:3]) and asks[3] is None
    assert "sum_to.py" in (asks[0].text or "") and "```python\n" in (asks[0].text or "")


def test_a_question_back_is_left_to_the_user(folder: Path) -> None:
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("Shall I save it?"))
    fix_asks.start(turn)
    turn.steps = 1
    assert fix_asks.follow_up(turn) is None
    turn.repeated = True  # code sent again: asked all the same
    assert fix_asks.follow_up(turn) is not None


def test_a_fixed_script_and_requests_that_may_destroy_are_left_alone(folder: Path) -> None:
    turn = make_turn("sum_to.py prints 6 but it should print 10, fix it", reply("Done."))
    fix_asks.start(turn)
    (folder / "sum_to.py").write_text("def sum_to(n):\n    return sum(range(n + 1))\nprint(sum_to(4))\n")
    turn.steps = 1
    assert fix_asks.follow_up(turn) is None
    careful = make_turn("Fix sum_to.py and delete the logs", reply("Done."))
    fix_asks.start(careful)
    assert careful.state["fixing"] == {}
