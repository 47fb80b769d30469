"""Earlier code: code that ran for an earlier request is not the answer to a new one."""
from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

CODE = 'print("books:", 18)'
NEW = 'print("author:", "Murdoch")'


def test_the_same_code_for_a_new_request_is_asked_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    interp, model = scripted_interpreter([f"```python\n{CODE}\n```", "18 books.",
                                          f"```python\n{CODE}\n```", f"```python\n{NEW}\n```", "Murdoch.",
                                          f"```python\n{CODE}\n```", "18 books, as before."])
    interp.template = "small"
    try:
        interp.chat("how many books have I finished this year?", display=False)
        out = interp.chat("and which author have I read the most?", display=False)
        consoles = [str(m["content"]).strip() for m in out if m["type"] == "console"]
        assert consoles[-1] == "author: Murdoch" and "already answered the earlier request" in consoles[0]
        asked = str(model.prompts[3][-1]["content"])
        assert "it printed: books: 18" in asked
        again = interp.chat("run that count again please", display=False)  # asked to run it again: it runs
        assert [str(m["content"]).strip() for m in again if m["type"] == "console"] == ["books: 18"]
    finally:
        interp.close()
