"""Line items: asked "Which product made us the most money in orders.json? Ignore the cancelled orders. Tell me how
much it brought in." of orders that each hold a list of items (product, qty, unit_price), the 0.5B model took the
largest unit price of the first order, then looped over the object's keys, then summed every order (ho42): five
tries, none right. When a request asks which <thing> made the most (or least) money, or sold the most, in a JSON
file whose records each hold a list of items with a name, a quantity and a price (or an amount), code that does
not go through each record's items is not run and the model is given the code that does: each thing's money (or
units) added up over every item of every record, records with a value the request says to leave out ("ignore the
cancelled orders") left out, or only those with a value it asks for, each total printed, largest first."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from oi_local.core.records import records
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: add up each {name}'s {what} over the {items} of every record in {file}{but}."
SHOWN = "Not run: the code does not add up each {name} over the {items} of every record in {file}; asked afresh with the code that does."
_ASKS = re.compile(r"\b(?:which|what)\s+([a-z]+)\b[^.?!]*\b(?:most|least|best|top|highest|lowest|biggest)\b|"
                   r"\b(?:best|top)[\s-]+(?:selling|seller|earning)\b", re.I)
_MONEY = re.compile(r"\b(?:money|revenue|income|earn\w*|brought\s+in|brings\s+in|sales|takings|turnover|made)\b", re.I)
_UNITS = re.compile(r"\b(?:sold|sells|units|copies|pieces|quantity|how\s+many)\b", re.I)
_NAME = re.compile(r"^(?:product|name|item|title|sku|description|article|dish|book|product_name|item_name)$", re.I)
_QTY = re.compile(r"^(?:qty|quantity|count|units|amount_ordered|number|pieces)$", re.I)
_PRICE = re.compile(r"^(?:unit_?price|price|price_each|each|cost|unit_cost)$", re.I)
_AMOUNT = re.compile(r"^(?:amount|total|line_total|subtotal|revenue|value)$", re.I)
_LEAVE = re.compile(r"\b(?:ignor\w*|exclud\w*|skip\w*|leav\w*\s+out|without|not\s+(?:counting|including)|except)\s+(?:the\s+|any\s+)?"
                    r"([\w-]+)", re.I)
_ONLY = re.compile(r"\bonly\s+(?:the\s+|count\s+(?:the\s+)?)?([\w-]+)", re.I)
_JSON = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.json)\b", re.I)


def _keys(items: list[dict[str, Any]]) -> tuple[str, str | None, str | None, str | None] | None:
    """(name key, quantity key, price key, amount key) of a record's items."""
    first = items[0]
    name = next((k for k in first if _NAME.match(k) and isinstance(first[k], str)), None)
    number = [k for k, v in first.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    qty = next((k for k in number if _QTY.match(k)), None)
    price = next((k for k in number if _PRICE.match(k)), None)
    amount = next((k for k in number if _AMOUNT.match(k)), None)
    return (name, qty, price, amount) if name else None


def _value_field(records: list[dict[str, Any]], value: str) -> str | None:
    """The field of the records that holds `value` ("cancelled" is a status), matched without case or plural s."""
    want = value.lower().rstrip("s")
    for r in records:
        for k, v in r.items():
            if isinstance(v, str) and v.lower().rstrip("s") == want:
                return k
    return None


def asked(request: str, cwd: Path) -> dict[str, Any] | None:
    words = instruction(request)
    m = _ASKS.search(words)
    files = [f for f in dict.fromkeys(_JSON.findall(words)) if (cwd / f).is_file()]
    if m is None or len(files) != 1:
        return None
    money, units = bool(_MONEY.search(words)), bool(_UNITS.search(words))
    if money == units:
        return None  # neither or both: not one total to rank by
    rows = records(cwd / files[0]) or []
    lists = [k for k, v in (rows[0].items() if rows else []) if isinstance(v, list) and v and isinstance(v[0], dict)]
    if len(lists) != 1:
        return None
    items = lists[0]
    first = rows[0][items]
    keys = _keys(first) if isinstance(first, list) else None
    if keys is None:
        return None
    name, qty, price, amount = keys
    if (money and not (amount or (qty and price))) or (units and not qty):
        return None
    leave: list[tuple[str, str]] = []
    only: list[tuple[str, str]] = []
    for pattern, into in ((_LEAVE, leave), (_ONLY, only)):
        for v in pattern.findall(words):
            field = _value_field(rows, v)
            if field:
                into.append((field, next(str(r[field]) for r in rows if str(r.get(field, "")).lower().rstrip("s")
                                         == v.lower().rstrip("s"))))
    return {"file": files[0], "items": items, "name": name, "qty": qty, "price": price, "amount": amount,
            "money": money, "leave": leave, "only": only, "least": bool(re.search(r"\b(?:least|lowest|fewest)\b", words, re.I))}


def ready_code(found: dict[str, Any]) -> str:
    if found["money"]:
        each = (f"item[{found['qty']!r}] * item[{found['price']!r}]" if found["qty"] and found["price"]
                else f"item[{found['amount']!r}]")
    else:
        each = f"item[{found['qty']!r}]"
    keep = [f"str(r.get({f!r})) != {v!r}" for f, v in found["leave"]] + [f"str(r.get({f!r})) == {v!r}" for f, v in found["only"]]
    lines = ["import json", "from collections import defaultdict", f"with open({found['file']!r}, encoding='utf-8') as f:",
             "    data = json.load(f)",
             "records = data if isinstance(data, list) else next(v for v in data.values() if isinstance(v, list))"]
    if keep:
        lines.append(f"records = [r for r in records if {' and '.join(keep)}]  # as the request says")
    lines += ["totals = defaultdict(float)", "for r in records:", f"    for item in r.get({found['items']!r}, []):",
              f"        totals[item[{found['name']!r}]] += {each}",
              f"ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse={not found['least']})",
              "for name, total in ranked:", "    print(f'{name}: {total:.2f}')",
              f"print('{'least' if found['least'] else 'most'}:', ranked[0][0], f'{{ranked[0][1]:.2f}}')"]
    return "\n".join(lines)


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["line items"] or block.lang != "python":
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    items, name = found["items"], found["name"]
    if re.search(rf"""\[\s*['"]{re.escape(items)}['"]\s*\]|get\(\s*['"]{re.escape(items)}['"]""", block.code) and \
            re.search(rf"""['"]{re.escape(name)}['"]""", block.code) and all(v in block.code for _, v in found["leave"] + found["only"]):
        return None  # goes through the items by name itself, and keeps out what was said
    turn.counts["line items"] += 1
    but = "".join(f", leaving out those whose {f} is {v}" for f, v in found["leave"]) + \
        "".join(f", only those whose {f} is {v}" for f, v in found["only"])
    what = "money" if found["money"] else "units"
    ask = own_code(turn.engine, NOTE.format(name=name, what=what, items=items, file=found["file"], but=but), ready_code(found))
    return Verdict(note=SHOWN.format(name=name, items=items, file=found["file"]), ask=ask)


rule = Rule(
    name="line items", setting="repair_slips", check=check,
    summary="asked which thing made the most (or least) money, or sold the most, in a JSON file whose records hold lists "
            "of items (a name, a quantity and a price, or an amount), code that does not go through each record's items "
            "is not run; the model is given the code that adds each thing up over every item, leaving out records the "
            "request says to ignore (\"the cancelled orders\") or keeping only those it names, largest first")
