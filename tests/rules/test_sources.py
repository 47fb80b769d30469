from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import sources

from .handmade import block, make_turn

JOIN = "my short story is split across story/part1.txt to part11.txt. can you join them into one file, story/full_story.txt, in the right order?"
OVERWRITE = 'with open("story/part1.txt", "w") as out:\n    out.write("1: T")\n'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "story").mkdir()
    for i in range(1, 12):
        (tmp_path / "story" / f"part{i}.txt").write_text(f"part {i}\n")
    (tmp_path / "choir").mkdir()
    (tmp_path / "choir" / "members.json").write_text('[{"name": "Grace"}]')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_writing_over_a_named_source_of_a_new_file_is_not_run(folder: Path) -> None:
    turn = make_turn(JOIN)
    verdict = sources.check(turn, block(OVERWRITE))
    assert verdict is not None and verdict.again and verdict.ask is not None and verdict.ask.hide
    assert "story/part1.txt" in verdict.note and "story/full_story.txt" in verdict.note
    again = sources.check(turn, block(OVERWRITE))
    assert again is not None and again.stop  # the second time the turn ends
    turn = make_turn("turn choir/members.json into choir/members.csv", approve=lambda *a: True)
    verdict = sources.check(turn, block("echo '[]' > choir/members.json", "shell"))
    assert verdict is not None and not verdict.again and "members.json" in verdict.warning  # a person is warned


def test_writing_the_asked_file_or_a_change_asked_for_is_left_alone(folder: Path) -> None:
    join = ('from pathlib import Path\nparts = [Path(f"story/part{i}.txt").read_text() for i in range(1, 12)]\n'
            'Path("story/full_story.txt").write_text("".join(parts))\n')
    assert sources.check(make_turn(JOIN), block(join)) is None
    # the request asks to change the named file, or names no new file
    assert sources.check(make_turn("add a line to story/part1.txt and save a copy as story/copy.txt"),
                         block(OVERWRITE)) is None
    assert sources.check(make_turn("shorten story/part1.txt"), block(OVERWRITE)) is None
    (folder / "story" / "full_story.txt").write_text("old draft\n")  # the asked file is there already
    assert sources.check(make_turn(JOIN), block(OVERWRITE)) is None
