from __future__ import annotations

import json
from pathlib import Path

import pytest

from oi_local.core.rules import second_opinions

from .handmade import failed, make_turn, ran

REQUEST = "What is my average resting heart rate? It is in hr.json"
KEYERROR = "```python\nimport json\nd = json.load(open('hr.json'))\nprint(d['resting_hr'] / d['steps'])\n```"


def code(text: str) -> str:
    return f"```python\n{text}\n```"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    days = [{"resting_hr": hr, "steps": 9000 + hr} for hr in (57, 59, 61, 56)]
    (tmp_path / "hr.json").write_text(json.dumps({"days": days}))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_outputs_agree_on_a_number_in_common_not_on_the_requests_own_numbers() -> None:
    assert second_opinions.agree("58.25\n", "Average resting heart rate: 58.25", REQUEST)
    assert second_opinions.agree("58.2\n", "58.25", REQUEST)  # rounded by one run
    assert not second_opinions.agree("0.0064\n", "58.25", REQUEST)
    assert not second_opinions.agree("Total for 2025: 12\n", "Total for 2025: 140", "how much in 2025?")
    assert second_opinions.agree("Dixit\nAzul\n", "azul\ndixit", "which games?")
    assert not second_opinions.agree("Dixit\n", "Azul\n", "which game?")
    assert not second_opinions.agree("3 games\n", "Dixit\n", "which games?")


def test_a_clean_answer_after_a_failure_is_checked_until_two_runs_agree(folder: Path) -> None:
    from scripted import scripted_interpreter

    interp, model = scripted_interpreter([
        KEYERROR,  # fails
        code("import json\nd = json.load(open('hr.json'))['days']\n"
             "print(sum(x['resting_hr'] for x in d) / sum(x['steps'] for x in d))"),  # a fresh retry: clean, wrong
        code("import json\nd = json.load(open('hr.json'))['days']\nprint(sum(x['resting_hr'] for x in d) / len(d))"),
        code("import json\nrows = json.load(open('hr.json'))['days']\n"
             "print('Average:', round(sum(r['resting_hr'] for r in rows) / len(rows), 2))"),
        "Your average resting heart rate is 58.25.",
    ], fresh_retries=2, second_opinions=2, retry_at_once=True, prefill_code=False)
    try:
        out = interp.chat(REQUEST, display=False)
        assert model.calls == 5
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles[1].startswith("0.006") and consoles[2:] == ["58.25", "Average: 58.25"]
        assert [o["temperature"] for o in model.options[2:4]] == [0.7, 0.7]
        assert model.options[2]["seed"] != model.options[3]["seed"]
        last_prompt = str(model.prompts[4])
        assert "Average: 58.25" in last_prompt and "0.006" not in last_prompt  # the earlier tries are hidden
        assert out[-1]["content"] == "Your average resting heart rate is 58.25."
    finally:
        interp.close()


def test_with_no_agreement_the_first_clean_answer_stands(folder: Path) -> None:
    from scripted import scripted_interpreter

    interp, model = scripted_interpreter([
        KEYERROR,
        code("print(58.25)"),
        code("print(7)"),
        code("print(undefined_name)"),  # the last opinion fails
        "It is 58.25.",
    ], fresh_retries=2, second_opinions=2, retry_at_once=True, prefill_code=False)
    try:
        out = interp.chat(REQUEST, display=False)
        assert model.calls == 5
        last_prompt = str(model.prompts[4])
        assert "58.25" in last_prompt and "undefined_name" not in last_prompt and "print(7)" not in last_prompt
        # as the model saw the turn when it answered 58.25: the failed first try stays hidden
        assert "d['resting_hr'] / d['steps']" not in last_prompt and "A first try failed" in last_prompt
        assert out[-1]["content"] == "It is 58.25."  # no "This is not done" over the last opinion's error
    finally:
        interp.close()


def test_not_asked_without_a_failure_for_a_task_for_a_person_confirming_or_when_off() -> None:
    clean = ran("print(58.25)", "58.25\n")
    broke = failed("print(x)", "NameError: name 'x' is not defined")
    assert second_opinions.after_run(make_turn(REQUEST, runs=(broke, clean), second_opinions=2)) is not None
    assert second_opinions.after_run(make_turn(REQUEST, runs=(clean,), second_opinions=2)) is None
    assert second_opinions.after_run(make_turn("Copy hr.json into backup", runs=(broke, clean), second_opinions=2)) is None
    assert second_opinions.after_run(make_turn(REQUEST, runs=(broke, clean), approve=lambda m: "run",
                                               second_opinions=2)) is None
    assert second_opinions.after_run(make_turn(REQUEST, runs=(broke, clean), second_opinions=0)) is None
    assert second_opinions.after_run(make_turn(REQUEST, runs=(broke, ran("x = 1", "")), second_opinions=2)) is None


def test_a_second_opinion_without_code_leaves_the_first_answer(folder: Path) -> None:
    from scripted import scripted_interpreter

    interp, model = scripted_interpreter([
        KEYERROR,
        code("print(58.25)"),
        "I think it is about 60.",  # no code: dropped
        "It is 58.25.",
    ], fresh_retries=2, second_opinions=2, retry_at_once=True, prefill_code=False)
    try:
        out = interp.chat(REQUEST, display=False)
        assert model.calls == 4 and "58.25" in str(model.prompts[3])
        said = [m["content"] for m in out if m["type"] == "message" and m["role"] == "assistant"]
        assert said == ["It is 58.25."]
    finally:
        interp.close()
