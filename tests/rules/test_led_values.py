"""Led values: a question that ends on "... assigned to?" is answered by what follows those words on the closest line."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import led_values

from .handmade import make_turn, ran, reply, scripted_chat

STAFF = ["Wanjiru", "Tobias", "Ingrid", "Rafael", "Soledad", "Kwame"]
ITEMS = ["boiler service", "gutter cleaning", "window repair", "lift inspection", "roof check", "door lock swap"]
PLACES = ["Block A", "Block B", "Block C", "the garage", "the courtyard"]
LOG = "\n".join(f"JOB-{700 + i} | 2025-05-{1 + i % 28:02d} | {PLACES[i % 5]} | {ITEMS[i % 6]} | reported by "
                f"{STAFF[(i + 2) % 6]} | handed to {STAFF[i % 6]}" for i in range(120))
# one line alone names the rooftop antenna in Block C
LOG += "\nJOB-999 | 2025-05-30 | Block C | rooftop antenna realignment | reported by Kwame | handed to Marisol"
QUESTION = "Who was the rooftop antenna job in Block C handed to?"
REQUEST = f"This is our caretaker job sheet for May:\n\n{LOG}\n\n{QUESTION}"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _turn(answer: str, request: str = REQUEST) -> object:
    output = "JOB-999 | 2025-05-30 | Block C | rooftop antenna realignment | reported by Kwame | handed to Marisol\n"
    return make_turn(request, {"role": "computer", "type": "console", "format": "output", "content": output},
                     reply(answer), runs=(ran("print(1)", output),))


def test_an_answer_without_the_value_after_the_closing_words_is_asked_again_with_the_line() -> None:
    turn = _turn("The antenna job was reported by Kwame.")
    ask = led_values.follow_up(turn)
    assert ask is not None and ask.final
    assert "\"handed to Marisol\"" in (ask.text or "") and "JOB-999" in (ask.text or "")
    assert led_values.follow_up(turn) is None  # once a turn
    said = led_values.finish(turn)
    assert said is not None and "handed to Marisol" in said


@pytest.mark.parametrize("answer", ["It was handed to Marisol.", "marisol"])
def test_an_answer_with_the_value_is_left_alone(answer: str) -> None:
    turn = _turn(answer)
    assert led_values.follow_up(turn) is None and led_values.finish(turn) is None


@pytest.mark.parametrize("question", [
    "Which jobs were in Block C?",                       # no closing verb and preposition
    "How many jobs were handed to Tobias?",              # the closing words are not on the closest line's end
    "Who did Kwame give it to?",                         # "it to": no verb before the preposition
])
def test_other_questions_are_left_alone(question: str) -> None:
    turn = _turn("Kwame.", f"This is our caretaker job sheet for May:\n\n{LOG}\n\n{question}")
    assert led_values.follow_up(turn) is None


def test_short_requests_are_left_alone() -> None:
    assert led_values.follow_up(_turn("Kwame.", "Who was the antenna job handed to? JOB-999 handed to Marisol")) is None


def test_a_real_turn_ends_on_the_value() -> None:
    out = scripted_chat(["```python\nprint('JOB-999 | reported by Kwame | handed to Marisol')\n```",
                         "It was Kwame.", "It was handed to Marisol."], REQUEST)
    said = [m["content"] for m in out if m["role"] == "assistant" and m["type"] == "message"]
    assert said[-1] == "It was handed to Marisol."
