"""Named today: the date a request says today is stands for the machine's clock."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from oi_local.core.rules import named_today

from .handmade import block, make_turn

CODE = ('import json\nimport datetime\nwith open("todo.json") as f:\n    tasks = json.load(f)\n'
        'today = datetime.datetime.now()\n'
        'late = [t["title"] for t in tasks if not t["done"] and datetime.datetime.strptime(t["due"], "%Y-%m-%d") < today]\n'
        'print(len(late), late)\n')


def test_the_clock_becomes_the_day_the_request_names(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "todo.json").write_text('[{"title": "tax", "due": "2025-03-01", "done": false},'
                                        ' {"title": "car", "due": "2025-04-01", "done": false}]')
    b = block(CODE)
    verdict = named_today.check(make_turn("It's 10 March 2025 today. Which tasks in todo.json are overdue?"), b)
    assert verdict is not None and "datetime.datetime(2025, 3, 10)" in b.code and "2025-03-10" in verdict.warning
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True)
    assert out.stdout.strip() == "1 ['tax']", out.stderr


def test_the_ways_a_request_says_today() -> None:
    for request in ("Today is 3 May 2024: how old is ...", "today's date is 2024-05-03", "As of May 3, 2024, what is",
                    "it is now 3rd May 2024", "what's overdue? today (3 May 2024)"):
        assert named_today.today_named(request) == (2024, 5, 3), request
    for request in ("How many days from today until 25 December 2026?", "what day was 3 May 2024?",
                    "today is my birthday, I was born on 3 May 1990", "today is 3 May"):
        assert named_today.today_named(request) is None, request


def test_date_today_and_no_named_day_left_alone() -> None:
    b = block("from datetime import date\nprint((date(2025, 12, 25) - date.today()).days)")
    assert named_today.check(make_turn("as of 1 December 2025, how many days until Christmas?"), b) is not None
    assert "date(2025, 12, 1)" in b.code
    plain = "from datetime import date\nprint(date.today())"
    assert named_today.check(make_turn("what is the date today?"), block(plain)) is None
