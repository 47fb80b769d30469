"""`%undo files`: the working folder as it was before the last run (computer/undo.py)."""
from __future__ import annotations

import time

import pytest
from scripted import scripted_interpreter

from oi_local.computer import undo
from oi_local.terminal.magic import handle


@pytest.fixture
def folder(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("one")
    (work / "b.txt").write_text("keep me")
    monkeypatch.chdir(work)
    return work


def test_undo_files_puts_back_changed_deleted_and_created_files(folder):
    code = ("open('a.txt', 'w').write('two')\nos.remove('b.txt')\nos.makedirs('c/d')\n"
            "open('c/d/new.txt', 'w').write('x')\nprint('changed')")
    interp, _ = scripted_interpreter([f"```python\n{code}\n```", "Done."])
    interp.computer.undo_files = True
    said: list[str] = []
    try:
        interp.chat("change a.txt, delete b.txt and add c/d/new.txt", display=False)
        assert (folder / "a.txt").read_text() == "two" and not (folder / "b.txt").exists()
        handle(interp, "%undo", said.append)  # the messages, as before; and it says files changed
        assert "Removed your message" in said[-1] and "changed 3 file(s)" in said[-1] and "%undo files" in said[-1]
        handle(interp, "%undo files", said.append)
        assert "restored: a.txt" in said[-1] and "brought back: b.txt" in said[-1] and "removed: c/d/new.txt" in said[-1]
        assert (folder / "a.txt").read_text() == "one" and (folder / "b.txt").read_text() == "keep me"
        assert not (folder / "c").exists()
        handle(interp, "%undo files", said.append)
        assert "changed no files" in said[-1]
    finally:
        interp.close()


def test_nothing_to_undo_and_too_big_are_said(folder, monkeypatch):
    interp, _ = scripted_interpreter(["Hi."])
    said: list[str] = []
    try:
        handle(interp, "%undo files", said.append)
        assert "turn on computer.undo_files" in said[-1]
        interp.computer.undo_files = True
        handle(interp, "%undo files", said.append)
        assert "no code has run yet" in said[-1]
        monkeypatch.setattr(undo, "MAX_FILES", 1)
        interp.computer.run("python", "1")
        handle(interp, "%undo files", said.append)
        assert "more than 1 files" in said[-1]
    finally:
        interp.close()


def test_snapshot_cost_first_and_steady(tmp_path):
    """Cost of the copy taken before each run: a first snapshot copies, later ones only walk."""
    work = tmp_path / "w"
    for i in range(500):
        d = work / f"d{i % 20}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"f{i}.txt").write_bytes(b"x" * 4096)
    store = str(tmp_path / "store")
    first = undo.take(str(work), store)
    t0 = time.perf_counter()
    steady = undo.take(str(work), store, first)
    steady_s = time.perf_counter() - t0
    (work / "d0" / "f0.txt").write_bytes(b"changed")
    after = undo.take(str(work), store, steady)
    print(f"\nsnapshot of 500 files / 2 MB: first {first.took * 1000:.1f} ms, unchanged {steady_s * 1000:.1f} ms, "
          f"one file changed {after.took * 1000:.1f} ms")
    (work / "d0" / "f0.txt").write_bytes(b"changed again")
    assert undo.restore(after)[0] == ["d0/f0.txt"] and (work / "d0" / "f0.txt").read_bytes() == b"changed"
