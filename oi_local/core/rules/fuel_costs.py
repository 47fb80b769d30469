"""Fuel costs: "My car uses 6.4 litres of petrol per 100 km. Petrol costs 1.89 per litre. How much will the
fuel cost for a 575 km trip?" The 0.5B model left a figure out twice, then multiplied the litres per 100 km by
the whole distance and answered 6955.2 (whole-suite runs). When a request names a car's use (litres per
100 km, or miles per gallon), a fuel price per litre (or gallon) and one trip distance, and asks the cost (or
the fuel needed), a run that failed or printed no such figure gets the loop's own code, once a turn."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code, printed_numbers

NOTE = "(That did not print the fuel {what} for {distance}."
HOW = "This block works it out; reply with it, then answer with what it prints."
_N = r"(\d+(?:\.\d+)?)"
PER_100 = re.compile(rf"{_N}\s*(?:l|litres?|liters?)\s*(?:of\s+\w+\s+)?(?:per|/|every|each|a|an)\s*100\s*(?:km|kilomet\w*)\b", re.I)
MPG = re.compile(rf"{_N}\s*(?:mpg|miles?\s+(?:per|to\s+the|a|/)\s*gallon)\b", re.I)
PRICE = re.compile(rf"(?:[$£€]\s*)?{_N}\s*(?:[$£€]|dollars?|euros?|pounds?|eur|usd|gbp)?\s*(?:per|/|a|an|for\s+(?:a|one|each))\s*"
                   r"(litre|liter|l|gallon|gal)\b", re.I)
DISTANCE = re.compile(rf"(?<![\w.]){_N}\s*(km|kilomet\w*|miles?|mi)\b(?!\s*(?:per|/|to\s+the|a)\s*(?:gallon|litre|liter|l)\b)", re.I)
ASKED = re.compile(r"\b(?:how\s+much|cost\w*|price|spend|pay)\b", re.I)


def asked(request: str) -> dict[str, Any] | None:
    words = instruction(request)
    use, mpg = PER_100.findall(words), MPG.findall(words)
    prices = PRICE.findall(words)
    taken = [m.span() for p in (PER_100, MPG) for m in p.finditer(words)]
    trips = [(float(m.group(1)), m.group(2).lower()) for m in DISTANCE.finditer(words)
             if not any(a <= m.start() < b for a, b in taken) and m.group(1) != "100"]
    if len(use) + len(mpg) != 1 or len(prices) != 1 or len(trips) != 1 or not ASKED.search(words):
        return None
    price, per = float(prices[0][0]), prices[0][1].lower()
    km = trips[0][0] * (1.609344 if trips[0][1].startswith("mi") else 1)
    return {"km": km, "trip": f"{trips[0][0]:g} {trips[0][1]}", "use": float(use[0]) if use else None,
            "mpg": float(mpg[0]) if mpg else None, "price": price, "per": "gallon" if per.startswith("gal") else "litre",
            "miles": trips[0][1].startswith("mi"), "distance": trips[0][0]}


def ready_code(found: dict[str, Any]) -> str:
    if found["use"] is not None:
        lines = [f"km = {found['km']!r}" + ("  # the miles in km" if found["miles"] else ""),
                 f"litres = km / 100 * {found['use']!r}  # {found['use']:g} litres every 100 km"]
        if found["per"] == "gallon":
            lines.append("gallons = litres / 3.785411784  # US gallons")
            lines.append(f"cost = gallons * {found['price']!r}")
            lines.append("print(f'{litres:.2f} litres ({gallons:.2f} gallons), costing {cost:.2f}')")
        else:
            lines.append(f"cost = litres * {found['price']!r}")
            lines.append("print(f'{litres:.2f} litres, costing {cost:.2f}')")
        return "\n".join(lines)
    miles = f"{found['distance']!r}" if found["miles"] else f"{found['km']!r} / 1.609344  # km in miles"
    lines = [f"miles = {miles}", f"gallons = miles / {found['mpg']!r}  # {found['mpg']:g} miles per gallon"]
    if found["per"] == "gallon":
        lines.append(f"cost = gallons * {found['price']!r}")
        lines.append("print(f'{gallons:.2f} gallons, costing {cost:.2f}')")
    else:
        lines += ["litres = gallons * 3.785411784  # US gallons", f"cost = litres * {found['price']!r}",
                  "print(f'{gallons:.2f} gallons ({litres:.2f} litres), costing {cost:.2f}')"]
    return "\n".join(lines)


def cost(found: dict[str, Any]) -> float:
    """The trip's fuel cost, worked out as ready_code does."""
    if found["use"] is not None:
        litres = found["km"] / 100 * found["use"]
        return litres * found["price"] if found["per"] == "litre" else litres / 3.785411784 * found["price"]
    miles = found["distance"] if found["miles"] else found["km"] / 1.609344
    gallons = miles / found["mpg"]
    return gallons * found["price"] if found["per"] == "gallon" else gallons * 3.785411784 * found["price"]


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["fuel costs"]:
        return None
    found = asked(turn.request)
    if found is None:
        return None
    want = cost(found)
    printed = printed_numbers(last.output)
    if not last.failed and any(abs(p - want) < 0.0051 + want * 0.001 for p in printed):
        return None
    turn.counts["fuel costs"] += 1
    return own_code(turn.engine, NOTE.format(what="cost", distance=found["trip"]), ready_code(found), HOW)


rule = Rule(
    name="fuel costs", setting="check_answers", after_run=after_run,
    summary="a request that names a car's use (litres per 100 km, or miles per gallon), a fuel price per litre or gallon "
            "and one trip distance, asking the cost: a run that failed or printed no such figure gets the loop's own code "
            "that works it out (once a turn)")
