from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import session_values

from .handmade import make_turn

MEMBERS = "name,email,status\nAisha,aisha@example.com,active\nBo,bo@example.com,left\nCy,cy@example.com,active\n"
COUNT = ('import csv\nwith open("members.csv", newline="") as f:\n'
         '    active_members = [r for r in csv.DictReader(f) if r["status"] == "active"]\nprint(len(active_members))')
LINE = 'active_members = [r for r in csv.DictReader(f) if r["status"] == "active"]'


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "members.csv").write_text(MEMBERS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _chat(code: str, output: str, follow_up: str) -> list[dict[str, Any]]:
    return [
        {"role": "assistant", "type": "code", "format": "python", "content": code},
        {"role": "computer", "type": "console", "format": "output", "content": output},
        {"role": "assistant", "type": "message", "content": "2 members are active."},
        {"role": "user", "type": "message", "content": follow_up},
    ]


def test_a_follow_up_about_those_rows_is_told_what_the_session_holds() -> None:
    ask = "Great, can you put their email addresses into active_emails.txt, one per line?"
    turn = make_turn("How many members in members.csv are active?", *_chat(COUNT, "2\n", ask))
    added = session_values.prompt(turn.engine, ask, "How many members in members.csv are active?")
    assert added is not None
    assert added.hint == f"(The Python session still has active_members from the code before: `{LINE}`. The code can use it.)"


@pytest.mark.parametrize("code, output, follow_up", [
    (COUNT, "Traceback (most recent call last):\nNameError: x\n(exit code 1)\n", "put their emails into a.txt"),  # failed
    (COUNT, "2\n", "now count the ones who left"),  # not about those rows
    (COUNT, "2\n", "which of them are also in members.csv?"),  # names a file there
    ('n = 2\nprint(n)', "2\n", "put their emails into a.txt"),  # a number typed in
    ("echo 2", "2\n", "put their emails into a.txt"),
])
def test_left_alone(code: str, output: str, follow_up: str) -> None:
    turn = make_turn("How many members are active?", *_chat(code, output, follow_up))
    if code.startswith("echo"):
        turn.engine.messages[1]["format"] = "shell"
    assert session_values.prompt(turn.engine, follow_up, "How many members are active?") is None


def test_printed_values() -> None:
    code = 'import csv\nrows = list(csv.DictReader(open("a.csv")))\nbig = [r for r in rows if r["n"] > "1"]\nx = 3\nprint(len(big), x)'
    assert session_values.printed_values(code) == ['big = [r for r in rows if r["n"] > "1"]']
    assert session_values.printed_values("print(") == []


def test_in_a_chat_the_model_sees_the_line_and_the_file_gets_the_emails(folder: Path) -> None:
    use = 'with open("active_emails.txt", "w") as f:\n    for r in active_members:\n        f.write(r["email"] + "\\n")'
    interp, model = scripted_interpreter([f"```python\n{COUNT}\n```", "2 members are active.",
                                          f"```python\n{use}\n```", "Done: 2 emails written."])
    interp.template = "small"
    interp.second_opinions = 0
    interp.recipes = 0
    interp.chat("How many members in members.csv are active?", display=False)
    interp.chat("can you put their email addresses into active_emails.txt, one per line?", display=False)
    assert any(LINE in str(m.get("content", "")) for p in model.prompts[2:] for m in p)
    assert (folder / "active_emails.txt").read_text() == "aisha@example.com\ncy@example.com\n"
    assert not any(LINE in str(m.get("content", "")) for m in interp.messages if m["role"] == "user")  # never stored
