from __future__ import annotations

from oi_local.core.rules import cut_off

from .handmade import block, make_turn


def test_unfinished_code_is_not_run() -> None:
    turn = make_turn("Print the primes below 100")
    degenerate = cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    # the first repetition is asked afresh (sampled, hidden); the second ends the turn
    assert degenerate is not None and degenerate.again and not degenerate.stop
    assert degenerate.note == cut_off.DEGENERATE_NOTE and degenerate.ask is not None
    assert degenerate.ask.hide and degenerate.ask.sampling["temperature"] > 0
    again = cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    assert again is not None and again.stop and again.note == cut_off.DEGENERATE_NOTE
    turn.engine.llm.last_finish_reason = "length"
    cut = cut_off.check(turn, block("for n in range(", closed=False))
    assert cut is not None and cut.stop and cut.note == cut_off.LENGTH_NOTE


def test_a_closed_block_or_an_unclosed_one_at_a_normal_stop_runs() -> None:
    turn = make_turn("Print the primes below 100")
    turn.engine.llm.last_finish_reason = "stop"
    assert cut_off.check(turn, block("print(2)", closed=False)) is None
    turn.engine.llm.last_finish_reason = "length"
    assert cut_off.check(turn, block("print(2)")) is None


def test_a_second_repetition_after_a_clean_run_asks_for_the_answer_from_it() -> None:
    from .handmade import failed, ran

    turn = make_turn("copy the photos into backup", runs=(ran("copy()", "copied 3 files\n"),))
    first = cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    assert first is not None and first.again
    second = cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    assert second is not None and second.repeated and not second.stop and second.warning == cut_off.DEGENERATE_NOTE
    turn = make_turn("copy the photos into backup", runs=(failed("copy()", "FileNotFoundError: x"),))
    cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    after_failure = cut_off.check(turn, block("print(1999999", closed=False, degenerate=True))
    assert after_failure is not None and after_failure.stop


def test_in_the_loop_the_answer_comes_from_the_clean_run(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    loop = "```python\nprint(1" + "9" * 400 + ")\n```"
    interp, model = scripted_interpreter(['```python\nprint("copied 3 files")\n```', loop, loop,
                                          "Copied 3 files into backup."])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        out = interp.chat("copy the three photos into backup", display=False)
        assert [m["content"].strip() for m in out if m["type"] == "console"][0] == "copied 3 files"
        assert out[-1]["content"] == "Copied 3 files into backup." and model.calls == 4
        assert not any("This is not done" in str(m["content"]) for m in out)
        assert "copied 3 files" in str(model.prompts[-1][-2:])  # the answer is asked with the run's output in view
    finally:
        interp.reset()


def test_whole_lines_said_again_and_again_after_complete_code_run_once() -> None:
    # ho56: "tar -czvf reports.tar.gz reports/" line after line; drawn again, a zip archive under the .tar.gz name
    turn = make_turn("zip up the reports folder into a reports.tar.gz please")
    b = block("tar -czvf reports.tar.gz reports/\n …", lang="shell", closed=False, degenerate=True)
    verdict = cut_off.check(turn, b)
    assert verdict is not None and verdict.warning == cut_off.ONCE_NOTE and not (verdict.stop or verdict.again)
    assert b.code == "tar -czvf reports.tar.gz reports/\n"
    # a second repetition is not run
    again = cut_off.check(turn, block("ls\n …", lang="shell", closed=False, degenerate=True))
    assert again is not None and again.stop
    # cut mid-line, or code that is not complete, is not run
    for code, lang in [("x = 1 …", "python"), ("data = [\n    1,\n …", "python"), ("echo 'a\n …", "shell"),
                       ("print(1)\n …", "r")]:
        turn = make_turn("zip it")
        verdict = cut_off.check(turn, block(code, lang=lang, closed=False, degenerate=True))
        assert verdict is not None and verdict.again, code
