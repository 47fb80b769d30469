"""File handles: a text method on a file object is asked of the text read once."""
from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import file_handles

from .handmade import block, make_turn

CODE = ('with open("lighthouse.txt") as f:\n    print(len(f.read().split()))\n'
        '    print(f"Marguerite came up {f.count(\'Marguerite\')}")')
ASK = "How many words are in lighthouse.txt? And how many times does Marguerite come up in it?"


def test_the_code_that_crashed_counts_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lighthouse.txt").write_text("Marguerite came back. The keeper knew Marguerite well.\n")
    interp, model = scripted_interpreter([f"```python\n{CODE}\n```", "8 words; Marguerite comes up 2 times."])
    interp.template = "small"
    try:
        out = interp.chat(ASK, display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles == ["8\nMarguerite came up 2"]  # one run, no AttributeError
    finally:
        interp.close()


def test_only_a_read_handle_with_text_methods_alone_is_changed() -> None:
    assert file_handles.check(make_turn(ASK), block(CODE)) is not None
    # the text read first already, a handle written to, or read line by line: nothing to change
    fine = 'with open("a.txt") as f:\n    text = f.read()\nprint(text.count("x"))'
    written = 'with open("a.txt", "w") as f:\n    f.write("x")'
    by_line = 'with open("a.txt") as f:\n    for line in f.readlines():\n        print(line.count("x"))\n    f.seek(0)'
    for code in (fine, written, by_line):
        assert file_handles.check(make_turn(ASK), block(code)) is None
    # a name `text` already used: another is taken
    taken = 'text = "x"\nwith open("a.txt") as g:\n    n = g.split()\nprint(text, n)'
    b = block(taken)
    assert file_handles.check(make_turn(ASK), b) is not None
    assert "file_text = g.read()" in b.code and "n = file_text.split()" in b.code
