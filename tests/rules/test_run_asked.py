from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import run_asked

from .handmade import block, make_turn, ran

SCRIPT = 'total = sum(float(x) for x in open("sales.txt"))\nprint(f"Total: {total:.2f}")\n'


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "report.py").write_text(SCRIPT)
    (tmp_path / "sales.txt").write_text("2.5\n4\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_copy_of_the_script_in_place_of_running_it_is_not_run() -> None:
    turn = make_turn("run report.py and tell me the total")
    verdict = run_asked.check(turn, block(SCRIPT))
    assert verdict is not None and verdict.note == "Not run: the request asks to run report.py, and this code does not run it; asked to run it."
    assert verdict.ask is not None and verdict.ask.hide and verdict.ask.text == "(Run report.py itself and show what it printed. If it fails, say that it failed and why.)"
    assert run_asked.check(turn, block(SCRIPT)) is None  # once a turn
    verdict = run_asked.check(make_turn("run report.py and tell me the total", prefill_code=True), block(SCRIPT))
    assert verdict is not None and verdict.ask is not None  # where the back end allows, the reply starts with the run
    assert verdict.ask.sampling == {"reply_prefix": "```shell\npython3 report.py\n```\n"}


@pytest.mark.parametrize("request_text, code, runs", [
    ("run report.py and tell me the total", "python3 report.py", ()),  # runs it
    ("run report.py and tell me the total", "import subprocess\nsubprocess.run(['python3', 'report.py'])", ()),
    ("what does report.py print?", SCRIPT, ()),  # not asked to run it
    ("run report.py and tell me the total", SCRIPT, ("x",)),  # not the first code
    ("run the numbers in sales.txt through a sum", SCRIPT, ()),  # no script named
])
def test_left_alone(request_text: str, code: str, runs: tuple[str, ...]) -> None:
    turn = make_turn(request_text, runs=tuple(ran("print(1)", "1") for _ in runs))
    assert run_asked.check(turn, block(code, "shell" if code.startswith("python3") else "python")) is None


def test_in_a_turn_the_script_itself_runs() -> None:
    # the ask's block is prefilled whole: it runs without a model call
    interp, model = scripted_interpreter([f"```python\n{SCRIPT}```", "The total is 6.50."])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        out = interp.chat("run report.py and tell me the total", display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles[0].startswith("Not run: the request asks to run report.py") and consoles[-1] == "Total: 6.50"
        assert [m["content"].strip() for m in out if m["type"] == "code"][-1] == "python3 report.py"
        assert out[-1]["content"] == "The total is 6.50." and model.calls == 2
    finally:
        interp.close()
