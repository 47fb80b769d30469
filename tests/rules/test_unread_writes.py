from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import unread_writes

from .handmade import block, make_turn

NOTES = "# Steering group\n\nMeeting held 04/11/2026.\n\n- Budget approved\n"
ASK = "Please change every date in notes.md from DD/MM/YYYY to YYYY-MM-DD. Leave everything else as it is."
TYPED = 'with open("notes.md", "w") as f:\n    f.write("Meeting held 04/11/2026.\\n")\nprint(open("notes.md").read())'
READS = ('import re\ntext = open("notes.md").read()\ntext = re.sub(r"(\\d\\d)/(\\d\\d)/(\\d{4})", r"\\3-\\2-\\1", text)\n'
         'with open("notes.md", "w") as f:\n    f.write(text)\nprint(text)')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "notes.md").write_text(NOTES)
    (tmp_path / "empty.txt").write_text("")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_typed_in_text_over_a_named_file_is_asked_afresh() -> None:
    turn = make_turn(ASK)
    verdict = unread_writes.check(turn, block(TYPED))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note.startswith("Not run: the code writes over notes.md without reading it")
    assert "Read notes.md in the code" in (verdict.ask.text or "")
    assert unread_writes.check(turn, block(TYPED)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    (ASK, READS),
    (ASK, 'from pathlib import Path\np = Path("notes.md")\np.write_text(p.read_text().replace("04/11/2026", "2026-11-04"))'),
    (ASK, 'lines = open("notes.md").readlines()\nopen("notes.md", "w").writelines(lines)'),
    (ASK, 'with open("notes.md", "a") as f:\n    f.write("x\\n")'),  # appends
    ("Overwrite notes.md with the line 'hello'", TYPED),  # said to write over it
    ("Replace the contents of notes.md with a short summary", TYPED),
    ("Change empty.txt to say hi", 'open("empty.txt", "w").write("hi")'),  # nothing to lose
    ("Add a heading to summary.md", TYPED),  # another file than the one named
    ("What is in notes.md?", 'print(open("notes.md").read())'),
    ("Change notes.md to say the meeting moved", 'open("notes.md", "w").write("The meeting moved to May.\\n")'),  # new text
])
def test_left_alone(request_text: str, code: str) -> None:
    assert unread_writes.check(make_turn(request_text), block(code)) is None


def test_writes_unread_forms() -> None:
    assert unread_writes.writes_unread('from pathlib import Path\nPath("a.txt").write_text("x")') == ["a.txt"]
    assert unread_writes.writes_unread('from pathlib import Path\nwith Path("a.txt").open("w") as f: f.write("x")') == ["a.txt"]
    assert unread_writes.writes_unread('import io\nio.open("a.txt", mode="w").write("x")') == ["a.txt"]
    assert unread_writes.writes_unread('import json\nd = json.load(open("a.json"))\nopen("a.json", "w")') == []
    assert unread_writes.writes_unread('open("a.txt", "r+").write("x")') == []
    assert unread_writes.writes_unread("not python (") == []


def test_in_a_turn_the_file_keeps_its_other_lines(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{TYPED}\n```", f"```python\n{READS}\n```", "Changed the date."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    out = interp.chat(ASK, display=False)
    outputs = [m["content"] for m in out if m.get("type") == "console" and m.get("format") == "output"]
    assert any("Not run: the code writes over notes.md" in o for o in outputs)
    assert (folder / "notes.md").read_text() == NOTES.replace("04/11/2026", "2026-11-04")
