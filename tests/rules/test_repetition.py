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


def test_a_longer_block_said_three_times_in_a_row_is_cut_keeping_one() -> None:
    block = ('with open("deadline.py", "w") as f:\n'
             '    f.write(f"from datetime import date\\ntoday = date(2025, 6, 1)\\nprint(f\\"Days left: {d}\\")\\n")\n')
    assert 40 < len(block) < 400
    head = "```python\nimport datetime\n"
    assert repetition.cut(head + block * 2) is None  # twice may be meant
    text = head + block * 3
    cut = repetition.cut(text)
    assert cut is not None and text[:cut].count("with open") == 1 and text[:cut].startswith(head)


def test_real_code_with_similar_lines_is_not_cut() -> None:
    rows = "".join(f'    writer.writerow(["row {i}", {i * 3}, "same text on every row of this table, long enough"])\n'
                   for i in range(30))
    assert repetition.cut("import csv\n" + rows) is None
    dashes = 'print("-" * 60)\nprint("name", "total")\n' * 2 + 'print("done")\n'
    assert repetition.cut(dashes) is None


def test_a_short_unit_after_other_text_waits_for_the_span_rule() -> None:
    # "999..." is also 41-periodic: the longer-unit rule must leave it to the SPAN rule, which keeps
    # one digit, not 41 (the fresh-clone CI caught the longer rule cutting it first).
    head = "349808 * 38490739 is 12"
    for n in range(123, 400):
        cut = repetition.cut(head + "9" * n)
        assert cut is None or cut == len(head) + 1


def test_items_that_count_up_one_by_one_are_cut() -> None:
    head = '```python\nimport csv\nrows = [r for r in reader if r["date"] in ['
    dates = ", ".join(f'"2025-03-{d:02d}"' for d in range(1, 60))
    text = head + dates
    cut = repetition.cut(text)
    assert cut is not None and text[:cut].startswith(head) and len(text) - cut == repetition.COUNT_SPAN
    assert repetition.cut(head + ", ".join(str(n) for n in range(100, 300))) is not None  # plain numbers


def test_data_written_out_is_not_a_count() -> None:
    prices = ", ".join(str(round(3 + (n * 7919 % 101) / 7, 2)) for n in range(90))  # data, not a count
    assert repetition.cut("prices = [" + prices) is None
    squares = ", ".join(str(n * n) for n in range(1, 80))
    assert repetition.cut("squares = [" + squares) is None
    march = ", ".join(f'"2025-03-{d:02d}"' for d in range(1, 32))  # a month written out: under the span
    assert repetition.cut("days = [" + march) is None
    months = ", ".join(f'"2025-{m:02d}-{d:02d}"' for m in (1, 2, 3) for d in range(1, 29))  # the day starts again
    assert repetition.cut("days = [" + months) is None
