from __future__ import annotations

from oi_local.core.rules import empty_code

from .handmade import block, make_turn


def test_a_block_of_comments_alone_is_not_run_and_twice_ends_the_turn() -> None:
    turn = make_turn("which night did the backup fail? the log is in backup.log")
    first = empty_code.check(turn, block("# Your previous code had syntax errors\n"))
    assert first is not None and first.again and not first.stop and "only comments" in first.note
    second = empty_code.check(turn, block("# nothing to do\n\n"))
    assert second is not None and second.stop and not second.again


def test_code_blank_or_unreadable_or_shell_is_left_alone() -> None:
    turn = make_turn("count the lines of a.txt")
    for code, lang in (("# count\nprint(1)", "python"), ("", "python"), ("x = (", "python"), ("# just a comment", "shell")):
        assert empty_code.check(turn, block(code, lang=lang)) is None
