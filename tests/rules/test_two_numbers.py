from __future__ import annotations

import pytest

from oi_local.core.rules import two_numbers

from .handmade import failed, make_turn, ran, reply

ASKED = ("how many jpeg photos are in my camera folder? some end in .jpg, some .JPG or .jpeg, count them all. "
         "and how much space do they take up together?")
CODE = 'from pathlib import Path\nprint(sum(p.stat().st_size for p in Path("camera").rglob("*.jpg")))'


def test_two_amounts_asked_and_one_number_printed_is_asked_for_both() -> None:
    turn = make_turn(ASKED, reply("25600 bytes."), runs=(ran(CODE, "25600\n"),))
    ask = two_numbers.follow_up(turn)
    assert ask is not None and ask.sampling.get("temperature")
    assert '"how many jpeg photos are in my camera folder" and "how much space do they take up together"' in (ask.text or "")
    assert two_numbers.follow_up(turn) is None  # once a turn


@pytest.mark.parametrize("request_text, output", [
    (ASKED, "5 files, 25600 bytes\n"),  # both printed
    (ASKED, "photos: 5, size: 25600\n"),
    (ASKED, "5 photos were found in the camera folder and its subfolders, taking up 25600 bytes\n"),
    ("how many photos are in camera?", "5\n"),  # one asked
    ("which IP made the most requests, and how many?", "42\n"),  # one amount (which_answers sees to the IP)
])
def test_left_alone(request_text: str, output: str) -> None:
    assert two_numbers.follow_up(make_turn(request_text, reply(output), runs=(ran(CODE, output),))) is None


@pytest.mark.parametrize("request_text, first, second", [
    ("How many orders are still pending, and what's their total value?", "How many orders are still pending", "what's their total value"),
    ("how many runs did I do and what was the average distance?", "how many runs did I do", "what was the average distance"),
    ("how many apples and pears are in fruit.csv?", "", None),
])
def test_the_two_amounts(request_text: str, first: str, second: str | None) -> None:
    two = two_numbers.asked_two(request_text)
    assert (two == (first, second)) if second else (two is None)


def test_one_labelled_number_is_asked_for_both() -> None:
    turn = make_turn(ASKED, reply("5 photos."), runs=(ran(CODE, "photos: 5\n"),))
    assert two_numbers.follow_up(turn) is not None


def test_one_number_then_the_records_is_asked_for_both() -> None:
    asked = ("from orders.csv, pull out every order over 250 euros into a new file big_orders.csv. "
             "how many were there and what do they come to together?")
    dump = "9 total orders over 250 euros\n{'order_id': 'A-1032', 'total_eur': '855.54'}\n{'order_id': 'A-1033', 'total_eur':"
    ask = two_numbers.follow_up(make_turn(asked, reply("9."), runs=(ran(CODE, dump),)))
    assert ask is not None and '"what do they come to together"' in (ask.text or "")
    tuple_dump = "(464.83, [{'date': '2024-03-06', 'category': 'groceries', 'amount': '55.24'}, {'date':"
    asked = "how much went on groceries altogether? and which category ate the most money, how much was that?"
    assert two_numbers.follow_up(make_turn(asked, reply("464.83"), runs=(ran(CODE, tuple_dump),))) is not None
    both = "9 orders over 250 euros, together 5739.12\n{'order_id': 'A-1032'}"
    assert two_numbers.follow_up(make_turn(asked, reply("x"), runs=(ran(CODE, both),))) is None


def test_not_after_a_failed_run() -> None:
    assert two_numbers.follow_up(make_turn(ASKED, reply("x"), runs=(failed(CODE, "NameError: p"),))) is None


def test_in_the_loop_both_are_printed(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "camera").mkdir()
    for name in ("a.jpg", "b.JPG"):
        (tmp_path / "camera" / name).write_bytes(b"x" * 100)
    size = 'from pathlib import Path\nprint(sum(p.stat().st_size for p in Path("camera").iterdir()))'
    both = 'from pathlib import Path\nps = list(Path("camera").iterdir())\nprint("photos:", len(ps), "bytes:", sum(p.stat().st_size for p in ps))'
    interp, model = scripted_interpreter([f"```python\n{size}\n```", "200 bytes.", f"```python\n{both}\n```", "2 photos, 200 bytes."])
    interp.template = "small"
    interp.second_opinions = 0
    try:
        out = interp.chat("how many photos are in camera, and how much space do they take?", display=False)
        assert [m["content"].strip() for m in out if m["type"] == "console"] == ["200", "photos: 2 bytes: 200"]
        assert out[-1]["content"] == "2 photos, 200 bytes." and model.calls == 4
    finally:
        interp.reset()


def test_still_one_number_after_the_ask_ends_saying_so() -> None:
    asked = "pull out every order over 250 euros into big_orders.csv. how many were there and what do they come to together?"
    turn = make_turn(asked, reply("9 rows saved."), runs=(ran(CODE, "9 rows saved\n"),))
    assert two_numbers.finish(turn) is None and two_numbers.follow_up(turn) is not None
    turn.runs.append(ran(CODE, "Total orders: 9\n"))
    assert two_numbers.finish(turn) == ('This is not done: I asked two things, "how many were there" and '
                                        '"what do they come to together", and the code printed one number.')
    turn.runs.append(ran(CODE, "9 orders, 5739.12 euros\n"))
    assert two_numbers.finish(turn) is None


def test_one_number_said_twice_is_one_number() -> None:
    request = ("from orders.csv, pull out every order over 250 euros into big_orders.csv. how many were there and what "
               "do they come to together?")
    turn = make_turn(request, reply("9 rows -> 9"), runs=(ran("print(len(data), 'rows ->', len(data))", "9 rows -> 9\n"),))
    assert two_numbers.follow_up(turn) is not None
