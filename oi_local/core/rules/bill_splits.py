"""Bill splits: "Our restaurant bill is 186.40. We want to add a 15% tip and split the whole thing evenly
between 4 people. How much does each person pay?" The 0.5B model divided the bill alone, then printed the
tip times four (111.84), in every whole-suite run. When a request names one amount, one percentage to add
(a tip, service, tax) and a number of people to split among, and asks what each pays, a run that failed or
printed no such figure gets the loop's own code that works it out, once a turn."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code, printed_numbers

NOTE = "(That did not print what each of the {people} pays for {bill} with {percent}% added."
HOW = "This block works it out; reply with it, then answer with what each person pays."
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
          "twelve": 12}
_COUNT = r"(\d{1,3}|" + "|".join(_WORDS) + r")"
PEOPLE = re.compile(rf"\b(?:between|among|amongst|by|for|across)\s+(?:the\s+|us\s+)?{_COUNT}\s*(?:people|persons|friends|"
                    rf"of\s+us|guests|ways|diners|adults|colleagues|housemates|roommates)?\b|\b{_COUNT}\s+ways\b|"
                    rf"\b(?:there\s+(?:are|were)|we(?:'re|\s+are|\s+were)?)\s+{_COUNT}\s+(?:of\s+us|people)\b", re.I)
PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b)", re.I)
ADDED = re.compile(r"\b(?:tip|tips|tipping|gratuity|service|tax|vat)\b", re.I)
SPLIT = re.compile(r"\b(?:split\w*|divid\w*|share\w*|each|per\s+(?:person|head))\b", re.I)
_NUMBER = re.compile(r"(?<![\w.])\$?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w%]|\s*(?:%|percent|per\s+cent))")


def asked(request: str) -> dict[str, Any] | None:
    words = instruction(request)
    percents, people = PERCENT.findall(words), [g for m in PEOPLE.finditer(words) for g in m.groups() if g]
    if not (ADDED.search(words) and SPLIT.search(words)) or len(percents) != 1 or len(set(people)) != 1:
        return None
    n = _WORDS.get(people[0].lower()) or int(people[0])
    spans = [m.span() for m in PEOPLE.finditer(words)] + [m.span() for m in PERCENT.finditer(words)]
    amounts = [float(m.group(1).replace(",", "")) for m in _NUMBER.finditer(words)
               if not any(a <= m.start() < b for a, b in spans)]
    if len(amounts) != 1 or n < 2 or not amounts[0]:
        return None
    return {"bill": amounts[0], "percent": float(percents[0]), "people": n}


def ready_code(found: dict[str, Any]) -> str:
    return (f"bill = {found['bill']!r}\nadded = bill * {found['percent']!r} / 100  # the {found['percent']:g}%\n"
            f"total = bill + added\neach = total / {found['people']}\n"
            f"print(f'{found['percent']:g}% is {{added:.2f}}, the total {{total:.2f}}; each of the {found['people']} pays "
            f"{{each:.2f}}')")


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["bill splits"]:
        return None
    found = asked(turn.request)
    if found is None:
        return None
    each = found["bill"] * (1 + found["percent"] / 100) / found["people"]
    printed = printed_numbers(last.output)
    if not last.failed and any(abs(p - each) < 0.0051 for p in printed):
        return None
    turn.counts["bill splits"] += 1
    return own_code(turn.engine, NOTE.format(people=found["people"], bill=f"{found['bill']:g}", percent=f"{found['percent']:g}"),
                    ready_code(found), HOW)


rule = Rule(
    name="bill splits", setting="check_answers", after_run=after_run,
    summary="a request that names one amount, one percentage to add (a tip, service, tax) and how many people split it, "
            "asking what each pays: a run that failed or printed no such figure gets the loop's own code that works it "
            "out (once a turn)")
