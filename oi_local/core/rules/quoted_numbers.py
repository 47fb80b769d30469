"""Quoted numbers: `row["qty"] > "5"` orders text letter by letter, so "40" comes before "5" and
the test is wrong without an error. The 0.5B model wrote it and kept it in a script it was asked to
fix (ho33-fix-low-stock: no item came out). An order (<, >, <=, >=) taken between a value and a
number in quotes is taken between numbers, `float(row["qty"]) > 5`, before the code runs, and the
person is told; a script a request names shows it among its problems (core/pycheck.py)."""
from __future__ import annotations

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {changes} (a number in quotes is compared as text: \"40\" < \"5\")."


def _numbers(code: str) -> tuple[str, list[str]]:
    from oi_local.core.pycheck import text_compares

    found = text_compares(code)
    lines = code.splitlines(keepends=True)
    for lineno, old, new in found:
        lines[lineno - 1] = lines[lineno - 1].replace(old, new, 1)
    return "".join(lines), [f"{old} became {new}" for _, old, new in found]


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.broken_scripts import with_text, written_texts

    if block.lang != "python":
        return None
    code, changes = _numbers(block.code)
    for path, text in written_texts(code) if not changes else []:  # the text of a script the code writes
        new, made = _numbers(text) if path.endswith(".py") else (text, [])
        whole = with_text(code, text, new) if made else None
        if whole is not None:
            code, changes = whole, changes + [f"{c} in {path}" for c in made]
    if not changes:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="quoted numbers", setting="repair_slips", check=check,
    summary="an order taken between a value and a number in quotes (`row[\"qty\"] > \"5\"`, which compares text letter "
            "by letter) is taken between numbers, `float(row[\"qty\"]) > 5`, before the code runs, and the person is "
            "told; a script the request names shows it among its problems")
