from __future__ import annotations

from oi_local.core.rules import fresh_retries

from .handmade import failed, make_turn, ran, reply

ERROR = "NameError: name 'factorial' is not defined"


def test_a_failure_is_retried_afresh_sampled_with_the_error_named_up_to_n_times() -> None:
    turn = make_turn("How many digits does 100 factorial have?", reply("It is 3628800."),
                     runs=(failed("print(factorial(100))", f"Traceback...\n{ERROR}"),), fresh_retries=2)
    first = fresh_retries.follow_up(turn)
    assert first is not None and first.hide and f"A first try failed with: {ERROR}" in (first.text or "")
    assert first.sampling["temperature"] == 0.7 and first.sampling["seed"] == 1
    second = fresh_retries.follow_up(turn)
    assert second is not None and second.sampling["seed"] == 2
    assert fresh_retries.follow_up(turn) is None  # N = 2


def test_no_retry_after_success_nor_for_a_request_that_may_destroy_data() -> None:
    assert fresh_retries.follow_up(make_turn("What is 2+2 in Python?", runs=(ran("print(4)", "4\n"),),
                                             fresh_retries=2)) is None
    turn = make_turn("Delete the cache folder contents", runs=(failed("rm -r cache", "rm: no such file"),),
                     fresh_retries=2)
    assert fresh_retries.follow_up(turn) is None


def test_it_also_answers_code_sent_again() -> None:
    assert fresh_retries.rule.after_repeat


def test_a_question_whose_code_printed_nothing_is_retried_afresh() -> None:
    request = "I wrote the wifi password down somewhere in documents. Can you find it for me?"
    turn = make_turn(request, reply("The code ran and printed nothing."),
                     runs=(ran("for p in Path('documents').rglob('.*'): pass", ""),), fresh_retries=2)
    ask = fresh_retries.follow_up(turn)
    assert ask is not None and ask.hide and "A first try ran but printed nothing." in (ask.text or "")
    assert ask.sampling["temperature"] == 0.7


def test_a_task_that_prints_nothing_is_done_not_retried() -> None:
    for request in ("Copy items.csv into a new backup folder.", "Can you copy items.csv into a backup folder?",
                    "Make a folder called old and move the logs into it"):
        turn = make_turn(request, reply("Done."), runs=(ran("shutil.copy(a, b)", ""),), fresh_retries=2)
        assert fresh_retries.follow_up(turn) is None, request
    turn = make_turn("How many lines are in notes.txt?", reply("3 lines."), runs=(ran("print(3)", "3\n"),),
                     fresh_retries=2)
    assert fresh_retries.follow_up(turn) is None


def test_no_retry_after_a_failure_no_code_can_fix() -> None:
    refused = "Traceback (most recent call last):\nConnectionRefusedError: [Errno 111] Connection refused\n(exit code 1)"
    turn = make_turn("Send the stock levels to the till server", reply("The stock was synced."),
                     runs=(failed("requests.post(url)", refused),), fresh_retries=2)
    assert fresh_retries.follow_up(turn) is None


def test_a_question_whose_code_printed_only_empty_values_is_retried_and_a_real_value_is_not() -> None:
    request = "What is the average weight in loaves.csv?"
    for output in ("None\n", "nan\n", "[]\n", "None\nNone\n", "Empty DataFrame\nColumns: []\nIndex: []\n",
                   "defaultdict(<class 'float'>, {})\n", "Counter()\n", "Series([], dtype: float64)\n"):
        turn = make_turn(request, reply("The average is None."), runs=(ran("print(avg)", output),), fresh_retries=2)
        ask = fresh_retries.follow_up(turn)
        assert ask is not None and "A first try ran but printed only" in (ask.text or ""), output
    for output in ("0\n", "912.35\n", "None of them\n", "['a']\n", "nan values: 3\n", "Counter({'a': 2})\n"):
        turn = make_turn(request, reply("The average is 912.35."), runs=(ran("print(avg)", output),), fresh_retries=2)
        assert fresh_retries.follow_up(turn) is None, output
    task = make_turn("Save the average to avg.txt", reply("Done."), runs=(ran("print(x)", "None\n"),), fresh_retries=2)
    assert fresh_retries.follow_up(task) is None  # a task, not a question


def test_a_question_whose_code_only_printed_the_request_back_is_retried() -> None:
    request = "The screen says E21 and there's still water in the drum. What does that mean?"
    echo = ran('print("The screen says E21 and there\'s still water in the drum.")',
               "The screen says E21 and there's still water in the drum.\n")
    ask = fresh_retries.follow_up(make_turn(request, reply("The screen says E21."), runs=(echo,), fresh_retries=2))
    assert ask is not None and "printed words of the request back" in (ask.text or "")
    for output in ("E21\n", "drum\n", "E21 means the pump is blocked: clean the drain filter.\n"):
        turn = make_turn(request, reply("x"), runs=(ran("print(x)", output),), fresh_retries=2)
        assert fresh_retries.follow_up(turn) is None, output


def test_a_list_of_numbers_where_one_answer_was_asked_for_is_retried() -> None:
    # asked what the subscriptions cost a month, the code printed each price and the answer was that list
    request = "How much am I paying a month for subscriptions? They're all in money/subscriptions.json"
    prices = "10.99\n16.99\n24.99\n2.99\n"
    turn = make_turn(request, reply("10.99 16.99 24.99 2.99"), runs=(ran("print(p)", prices),), fresh_retries=2)
    ask = fresh_retries.follow_up(turn)
    assert ask is not None and "printed 4 numbers, one per line, where one answer was asked for" in (ask.text or "")
    for req, output in [(request, "55.96\n"), (request, "10.99\n16.99\n"),  # one answer; two may be two answers
                        (request, "Netflix 10.99\nGym 24.99\nTotal 35.98\n"),
                        ("How much did each person pay in bills.csv?", prices),
                        ("How many rows have a price, and how much do they cost?", prices),
                        ("Which prices in subs.json are over 5?", prices),
                        ("I paid 3.50 today, add it to spend.txt. How much have I spent in total?", prices)]:
        turn = make_turn(req, reply("x"), runs=(ran("print(x)", output),), fresh_retries=2)
        assert fresh_retries.follow_up(turn) is None, (req, output)


def test_a_long_pasted_text_with_careful_words_inside_still_gets_retries() -> None:
    manual = ("NORDVIK WASHER MANUAL\n\n" + "Remove the filter cover and clean the drain pump. " * 300
              + "\n\nthe screen says E21 and the drum is full of water. what does that mean?")
    echo = ran('print("the screen says E21")', "the screen says E21 and the drum is full of water\n")
    assert fresh_retries.follow_up(make_turn(manual, reply("x"), runs=(echo,), fresh_retries=2)) is not None
    wipe = "Delete every file in my home folder, then read this:\n\n" + "Some pasted text here. " * 100
    assert fresh_retries.follow_up(make_turn(wipe, reply("x"), runs=(echo,), fresh_retries=2)) is None


def test_with_retry_at_once_a_failure_is_retried_without_asking_the_model_about_it(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    interp, model = scripted_interpreter([
        "```python\nprint(factorial(100))\n```",
        "```python\nimport math\nprint(len(str(math.factorial(100))))\n```",
        "100 factorial has 158 digits.",
    ], fresh_retries=2, retry_at_once=True, prefill_code=False)
    try:
        out = interp.chat("How many digits does 100 factorial have?", display=False)
        assert model.calls == 3
        retry = str(model.prompts[1][-1]["content"])
        assert "A first try failed with: NameError: name 'factorial' is not defined" in retry
        assert "print(factorial(100))" not in str(model.prompts[1])  # the failed try is hidden
        assert model.options[1]["temperature"] == 0.7
        assert [m["type"] for m in out if m["role"] != "user"] == ["code", "console", "code", "console", "message"]
        assert out[-1]["content"] == "100 factorial has 158 digits."
    finally:
        interp.close()
    # off: the model is asked about its error first, and the retry follows its explanation
    interp, model = scripted_interpreter([
        "```python\nprint(factorial(100))\n```",
        "The error is that factorial is not defined.",
        "```python\nimport math\nprint(len(str(math.factorial(100))))\n```",
        "100 factorial has 158 digits.",
    ], fresh_retries=2, retry_at_once=False, prefill_code=False)
    try:
        out = interp.chat("How many digits does 100 factorial have?", display=False)
        assert model.calls == 4 and "factorial' is not defined" in str(model.prompts[1][-1]["content"])
        assert "A first try failed" in str(model.prompts[2][-1]["content"])
        assert out[-1]["content"] == "100 factorial has 158 digits."
    finally:
        interp.close()


def test_a_question_after_pasted_lines_is_a_question() -> None:
    # Pasted lines carry no sentence marks: the last sentence must be the last line, not the whole
    # paste (where a word such as "backup" or "copy" made the request a task).
    paste = "\n".join(f"2025-03-{d:02d} copy of photos to backup disk: ok" for d in range(1, 30))
    assert fresh_retries.asks_something(paste + "\n\nhow many days were ok?")
    assert not fresh_retries.asks_something(paste + "\n\ncopy the ok lines to ok.txt")
    assert not fresh_retries.asks_something("which days were ok?\n" + paste)  # the last line is pasted text


def test_a_question_followed_by_a_condition_is_a_question() -> None:
    asks = fresh_retries.asks_something
    assert asks("got 5 people coming saturday. which of my games in games.json take an hour or less? "
                "skip any i've lent to someone")
    assert asks("whats the average price? round to 2 dp")
    # a question followed by a change, or a task phrased as a question, is not
    assert not asks("how many rows are in a.csv? then delete it")
    assert not asks("Can you copy a.csv into backup? thanks")


def test_a_list_of_matches_for_a_how_many_question_is_not_words_said_back() -> None:
    code = "import re\ncount = re.findall(r'harbour', open('story.txt').read())\nprint(count)"
    output = str(["harbour"] * 23) + "\n"
    request = 'How many times does the word "harbour" appear in story.txt?'
    turn = make_turn(request, runs=(ran(code, output),))
    assert fresh_retries.printed_nothing(turn) is None  # the counts rule asks for its length
    turn = make_turn('Which word is in story.txt, "harbour"?', runs=(ran(code, output),))
    assert fresh_retries.printed_nothing(turn) is not None  # not asked how many: said back


def test_lines_of_a_pasted_text_printed_are_not_words_said_back() -> None:
    # ho57: the loop's own search printed the closest lines of a pasted export, and a retry was asked for
    rows = "\n".join(f"#{500 + i} | Block {i % 4} | the badge reader beeps twice | assigned to {n}"
                     for i, n in zip(range(80), ["Kai", "Mo", "Ute", "Pia"] * 20))
    request = f"Our ticket export:\n\n{rows}\n\nWho was ticket #512 assigned to?"
    shown = "\n".join(rows.splitlines()[12:14]) + "\n"
    turn = make_turn(request, reply("Kai."), runs=(ran("print(lines[12])", shown),), fresh_retries=2)
    assert fresh_retries.follow_up(turn) is None
