"""The loop's stopping rules, driven by scripted models (real `llm.completions` functions):
degenerate repetition is cut off early, repeated code and repeated output end the task with an
answer, and the step cap holds."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from oi_local.interpreter import OpenInterpreter


def scripted(replies: list[str], sent: list[int] | None = None, endless: str | None = None,
             endless_at: int | None = None):
    """A model that says replies[i] on its i-th call; `endless` = after the last reply (and on every
    call after it), or after the reply `endless_at` only, repeat this text without end (a degenerate model). `sent` counts the
    chunks actually pulled."""
    calls = {"n": 0}

    def completions(messages: Any, model: Any = None, stream: bool = True, max_tokens: Any = None) -> Iterator[dict]:
        i = calls["n"]
        calls["n"] += 1
        text = replies[i] if i < len(replies) else replies[-1]
        for k in range(0, len(text), 5):
            if sent is not None:
                sent[0] += 1
            yield {"choices": [{"delta": {"content": text[k:k + 5]}}]}
        while endless is not None and (i >= len(replies) - 1 if endless_at is None else i == endless_at):
            if sent is not None:
                sent[0] += 1
            yield {"choices": [{"delta": {"content": endless}}]}

    completions.calls = calls  # type: ignore[attr-defined]
    return completions


def _answers(oi: OpenInterpreter) -> list[str]:
    return [m["content"] for m in oi.messages if m["role"] == "assistant" and m["type"] == "message"]


def make(fn) -> OpenInterpreter:
    oi = OpenInterpreter(auto_run=True)
    oi.llm.completions = fn
    return oi


def test_degenerate_prose_is_stopped_early_and_trimmed():
    sent = [0]
    oi = make(scripted(["349808 * 38490739 is 12"], sent, endless="99"))
    try:
        msgs = oi.chat("What is 349808 * 38490739?", display=False)
    finally:
        oi.close()
    answer = msgs[-1]["content"]
    assert answer.startswith("349808 * 38490739 is 129") and answer.endswith("…") and len(answer) < 40
    assert sent[0] < 150  # stopped after ~160 repeated characters, not at max_tokens


def test_degenerate_code_is_not_run_and_asked_afresh_once():
    oi = make(scripted(["```python\nprint(1"], endless="9"))
    try:
        msgs = oi.chat("print a", display=False)
    finally:
        oi.close()
    outputs = [m["content"] for m in msgs if m["role"] == "computer"]
    assert outputs and "endless repetition" in outputs[-1]
    assert not any(m["content"].strip().startswith("1") for m in msgs if m["role"] == "computer")  # twice: the turn ends
    # the first repetition is drawn again (sampled, hidden): a retry that ends runs
    fn = scripted(["```python\nprint(1", "```python\nprint('b')\n```", "It printed b."],
                  endless="9", endless_at=0)
    oi = make(fn)
    try:
        msgs = oi.chat("print a", display=False)
    finally:
        oi.close()
    outputs = [m["content"] for m in msgs if m["role"] == "computer"]
    assert "b\n" in outputs and not any(o.startswith("1") for o in outputs)
    assert fn.calls["n"] == 3 and msgs[-1]["content"] == "It printed b."


def test_whole_lines_repeated_after_complete_code_run_once_and_the_turn_ends():
    # the same line again and again (ho56's tar command) runs once; falling into it again, also where only an
    # answer is wanted (code not shown), the stream is stopped: it ran to max_tokens unseen
    fn = scripted(["```python\nprint('a')\n"], endless="print('a')\n")
    oi = make(fn)
    try:
        msgs = oi.chat("print a", display=False)
    finally:
        oi.close()
    outputs = [m["content"] for m in msgs if m["role"] == "computer"]
    assert outputs.count("a\n") == 1 and fn.calls["n"] <= 4
    assert msgs[-1]["role"] == "assistant" and msgs[-1]["type"] == "message"


def test_repeated_code_ends_with_an_answer():
    fn = scripted(["```python\nprint(6 * 7)\n```", "```python\nprint(6 * 7)\n```", "6 * 7 is 42."])
    oi = make(fn)
    try:
        msgs = oi.chat("What is 6*7?", display=False)
    finally:
        oi.close()
    assert [m["content"] for m in msgs if m["type"] == "code"] == ["print(6 * 7)"]  # ran once
    assert msgs[-1]["role"] == "assistant" and "42" in msgs[-1]["content"]
    assert fn.calls["n"] == 3


def test_step_cap_holds_against_a_model_that_never_stops():
    fn = scripted([f"```python\nprint({i})\n```" for i in range(50)])
    oi = make(fn)
    oi.max_code_steps = 4
    try:
        msgs = oi.chat("count", display=False)
    finally:
        oi.close()
    assert sum(1 for m in msgs if m["type"] == "code") == 4
    assert fn.calls["n"] <= 6


def test_a_missing_module_gets_one_standard_library_retry():
    fn = scripted(["```python\nimport pandas_not_here\n```", "That module is not installed.",
                   "```python\nprint(sum([1, 2, 3]))\n```", "The total is 6.", "never asked"])
    oi = make(fn)
    try:
        msgs = oi.chat("total?", display=False)
    finally:
        oi.close()
    assert msgs[-1]["content"] == "The total is 6." and fn.calls["n"] == 4
    assert not any("standard library" in m["content"] for m in oi.messages if m["role"] == "user")  # not stored


def test_silent_code_is_reported_to_the_model_as_silent():
    seen: list = []
    replies = iter(["```python\nx = 1\n```", "Done."])

    def completions(messages, model=None, stream=True, max_tokens=None):
        seen.append(messages)
        yield {"choices": [{"delta": {"content": next(replies)}}]}

    oi = make(completions)
    try:
        oi.chat("set x", display=False)
    finally:
        oi.close()
    assert seen[1][-1]["role"] == "user" and seen[1][-1]["content"] == oi.empty_code_output_template


@pytest.mark.parametrize("template, request_text, replies", [
    # the small template's example answer, word for word
    ("small", "Delete the .tmp files in build",
     ["```python\nprint('deleted build/a.tmp')\n```", "1234 * 5678 is 7006652.", "I deleted build/a.tmp."]),
    # a question answered without any of the result the code printed
    (None, "Which employee in staff.csv has the lowest salary?",
     ["```python\nprint('Dana', 2300.0)\n```", "The output is correct. The code converts each salary.",
      "Dana has the lowest salary (2,300)."]),
])
def test_an_answer_without_this_tasks_result_is_asked_for_again(template, request_text, replies):
    fn = scripted(replies)
    oi = make(fn)
    if template:
        oi.template = template
    oi.chat(request_text, display=False)
    assert _answers(oi) == [replies[-1]] and fn.calls["n"] == 3


def test_a_second_copied_answer_gives_way_to_the_output():
    fn = scripted(["```python\nprint('deleted build/a.tmp')\n```", "1234 * 5678 is 7006652."])
    oi = make(fn)
    oi.template = "small"
    oi.chat("Delete the .tmp files in build", display=False)
    assert _answers(oi) == ["Result:\ndeleted build/a.tmp"]


def test_an_answer_with_the_result_or_a_request_to_do_something_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the second request's code writes sales.csv
    fn = scripted(["```python\nprint('Dana', 2300.0)\n```", "Dana earns the least: 2300."])
    oi = make(fn)
    oi.chat("Which employee in staff.csv has the lowest salary?", display=False)
    assert fn.calls["n"] == 2
    fn = scripted(["```python\nopen('sales.csv', 'w').write('name\\nDana\\n')\nprint('saved 3 rows')\n```", "Done."])
    oi = make(fn)
    oi.chat("Save the rows of staff.csv where the department is Sales into sales.csv", display=False)
    assert fn.calls["n"] == 2


def _chat(fn, request: str, **settings: Any) -> list[dict]:
    oi = make(fn)
    for k, v in settings.items():
        setattr(oi, k, v)
    try:
        return oi.chat(request, display=False)
    finally:
        oi.close()


def test_a_repetition_counts_as_a_failed_try():
    # a repetition, then two failed runs: with max_failed_runs 3 the turn ends there
    fn = scripted(["```python\nprint('a')\n", "```python\nraise ValueError('one')\n```",
                   "```python\nraise ValueError('two')\n```", "```python\nprint('three')\n```"],
                  endless="print('a')\n", endless_at=0)
    msgs = _chat(fn, "print a", max_failed_runs=3)
    assert fn.calls["n"] == 3  # no fourth try, no answer asked for
    said = [m["content"] for m in msgs if m["role"] == "assistant" and m["type"] == "message"]
    assert "3 failed tries" in said[0] and "ValueError: two" in said[-1]
    # without the repetition two failed runs leave a third try
    fn = scripted(["```python\nraise ValueError('one')\n```", "```python\nraise ValueError('two')\n```",
                   "```python\nprint('three')\n```", "It printed three."])
    msgs = _chat(fn, "print a", max_failed_runs=3)
    assert "three\n" in [m["content"] for m in msgs if m["role"] == "computer"]


def test_a_copied_answer_after_a_silent_run_gives_way_to_what_that_run_made_not_an_older_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fn = scripted(["```python\nraise ValueError('one')\n```", "```python\nwith open('chart.png', 'wb') as f:\n    f.write(bytes([137]) + b'PNG')\n```",
                   "1234 * 5678 is 7006652.", "1234 * 5678 is 7006652."])
    oi = make(fn)
    oi.template = "small"
    oi.chat("Draw the numbers and save it as chart.png", display=False)
    assert _answers(oi)[-1] == "Result:\nSaved chart.png." and "ValueError" not in _answers(oi)[-1]


def test_the_same_cut_short_answer_twice_gives_way_to_the_output():
    table = "route\nHill climb    11.95\nPark loop      5.33\nRiverside      8.33"
    fn = scripted([f"```python\nprint({table!r})\n```", "route", "route"])
    oi = make(fn)
    oi.chat("what's the average distance of a run on each route?", display=False)
    assert _answers(oi)[-1] == "Result:\n" + table
