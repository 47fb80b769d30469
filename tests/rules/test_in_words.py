"""In words: asked to measure in words, len() of a file's whole text counts its words."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from oi_local.core.rules import in_words

from .handmade import block, make_turn

CODE = ('from pathlib import Path\nfiles = [p for p in Path("book").iterdir() if p.is_file()]\n'
        'longest = max(files, key=lambda p: len(p.read_text()))\n'
        'print(f"Longest chapter: {longest.name}, {len(longest.read_text())} words")')
ASK = "Which chapter in the book folder is the longest in words, and how many words is it?"


def test_the_length_of_a_files_text_becomes_its_word_count(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "01_dawn.txt").write_text("a " * 3 + "extraordinarily-long-hyphenated-word " * 10)
    (tmp_path / "book" / "02_rain.txt").write_text("it was a dark and stormy night " * 4)
    b = block(CODE)
    verdict = in_words.check(make_turn(ASK), b)
    assert verdict is not None and "len(p.read_text().split())" in verdict.warning
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True)
    assert out.stdout.strip() == "Longest chapter: 02_rain.txt, 28 words", out.stderr


def test_a_name_bound_to_a_whole_text_counts_words_too() -> None:
    code = 'text = open("essay.txt").read()\nprint(len(text))'
    b = block(code)
    assert in_words.check(make_turn("how many words are in essay.txt?"), b) is not None
    assert "print(len(text.split()))" in b.code


def test_left_alone_for_characters_lines_or_a_text_split_already() -> None:
    assert in_words.check(make_turn("which chapter is longest in characters (not words)?"), block(CODE)) is None
    assert in_words.check(make_turn("which chapter is the longest?"), block(CODE)) is None
    split = 'text = open("essay.txt").read()\nwords = text.split()\nprint(len(words))'
    assert in_words.check(make_turn("how many words are in essay.txt?"), block(split)) is None
    rebound = 'text = open("essay.txt").read()\ntext = text.split()\nprint(len(text))'
    assert in_words.check(make_turn("how many words are in essay.txt?"), block(rebound)) is None


def test_asked_for_lines_the_sum_of_their_lengths_counts_them() -> None:
    code = ('total = 0\nfor name in ["a.log", "b.log"]:\n    lines = ["x" * 40, "y" * 7]\n'
            '    total += sum(len(line) for line in lines)\nprint(total)')
    b = block(code)
    verdict = in_words.check(make_turn("the total number of lines across all the .log files in logs, added together"), b)
    assert verdict is not None and "sum(1 for line in lines)" in b.code
    assert in_words.check(make_turn("how many characters are in the lines of the .log files?"), block(code)) is None
    assert in_words.check(make_turn("how long is the longest line?"), block(code)) is None
