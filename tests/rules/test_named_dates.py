from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripted import scripted_interpreter

from oi_local.core.dates import Named, named_dates
from oi_local.core.rules import named_dates as rule

from .handmade import block, make_turn

VISA = ("my visa is valid from 17 march 2025 to 9 jan 2026, both days included. how many days is that exactly? "
        "and what day of the week is the last day")


def test_the_dates_a_request_names_in_the_ways_people_write_them() -> None:
    assert named_dates(VISA) == [Named(2025, 3, 17), Named(2026, 1, 9)]
    assert named_dates("due on March 3rd, 2024 or 2024-04-30") == [Named(2024, 3, 3), Named(2024, 4, 30)]
    # a day and month take the year that closes the phrase; with none anywhere near, no year
    assert named_dates("weekly prices from 6 January to 5 May 2025") == [Named(2025, 1, 6), Named(2025, 5, 5)]
    assert named_dates("my birthday is 29 February") == [Named(None, 2, 29)]
    assert named_dates("I may go in 2 weeks; 31 june 2025 is no date") == []


@given(st.dates())
def test_any_date_written_out_is_read_back(d: object) -> None:
    from datetime import date
    assert isinstance(d, date)
    if d.year < 1900 or d.year > 2099:
        return
    assert named_dates(d.strftime("on %d %B %Y.")) == [Named(d.year, d.month, d.day)]
    assert named_dates(d.strftime("on %b %d, %Y.")) == [Named(d.year, d.month, d.day)]
    assert named_dates(d.isoformat()) == [Named(d.year, d.month, d.day)]


def test_a_swapped_or_impossible_date_literal_becomes_the_named_date() -> None:
    code = ("from datetime import datetime\nstart = datetime(2025, 17, 1)\nend = datetime(2026, 9, 1)\n"
            "print((end - start).days + 1, end.strftime('%A'))")
    b = block(code)
    verdict = rule.check(make_turn(VISA), b)
    assert verdict is not None and "(2025, 17, 1) -> (2025, 3, 17)" in verdict.warning
    assert b.code == code.replace("2025, 17, 1", "2025, 3, 17").replace("2026, 9, 1", "2026, 1, 9")
    # dates the request names, and dates it does not name in any order, are left as they are
    for kept in ("d = date(2025, 3, 17)", "d = date(2025, 1, 1)", "d = date(2024, 17, 1)", "d = date(x, 9, 1)"):
        assert rule.check(make_turn(VISA), block(kept)) is None
    assert rule.check(make_turn("how many days until christmas?"), block("d = date(2025, 25, 12)")) is None


def test_an_out_of_range_date_is_told_the_requests_dates() -> None:
    turn = make_turn(VISA)
    note = rule.on_failure(turn, "python", "x", "ValueError: month must be in 1..12\n(exit code 1)")
    assert note is not None and "date(2025, 3, 17), date(2026, 1, 9)" in note
    assert rule.on_failure(turn, "python", "x", "ValueError: invalid literal for int()") is None


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_repaired_code_runs_and_answers() -> None:
    code = ("from datetime import date\nstart = date(2025, 17, 1)\nend = date(2026, 9, 1)\n"
            "print((end - start).days + 1, end.strftime('%A'))")
    interp, model = scripted_interpreter([f"```python\n{code}\n```", "299 days; the last day is a Friday."])
    interp.template = "small"
    try:
        out = interp.chat(VISA, display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles[-1] == "299 Friday" and model.calls == 2
    finally:
        interp.close()


def test_asked_the_weekday_of_the_last_date_the_code_prints_that_ones() -> None:
    request = "counting from 3 November 2025, how many days is it until 19 July 2026? and what day of the week will that be"
    code = ("from datetime import datetime\nstart_date = datetime(2025, 11, 3)\nend_date = datetime(2026, 7, 19)\n"
            "print((end_date - start_date).days)\nprint(start_date.strftime('%A'))")
    b = block(code)
    verdict = rule.check(make_turn(request), b)
    assert verdict is not None and b.code.endswith("print(end_date.strftime('%A'))")
    assert "(end_date - start_date)" in b.code
    # the weekday of the date counted from, asked for, stays
    asked_first = "from 3 November 2025 to 19 July 2026: how many days, and what day of the week was the start?"
    assert rule.check(make_turn(asked_first), block(code)) is None
    # the last date's weekday already, or no weekday asked: nothing to change
    right = code.replace("start_date.strftime", "end_date.strftime")
    assert rule.check(make_turn(request), block(right)) is None
    assert rule.check(make_turn(request.split("?")[0] + "?"), block(code)) is None


def test_a_span_counted_from_an_unnamed_date_is_counted_from_the_other_named_one() -> None:
    request = "how many days are there from 14 march 2025 to 2 november 2025? and what day of the week is nov 2 2025"
    code = ("from datetime import date\nprint((date(2025, 3, 14) - date(2025, 1, 1)).days)\n"
            "print(date(2025, 11, 2).strftime('%A'))")
    interp, model = scripted_interpreter([f"```python\n{code}\n```", "233 days; it is a Sunday."])
    interp.template = "small"
    try:
        out = interp.chat(request, display=False)
        consoles = [m["content"].strip() for m in out if m["type"] == "console"]
        assert consoles[-1] == "233\nSunday" and model.calls == 2
    finally:
        interp.close()
    # a named date written swapped, as the 0.5B model did in the next run (ho40): corrected, then the span
    b = block(code.replace("date(2025, 3, 14)", "date(2025, 14, 3)"))
    assert rule.check(make_turn(request), b) is not None and "(date(2025, 11, 2) - date(2025, 3, 14)).days" in b.code
    # both named, or a third date the request does not pin down: nothing to change
    right = code.replace("date(2025, 1, 1)", "date(2025, 11, 2)")
    assert rule.check(make_turn(request), block(right)) is None
    three = "from 14 march 2025 to 2 november 2025, and 5 may 2025: how many days?"
    assert rule.check(make_turn(three), block(code)) is None


def test_the_first_of_a_named_dates_month_is_that_date_and_the_weekday_asked_is_the_last_ones() -> None:
    request = ("My probation period runs from 3 March 2025 until 19 November 2025. How many days is that, and what day of "
               "the week is 19 November 2025?")
    code = ("from datetime import datetime\nstart_date = datetime(2025, 3, 1)\nend_date = datetime(2025, 11, 19)\n"
            "days = (end_date - start_date).days\nprint(f\"{days} days\")\nprint(start_date.strftime(\"%A\"))")
    b = block(code)
    verdict = rule.check(make_turn(request), b)
    assert verdict is not None and "(2025, 3, 1) -> (2025, 3, 3)" in verdict.warning
    out: dict = {}
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(b.code, out)
    assert buf.getvalue() == "261 days\nWednesday\n"
    # the first of a month no named date is in, or of a month with two named dates: left alone
    assert rule.check(make_turn("from 3 March 2025 to 19 November 2025, how many days?"),
                      block("from datetime import date\nprint((date(2025, 11, 19) - date(2025, 3, 3)).days, date(2025, 1, 1))")) is None
