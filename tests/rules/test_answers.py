from __future__ import annotations

from oi_local.core.rules import answers

from .handmade import make_turn, ran, reply

EXAMPLES = [{"role": "user", "content": "What is 1234 * 5678?"}, {"role": "assistant", "content": "1234 * 5678 is 7006652."}]


def test_an_example_answer_copied_word_for_word_is_dropped_and_asked_again() -> None:
    turn = make_turn("Delete old.txt", reply("1234 * 5678  is 7006652."), runs=(ran("import os", ""),),
                     examples=EXAMPLES)
    assert answers.parroted(turn) and answers.rule.discard is answers.parroted
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final
    turn.engine.messages[-1] = reply("old.txt is deleted.")
    assert answers.follow_up(turn) is None


def test_a_question_answered_without_the_printed_result_is_asked_again() -> None:
    output = "Dana 2300.0\n"
    turn = make_turn("Who earns the most in staff.csv?", reply("The output is correct."),
                     runs=(ran("print(top)", output),))
    assert answers.ungrounded(turn)
    for said in ("Dana earns the most.", "It is 2,300.", "About 2300 for Dana"):
        turn.engine.messages[-1] = reply(said)
        assert not answers.ungrounded(turn), said


def test_numbers_match_when_rounded_and_as_words() -> None:
    turn = make_turn("How many rows does data.csv have?", reply("It has one row."), runs=(ran("print(n)", "1\n"),))
    assert not answers.ungrounded(turn)
    turn = make_turn("What is the mean of data.csv?", reply("About 1.42."), runs=(ran("print(m)", "1.4166666\n"),))
    assert not answers.ungrounded(turn)


def test_without_a_run_or_for_a_task_nothing_is_asked() -> None:
    assert answers.follow_up(make_turn("Who earns the most in staff.csv?", reply("Dana."))) is None
    turn = make_turn("Write hello into a.txt", reply("Done."), runs=(ran("open('a.txt','w').write('hello')", "5\n"),))
    assert answers.follow_up(turn) is None
