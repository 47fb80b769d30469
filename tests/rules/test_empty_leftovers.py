from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import empty_leftovers

from .handmade import block, make_turn

RESIZE = ('with open("photos/pic.jpg", "rb") as f:\n    with open("photos/pic_400.jpg", "wb") as f:\n'
          '        f.write(f.read())\n')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "pic.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(turn, code: str, folder: Path) -> str | None:
    b = block(code)
    assert empty_leftovers.check(turn, b) is None  # never stops code
    out = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True)
    assert out.returncode != 0
    return empty_leftovers.on_failure(turn, "python", code, out.stderr)


def test_an_empty_new_file_a_failed_run_left_is_removed(folder: Path) -> None:
    turn = make_turn("resize photos/pic.jpg to 400 px wide as photos/pic_400.jpg")
    note = _run(turn, RESIZE, folder)
    assert note == "Removed photos/pic_400.jpg: this failed run made it and left it empty."
    assert not (folder / "photos" / "pic_400.jpg").exists() and (folder / "photos" / "pic.jpg").exists()


def test_files_that_were_there_or_have_content_are_kept(folder: Path) -> None:
    (folder / "photos" / "pic_400.jpg").write_bytes(b"")  # there before the run: the person's own
    turn = make_turn("resize photos/pic.jpg")
    assert _run(turn, RESIZE, folder) is None and (folder / "photos" / "pic_400.jpg").exists()
    wrote = 'open("photos/out.txt", "w").write("half done")\nraise ValueError("later")\n'
    assert _run(turn, wrote, folder) is None and (folder / "photos" / "out.txt").read_text() == "half done"
    # code other than the block checked (a person edited it): nothing removed
    empty_leftovers.check(turn, block('open("photos/x.txt", "w").close()\nraise ValueError()'))
    (folder / "photos" / "x.txt").write_text("")
    assert empty_leftovers.on_failure(turn, "python", "other code", "err") is None
    assert (folder / "photos" / "x.txt").exists()


def test_in_a_chat_the_model_and_the_person_are_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scripted import scripted_interpreter

    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "pic.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    monkeypatch.chdir(tmp_path)
    interp, _ = scripted_interpreter([f"```python\n{RESIZE}```", "It did not work: the photo could not be read."])
    try:
        new = interp.chat("resize photos/pic.jpg to 400 px wide as photos/pic_400.jpg", display=False)
    finally:
        interp.close()
    outputs = [m["content"] for m in new if m["role"] == "computer"]
    assert "Removed photos/pic_400.jpg" in outputs[0] and "io.UnsupportedOperation" in outputs[0]
    assert not (tmp_path / "photos" / "pic_400.jpg").exists()
