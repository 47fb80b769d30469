"""Top N: asked for the N rows with the highest (or lowest) of a named column, the model is given the code."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import top_n

from .handmade import block, make_turn

ASK = "Of the books in bookshelf.json that I actually finished, which 3 did I rate highest?"
BOOKS = [("Dune", "finished", 5), ("Emma", "reading", 5), ("Ubik", "finished", 3), ("Beloved", "finished", 4),
         ("Solaris", "finished", 2), ("Middlemarch", "abandoned", 4), ("Kindred", "finished", 4)]
# the 0.5B model's try (ho40): the one best book of all
WRONG = ('import json\nwith open("bookshelf.json") as f:\n    data = json.load(f)\n'
         'print(max(data["books"], key=lambda b: b["my_rating"]))')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    books = [{"title": t, "status": s, "my_rating": r, "pages": 100 + i} for i, (t, s, r) in enumerate(BOOKS)]
    (tmp_path / "bookshelf.json").write_text(json.dumps({"books": books}))
    (tmp_path / "runs.csv").write_text("date,route,km\n2025-01-02,river,5.5\n2025-01-03,hill,7.25\n2025-01-05,park,3\n")
    return tmp_path


def test_the_finished_books_rated_highest(folder: Path) -> None:
    interp, model = scripted_interpreter([f"```python\n{WRONG}\n```", "Dune, Beloved and Kindred."])
    interp.template = "small"
    try:
        out = interp.chat(ASK, display=False)
    finally:
        interp.close()
    consoles = [str(m["content"]) for m in out if m["type"] == "console"]
    assert consoles[-1] == "1. Dune: 5\n2. Beloved: 4\n3. Kindred: 4\n"  # Emma (reading) and Middlemarch left out


def test_what_is_asked(folder: Path) -> None:
    found = top_n.asked("what are the 2 shortest runs in runs.csv by km?", folder)
    assert found is not None and found["column"] == "km" and found["lowest"] and not found["json"]
    assert top_n.asked("top 5 books by pages in bookshelf.json", folder) is not None
    # negated, no number column named, a count not a top: not ours
    assert top_n.asked("Which 3 books in bookshelf.json that I haven't finished have the most pages?", folder) is None
    assert top_n.asked("which 3 books in bookshelf.json are best?", folder) is None
    assert top_n.asked("how many books in bookshelf.json did I rate 3 or more?", folder) is None
    right = ('import pandas as pd\ndf = pd.DataFrame(__import__("json").load(open("bookshelf.json"))["books"])\n'
             'df = df[df["status"] == "finished"]\nprint(df.nlargest(3, "my_rating")["title"])')
    assert top_n.check(make_turn(ASK), block(right)) is None
    assert top_n.check(make_turn(ASK), block(WRONG)) is not None
