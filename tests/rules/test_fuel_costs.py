"""Fuel costs: a trip's fuel cost from a car's use and the fuel's price."""
from __future__ import annotations

import subprocess
import sys

import pytest

from oi_local.core.rules import fuel_costs

from .handmade import failed, make_turn, ran


def _out(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout


def test_litres_per_100_km() -> None:
    # whole suite (ho5): the litres per 100 km times the whole distance, 6955.2
    request = "the van does 8.2 l per 100 km and diesel is 1.74 a litre. what will a 340 km round trip cost me?"
    found = fuel_costs.asked(request)
    assert found is not None and (found["km"], found["use"], found["price"]) == (340.0, 8.2, 1.74)
    turn = make_turn(request, runs=(ran("x", "4850.88\n"),))
    ask = fuel_costs.after_run(turn)
    assert ask is not None and ask.own and fuel_costs.after_run(turn) is None
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    assert _out(code) == "27.88 litres, costing 48.51\n"
    assert fuel_costs.after_run(make_turn(request, runs=(ran("x", "48.51\n"),))) is None
    assert fuel_costs.after_run(make_turn(request, runs=(failed("x", "NameError: x"),))) is not None


def test_miles_per_gallon() -> None:
    found = fuel_costs.asked("my car gets 32 mpg, gas is $3.60 a gallon, how much for a 400 mile drive?")
    assert found is not None and abs(fuel_costs.cost(found) - 45.0) < 1e-9
    assert _out(fuel_costs.ready_code(found)) == "12.50 gallons, costing 45.00\n"


@pytest.mark.parametrize("request_text", [
    "how far can I go on 40 litres at 6.4 l/100km?",  # no price, no trip
    "the car uses 6.4 litres per 100 km; what is 575 km in miles?",  # no price
])
def test_left_alone(request_text: str) -> None:
    assert fuel_costs.asked(request_text) is None
