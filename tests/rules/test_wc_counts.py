from __future__ import annotations

import pytest

from oi_local.core.rules import wc_counts

from .handmade import block, make_turn

ASK = "Use the wc command to count the words in ferry_notes.txt."


def test_wc_with_the_lines_option_counts_the_words_asked_for() -> None:
    b = block('import subprocess\nsubprocess.run(["wc", "-l", "ferry_notes.txt"], check=True)')
    verdict = wc_counts.check(make_turn(ASK), b)
    assert verdict is not None and verdict.warning == (
        "Changed before it ran: `wc -l` counts lines; the request asks for words, so `wc -w`.")
    assert '["wc", "-w", "ferry_notes.txt"]' in b.code
    shell = block("wc -l ferry_notes.txt", "shell")
    assert wc_counts.check(make_turn(ASK), shell) is not None and shell.code == "wc -w ferry_notes.txt"
    chars = block("wc -w ferry_notes.txt", "shell")
    assert wc_counts.check(make_turn("how many characters are in ferry_notes.txt? use wc"), chars) is not None
    assert chars.code == "wc -m ferry_notes.txt"


@pytest.mark.parametrize("request_text, code, lang", [
    (ASK, "wc -w ferry_notes.txt", "shell"),  # already right
    ("count the lines and the words in ferry_notes.txt", "wc -l ferry_notes.txt", "shell"),  # both asked
    ("how big is ferry_notes.txt?", "wc -c ferry_notes.txt", "shell"),  # none asked
    (ASK, "print(len(open('ferry_notes.txt').read().split()))", "python"),  # no wc
])
def test_left_alone(request_text: str, code: str, lang: str) -> None:
    b = block(code, lang)
    assert wc_counts.check(make_turn(request_text), b) is None and b.code == code
