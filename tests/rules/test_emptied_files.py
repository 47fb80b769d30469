from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import emptied_files

from .handmade import block, make_turn

SCRIPT = 'guests = ["Ann", "Bob"]\nguests.add("Zoe")\nprint(", ".join(guests))\n'
EMPTIES = 'guests = ["Ann", "Bob", "Zoe"]\nwith open("guests.py", "w") as f:\n    f.write(guests)\n'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "guests.py").write_text(SCRIPT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(turn, code: str, folder: Path, lang: str = "python") -> str | None:
    b = block(code, lang)
    assert emptied_files.check(turn, b) is None  # never stops code
    cmd = [sys.executable, "-c", code] if lang == "python" else ["bash", "-c", code]
    out = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
    assert out.returncode != 0
    return emptied_files.on_failure(turn, lang, code, out.stderr)


def test_a_script_a_failed_run_emptied_is_put_back(folder: Path) -> None:
    turn = make_turn("guests.py crashes with an AttributeError. Please fix it.")
    note = _run(turn, EMPTIES, folder)
    assert note == "Put guests.py back as it was: this failed run had left it empty."
    assert (folder / "guests.py").read_text() == SCRIPT


def test_a_shell_redirect_that_failed_is_put_back_too(folder: Path) -> None:
    turn = make_turn("sort guests.py")
    note = _run(turn, "false > guests.py && false", folder, "shell")
    # `false > guests.py` truncates, then the command fails: nothing was written
    assert note is not None and (folder / "guests.py").read_text() == SCRIPT


def test_content_the_failed_run_wrote_and_files_it_did_not_name_are_left(folder: Path) -> None:
    turn = make_turn("fix guests.py")
    half = 'open("guests.py", "w").write("print(1)\\n")\nraise ValueError("later")\n'
    assert _run(turn, half, folder) is None
    assert (folder / "guests.py").read_text() == "print(1)\n"
    (folder / "empty.txt").write_text("")  # empty before: nothing to put back
    assert _run(turn, 'open("empty.txt", "w")\nraise ValueError()', folder) is None
    # code other than the block checked (a person edited it): nothing put back
    (folder / "guests.py").write_text(SCRIPT)
    emptied_files.check(turn, block(EMPTIES))
    (folder / "guests.py").write_text("")
    assert emptied_files.on_failure(turn, "python", "other code", "err") is None
    assert (folder / "guests.py").read_text() == ""


def test_in_a_chat_the_model_and_the_person_are_told(folder: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    interp, _ = scripted_interpreter([f"```python\n{EMPTIES}```", "It did not work: write() needs a string."])
    try:
        new = interp.chat("guests.py crashes with an AttributeError. Please fix it.", display=False)
    finally:
        interp.close()
    outputs = [m["content"] for m in new if m["role"] == "computer"]
    assert "Put guests.py back as it was" in outputs[0] and "TypeError" in outputs[0]
    assert (folder / "guests.py").read_text() == SCRIPT
