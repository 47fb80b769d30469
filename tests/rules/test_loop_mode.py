from __future__ import annotations

from oi_local.core.rules import loop_mode

from .handmade import make_turn, ran, reply


def test_the_model_is_told_to_go_on_until_it_says_it_is_done() -> None:
    turn = make_turn("Make a folder and put a file in it", reply("I made the folder."), loop=True,
                     runs=(ran("import os; os.mkdir('x')", ""),))
    ask = loop_mode.follow_up(turn)
    assert ask is not None and ask.store and ask.text == turn.engine.loop_message
    turn.engine.messages.append(reply("The task is done."))
    assert loop_mode.follow_up(turn) is None


def test_an_empty_reply_is_nudged_but_not_forever_and_the_step_cap_holds() -> None:
    turn = make_turn("Make a folder", reply(""), loop=True)
    assert loop_mode.follow_up(turn) is not None
    turn.steps = 2
    assert loop_mode.follow_up(turn) is None
    capped = make_turn("Make a folder", reply("Working on it."), loop=True, max_code_steps=1,
                       runs=(ran("print(1)", "1\n"),))
    assert loop_mode.follow_up(capped) is None
