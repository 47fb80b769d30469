from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import active, follow_ups

EARLIER = "what's the class average in marks.csv?"


@pytest.mark.parametrize("request_text", [
    "and what would it be if we left out the lowest score?",
    "what about March?",
    "ok, write the names of those into reorder.txt, one per line please",
    "Put the names of everyone who lives there into city_people.txt, one name per line.",
])
def test_a_request_that_leans_on_the_one_before_gets_it_quoted(request_text: str) -> None:
    added = follow_ups.prompt(None, request_text, EARLIER)
    assert added is not None and added.hint == f'(This follows my previous request, "{EARLIER}".)'


@pytest.mark.parametrize("request_text, earlier", [
    ("and what would it be without the lowest?", ""),                            # nothing before it
    ("How many lines are in notes.txt?", EARLIER),                                # stands alone
    ("and what is in notes.txt?", EARLIER),                                       # names its own file
    ("and " + "tell me more about the data " * 8, EARLIER),                       # long: says what it wants
])
def test_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request_text: str, earlier: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("a\n")
    assert follow_ups.prompt(None, request_text, earlier) is None


def test_the_model_sees_the_earlier_request_and_the_history_keeps_the_persons_words(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "marks.csv").write_text("name,mark\nA,31\nB,80\nC,90\n")
    read = "```python\nimport pandas as pd\nprint(pd.read_csv('marks.csv')['mark']{}.mean())\n```"
    interp, model = scripted_interpreter([read.format(""), "The class average is 67.0.",
                                          read.format(".nlargest(2)"), "Without the lowest it is 85.0."])
    interp.file_hints = True  # on in the small template
    try:
        interp.chat(EARLIER, display=False)
        interp.chat("and what would it be if we left out the lowest score?", display=False)
        asked = [p[-1]["content"] for p in model.prompts if p[-1]["content"].startswith("and what would it be")]
        assert asked and f'"{EARLIER}", answered "The class average is 67.0."' in asked[0]
        assert all("This follows my previous request" not in str(m.get("content")) for m in interp.messages)
    finally:
        interp.close()


def test_off_with_file_hints() -> None:
    from oi_local.core.engine import Engine

    assert follow_ups.rule not in active(Engine(file_hints=False), "prompt")
