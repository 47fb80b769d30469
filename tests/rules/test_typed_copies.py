from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import typed_copies

from .handmade import block, make_turn

ASK = "Put intro.md and outro.md together into chapter.md"
TYPED = ('with open("chapter.md", "w") as out:\n'
         '    out.write("The harbour was quiet before dawn.\\noutro.md contains:\\nBy noon the boats were all back in.\\n")\n')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "intro.md").write_text("The harbour was quiet before dawn.\nGulls waited on the wall.\n")
    (tmp_path / "outro.md").write_text("By noon the boats were all back in.\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_typed_in_text_of_named_files_is_asked_afresh() -> None:
    turn = make_turn(ASK)
    verdict = typed_copies.check(turn, block(TYPED))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == "Not run: the code types the text of intro.md, outro.md into chapter.md instead of reading it; asked afresh."
    assert "Read intro.md, outro.md in the code" in str(verdict.ask.text) and verdict.ask.sampling["temperature"] > 0
    assert typed_copies.check(turn, block(TYPED)) is None  # once a turn


READS = ('parts = [open(n).read() for n in ("intro.md", "outro.md")]\n'
         'open("chapter.md", "w").write("".join(parts))\n')


@pytest.mark.parametrize("request_text, code", [
    (ASK, READS),  # reads them
    ("Write a new chapter.md that starts a story", TYPED),  # no file named
    (ASK, 'open("chapter.md", "w").write("Chapter one\\n")'),  # new text, not a copy
    ("fix intro.md and outro.md: save the new version as tool.py", TYPED.replace("chapter.md", "tool.py")),  # a script
])
def test_left_alone(request_text: str, code: str) -> None:
    assert typed_copies.check(make_turn(request_text), block(code)) is None
