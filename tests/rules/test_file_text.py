from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import file_text

from .handmade import block, make_turn

NAMES = 'import re\nfrom pathlib import Path\nprint([f.name for f in Path("inbox").iterdir() if re.search("invoice", f.name)])'
TEXTS = 'from pathlib import Path\nprint(sorted(f.name for f in Path("inbox").iterdir() if "invoice" in f.read_text().lower()))'


@pytest.mark.parametrize("request_text, code, lang", [
    ("Which emails in the inbox folder talk about an invoice? Just tell me the file names.", NAMES, "python"),
    ("how many TODO comments are left in the python files under app/?",
     'from pathlib import Path\nprint(len(list(Path("app").rglob("TODO.md"))))', "python"),
    ("which files in notes/ mention the dentist?", "ls notes | grep -i dentist", "shell"),  # grep of the listing: names
    ("list the files in notes that contain the word budget", 'import os\nprint([f for f in os.listdir("notes") if "budget" in f])', "python"),
    # how long files are, counted by the length of their names
    ("Which file in the lists folder has the most lines?",
     'from pathlib import Path\nprint(max(Path("lists").iterdir(), key=lambda p: len(p.name)))', "python"),
])
def test_code_that_only_looks_at_file_names_is_asked_afresh(request_text: str, code: str, lang: str) -> None:
    turn = make_turn(request_text)
    b = block(code, lang)
    verdict = file_text.check(turn, b)
    assert verdict is not None and verdict.note == file_text.SHOWN and verdict.ask is not None and verdict.ask.hide
    assert file_text.check(turn, b) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    ("Which emails in the inbox folder talk about an invoice?", TEXTS),  # reads them
    ("which folders contain photos?", 'from pathlib import Path\nprint([p for p in Path(".").iterdir() if p.is_dir()])'),
    ("how many .py files are in src, including subfolders?", 'from pathlib import Path\nprint(len(list(Path("src").rglob("*.py"))))'),
    ("what does invoice_2.txt say?", 'print(open("inbox/invoice_2.txt").read())'),
    ("which files in notes/ mention the dentist?", "grep -ril dentist notes"),
    ("which files in notes/ mention the dentist?", "find notes -type f | xargs grep -il dentist"),
    ("Which file in the lists folder has the most lines?",
     'from pathlib import Path\nprint(max(Path("lists").iterdir(), key=lambda p: len(p.read_text().splitlines())))'),
    ("how many lines are in the notes folder's files?", "wc -l notes/*"),
])
def test_left_alone(request_text: str, code: str) -> None:
    lang = "python" if "(" in code else "shell"
    assert file_text.check(make_turn(request_text), block(code, lang)) is None


def test_in_a_turn_the_retry_reads_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "msg_01.txt").write_text("Hi, the invoice for March is attached.")
    (tmp_path / "inbox" / "msg_02.txt").write_text("Lunch on Friday?")
    interp, model = scripted_interpreter([f"```python\n{NAMES}\n```", f"```python\n{TEXTS}\n```", "msg_01.txt talks about an invoice."])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        out = interp.chat("Which emails in the inbox folder talk about an invoice? Just tell me the file names.", display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles[0] == file_text.SHOWN and consoles[-1] == "['msg_01.txt']"
        assert "open each file, read its text" in str(model.prompts[1]) and model.calls == 3
    finally:
        interp.close()
