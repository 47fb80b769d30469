from __future__ import annotations

from oi_local.core.rules import unused_numbers

from .handmade import block, make_turn, ran

TIP = "Our bill is 186.40. Add a 15% tip and split the whole thing evenly between 4 people. How much each?"


def test_code_that_leaves_out_a_number_of_the_calculation_is_asked_afresh() -> None:
    turn = make_turn(TIP)
    verdict = unused_numbers.check(turn, block("tip = 186.40 * 0.15\nprint(round(tip + 186.40, 2))"))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "leaves out 4 from the request" in verdict.note
    assert "186.40, 15%, 4" in (verdict.ask.text or "") and verdict.ask.sampling["temperature"] > 0
    again = unused_numbers.check(turn, block("print(186.40 * 0.15)"))  # asked afresh a second time, another seed
    assert again is not None and again.ask is not None and "leaves out 4" in again.note
    assert again.ask.sampling["seed"] != verdict.ask.sampling["seed"]
    assert unused_numbers.check(turn, block("print(186.40 * 0.15)")) is None  # twice a turn at most


def test_a_number_set_and_never_read_is_not_used() -> None:
    request = "My car uses 6.4 litres per 100 km. Petrol costs 1.89 per litre. What does a 575 km trip cost?"
    code = "per_100 = 6.4\ncost = 1.89\nkm = 575\nprint(round(cost * (km / 100), 2))"
    assert unused_numbers.missing(request, code) == ["6.4"]
    assert unused_numbers.missing(request, "print(round(6.4 * 575 / 100 * 1.89, 2))") == []
    # A number inside a sum whose name is never read is not used either.
    assert unused_numbers.missing(TIP, "tip = 186.40 * 0.15\nsplit = 186.40 / 4\nprint(split)") == ["15%"]
    assert unused_numbers.missing(TIP, "tip = 186.40 * 0.15\nprint((186.40 + tip) / 4)") == []


def test_left_alone() -> None:
    assert unused_numbers.missing(TIP, "print(round(186.40 * 1.15 / 4, 2))") == []  # 15% as 1.15
    assert unused_numbers.missing("What is the sum of 1 to 100?", "print(sum(range(1, 101)))") == []
    assert unused_numbers.missing("Split the 120.50 in bills.csv between 3 of us", "print(120.5)") == []  # a file
    assert unused_numbers.missing("How many days from 2024-03-01 to 2024-12-25?", "print(299)") == []  # dates
    assert unused_numbers.missing("What is 17 squared?", "print(17 ** 2)") == []  # one number
    assert unused_numbers.missing(TIP, "import math\nprint(math.pi)") == []  # none of them: not working from them
    turn = make_turn(TIP, runs=(ran("print(1)", "1"),))  # only the turn's first code
    assert unused_numbers.check(turn, block("print(186.40 * 0.15)")) is None


def test_a_precision_is_not_a_number_of_the_calculation() -> None:
    code = "import statistics\nprint(statistics.mean([41.37, 40.82, 42.05]))"
    for request in ("wats the avrage of these times? 41.37, 40.82, 42.05 (seconds). 2 decimal places pls",
                    "Average of 41.37, 40.82 and 42.05, to 3 dp", "mean of 41.37, 40.82, 42.05 rounded to 2",
                    "average 41.37, 40.82, 42.05 - round it to 1 please", "41.37, 40.82, 42.05: mean to 2 decimals"):
        assert unused_numbers.missing(request, code) == [], request
    # the 2 people are data: still missing
    assert unused_numbers.missing("Split 41.37 and 40.82 between 2 people, to 2 decimals",
                                  "print(41.37 + 40.82)") == ["2"]


def test_a_conversion_needs_only_the_numbers_in_the_asked_units_kind() -> None:
    oven = "my oven recipe says 350°F for 12 minutes, what's that in celsius?"
    assert unused_numbers.missing(oven, "print(round((350 - 32) * 5 / 9))") == []  # the 12 minutes are no temperature
    assert unused_numbers.missing("Bake 200 g of flour with 150 g sugar for 40 mins. How much is that in ounces?",
                                  "print(200 / 28.35)") == ["150"]  # both weights are needed
    # no conversion asked: every number counts
    assert unused_numbers.missing("Drive 575 km at 6.4 litres per 100 km; fuel is 1.89 a litre. What does it cost?",
                                  "print(575 * 6.4 / 100)") == ["1.89"]
