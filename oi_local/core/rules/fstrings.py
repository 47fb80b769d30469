"""F-strings: Python before 3.12 does not allow an f-string's own quote, nor a backslash, inside its
braces (`f"{p.name.split("-")[0]}"`, `f"{'\\n'.join(lines)}"`); the 0.5B model writes both, as 3.12
does, and the run fails with "SyntaxError: f-string: unmatched '('" (13 code blocks in the recorded
runs of sessions 23-28; 9 of them compile so changed). The same code with the other quote inside the braces, and a lone
"\\n" or "\\t" written chr(10) or chr(9), means the same and runs; it is made so before it runs,
only when the code does not compile as written and does after."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: the quotes inside an f-string's braces (this Python allows no others there)."
_START = re.compile(r"(?<![\w'\"])[rRbBuU]?[fF][rR]?(['\"])")
_ESCAPES = {"\\n": "chr(10)", "\\t": "chr(9)", "\\r": "chr(13)"}


def _inner(text: str, at: int, quote: str) -> tuple[int, str] | None:
    """The string literal starting at `at` inside braces: (index after it, text to write for it)."""
    end = text.find(quote, at + 1)
    if end < 0 or "\n" in text[at:end]:
        return None
    body = text[at + 1:end]
    if "\\" in body:
        return (end + 1, _ESCAPES[body]) if body in _ESCAPES else None
    return end + 1, body


def _fstring(text: str, at: int, quote: str) -> tuple[int, str] | None:
    """The f-string whose quote is at `at`: (index after it, its text with the braces' strings requoted)."""
    other = "'" if quote == '"' else '"'
    out, i, depth = [quote], at + 1, 0
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            return None
        if depth == 0:
            if ch == "\\":
                out.append(text[i:i + 2])
                i += 2
                continue
            if ch == quote:
                return i + 1, "".join(out) + quote
            if ch == "{" and text[i + 1:i + 2] != "{":
                depth = 1
            elif ch == "{":
                out.append(ch)
                i += 1
            out.append(ch)
            i += 1
            continue
        if ch in "'\"":
            lit = _inner(text, i, ch)
            if lit is None:
                return None
            i, body = lit
            if body in _ESCAPES.values():
                out.append(body)
            elif other in body:
                return None
            else:
                out.append(other + body + other)
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        out.append(ch)
        i += 1
    return None


def requoted(code: str) -> str:
    """`code` with each one-line f-string's inner strings in the other quote (the same code if none)."""
    out, i = [], 0
    for m in _START.finditer(code):
        if m.start() < i or code[m.end(1):m.end(1) + 2] == m.group(1) * 2:  # inside one already; or triple quoted
            continue
        found = _fstring(code, m.end(1) - 1, m.group(1))
        if found is None:
            continue
        end, text = found
        out += [code[i:m.end(1) - 1], text]
        i = end
    return "".join(out) + code[i:]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "f" not in block.code:
        return None
    try:
        compile(block.code, "<code>", "exec")
        return None
    except SyntaxError as e:
        if "f-string" not in str(e.msg):
            return None
    except ValueError:
        return None
    new = requoted(block.code)
    try:
        compile(new, "<code>", "exec")
    except (SyntaxError, ValueError):
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE)


rule = Rule(
    name="f-strings", setting="repair_slips", check=check,
    summary="an f-string with its own quote or a \\n inside its braces (`f\"{s.split(\"-\")[0]}\"`), which Python "
            "before 3.12 cannot compile, has the other quote there (and chr(10) for a lone \\n) before it runs")
