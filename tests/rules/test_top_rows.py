from __future__ import annotations

import pytest

from oi_local.core.rules import top_rows

from .handmade import failed, make_turn, ran, reply

ASKED = "which category did i spend the most on in expenses.csv, and how much was it in total?"
CODE = 'import pandas as pd\ndf = pd.read_csv("expenses.csv")\nprint(df.groupby("category").sum().sort_values("amount", ascending=False))'
TABLE = ("                                 date  amount\ncategory\n"
         "groceries   2024-05-012024-05-042024-0...   227.0\nfun         2024-05-122024-05-18   195.0\n"
         "eating out  2024-05-032024-05-07   140.3\ntransport   2024-05-02   55.0\n")


def turn_with(answer: str, output: str = TABLE, request: str = ASKED):
    return make_turn(request, reply(answer), runs=(ran(CODE, output),))


def test_an_answer_with_a_later_row_of_a_sorted_table_is_asked_again_with_the_first_row() -> None:
    turn = turn_with('The category with the highest total amount spent is "fun", with a total of 195.0.')
    assert top_rows.rows(TABLE)[0] == ("groceries", 227.0) and len(top_rows.rows(TABLE)) == 4
    assert top_rows.skipped_top(turn)
    ask = top_rows.follow_up(turn)
    assert ask is not None and ask.final and "their first row: groceries 227." in (ask.text or "")
    assert top_rows.follow_up(turn) is None  # once a turn


@pytest.mark.parametrize("answer, output, request_text", [
    ("Groceries, 227.0 in total.", TABLE, ASKED),  # the first row
    ("fun 195.0, then groceries", TABLE, ASKED),  # names the first too
    ("fun", "fun: 195\ngroceries: 227\n", ASKED),  # not sorted: not this rule's to say
    ("groceries", "transport: 55\nfun: 195\n", "which category did I spend the least on?"),  # sorted the asked way, answered right
    ("fun", TABLE, "list the totals per category in expenses.csv"),  # no most or least asked
    ("fun", TABLE, "Copy the category with the most spending into top.txt"),  # not a question
])
def test_left_alone(answer: str, output: str, request_text: str) -> None:
    assert not top_rows.skipped_top(turn_with(answer, output, request_text))


def test_the_least_asked_over_rows_sorted_up() -> None:
    turn = turn_with("transport", "fun: 12\ntransport: 55\n", "which category did I spend the least on?")
    assert top_rows.skipped_top(turn)


def test_not_after_a_failed_run() -> None:
    turn = make_turn(ASKED, reply("fun"), runs=(failed(CODE, "KeyError: 'amount'"),))
    assert not top_rows.skipped_top(turn)


def test_in_the_loop_a_second_wrong_answer_gives_way_to_the_rows(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    code = 'print("groceries: 227.0")\nprint("fun: 195.0")'
    interp, model = scripted_interpreter([f"```python\n{code}\n```", "fun, 195.0", "It is fun."])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        out = interp.chat("which category did I spend the most on?", display=False)
        assert out[-1]["content"] == "Result:\ngroceries: 227.0\nfun: 195.0" and model.calls == 3
        interp.reset()
        interp2, model2 = scripted_interpreter([f"```python\n{code}\n```", "fun, 195.0", "Groceries, 227.0."])
        interp2.template = "small"
        interp2.second_opinions = 0
        out = interp2.chat("which category did I spend the most on?", display=False)
        assert out[-1]["content"] == "Groceries, 227.0." and "groceries 227" in str(model2.prompts[-1])
        interp2.reset()
    finally:
        interp.reset()
