from __future__ import annotations

from oi_local.core.rules import repetition


def test_an_endless_repetition_is_cut_keeping_one_unit() -> None:
    text = "print(1" + "9" * 300
    assert repetition.cut(text) == len("print(1") + 1
    line = "x = 1\n"
    cut = repetition.cut("a = 0\n" + line * 60)
    assert cut is not None and ("a = 0\n" + line * 60)[:cut].count("x = 1") == 1


def test_real_code_and_short_text_are_not_cut() -> None:
    code = "\n".join(f"total += values[{i}] * {i}" for i in range(40))
    assert repetition.cut(code) is None
    assert repetition.cut("9" * 100) is None  # shorter than the span
