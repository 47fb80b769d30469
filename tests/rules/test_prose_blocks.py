"""Prose blocks: a sentence in a Python fence is the model's answer, not code to run."""
from __future__ import annotations

from pathlib import Path

from oi_local.core.rules import prose_blocks


def test_what_reads_as_a_sentence() -> None:
    for text in ("orders_export.csv does not have it.", "There is no delivery date in the file.",
                 "The total is 42.50, and March was the busiest month."):
        assert prose_blocks.is_prose(text), text
    for text in ("print('hi')", "x = 3", "ls -la", "total += 1", "import os", "hello", "for x in y:",
                 "The file: open(a)", "done = True", "a\nb\nc\nd e f g"):
        assert not prose_blocks.is_prose(text), text


def test_in_the_loop_the_sentence_is_the_answer_and_nothing_runs(tmp_path: Path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "orders.csv").write_text("order_id,status\n1,delivered\n")
    interp, model = scripted_interpreter(["```python\norders.csv has no delivery dates, so I cannot tell.\n```"])
    try:
        interp.chat("How many days do deliveries take on average? see orders.csv", display=False)
        assert not [m for m in interp.messages if m["type"] in ("code", "console")]
        said = [m["content"] for m in interp.messages if m["role"] == "assistant" and m["type"] == "message"]
        assert said and said[0] == "orders.csv has no delivery dates, so I cannot tell."
    finally:
        interp.close()


def test_the_loops_note_written_back_as_code_is_not_run_and_asked_again() -> None:
    from .handmade import block, make_turn

    turn = make_turn("How many files are left in there now?")
    note = ("Not run: the same code already answered the earlier request; asked for code for this one.\n"
            "If this answers my request, tell me the answer in one sentence. If there is an error, reply with a "
            "corrected ```python block.")
    verdict = prose_blocks.check(turn, block(note))
    assert verdict is not None and verdict.again and verdict.note == prose_blocks.ECHO and not verdict.answer
    assert prose_blocks.check(turn, block(note)) is None  # once a turn
    turn = make_turn("tidy up")
    turn.notes.append("Changed before it ran: the column kwh → units (the request asks for the units, which is units).")
    assert prose_blocks.check(turn, block("the column kwh → units (the request asks for the units, which is units)")) is None
    assert prose_blocks.check(turn, block(turn.notes[0])) is not None
    assert prose_blocks.check(make_turn("x"), block("print('Not run: nothing')")) is None  # code that prints it


def test_a_block_that_is_a_named_files_text_gets_code_that_prints_it(tmp_path: Path, monkeypatch) -> None:
    import subprocess
    import sys

    from .handmade import block, make_turn

    # ho48 (a development run): the recipe's lines in a ```python block, three SyntaxErrors in a row
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pancakes.txt").write_text("Fluffy pancakes (serves 4)\n250 g plain flour\n2 eggs\n500 ml milk\n")
    turn = make_turn("What do I need for the pancake recipe in pancakes.txt, and how many people does it serve?")
    quoted = "fluffy pancakes (serves 4)\n250 g plain flour\n2 eggs\n500 ml  milk"
    verdict = prose_blocks.check(turn, block(quoted))
    assert verdict is not None and verdict.ask is not None and verdict.ask.own and "pancakes.txt" in verdict.note
    code = (verdict.ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path).stdout
    assert "serves 4" in out and "250 g plain flour" in out
    assert prose_blocks.check(turn, block(quoted)) is None  # once a turn
    assert prose_blocks.check(make_turn("what's in pancakes.txt?"), block('print(open("pancakes.txt").read())')) is None
