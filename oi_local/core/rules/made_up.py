"""Made-up results: code that only prints typed-in values (`print("Marlow Farm Shop")`,
`print("The plumber's number is 800-555-1234")`) computes nothing, so for a request about the
person's files its output is a guess dressed as a result. The 0.5B model writes such code when asked
for code after answering from memory, and after a run failed on a file that is not there, where the
honest answer was that it is not there. Such code is not run; the request is asked afresh once
(sampled, the try hidden), naming the file the code must read. Values the conversation's outputs
already showed are not made up (the model printing back a result it saw)."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

NOTE = ("(Write one ```python block that does what I asked: it must read {path} and compute the answer from "
        "what is in it. A first try only printed a typed-in answer. If {path} is not there, print that.)")
SHOWN = "Not run: the code only prints a typed-in answer; asked afresh to compute it from {path}."
# A file named in a request, there or not: "contacts/trades.csv", "notes.txt" (the honest answer may
# be that it is missing, which only reading it shows).
_FILE_WORD = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/-])")
_WORDS = re.compile(r"[^\W_]+")


def typed_in(code: str) -> list[str] | None:
    """The values a Python block prints when all it does is print constants (strings, numbers,
    f-strings of constants), else None: no name is read, nothing is called but print."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    values: list[str] = []
    for stmt in tree.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"):
            return None
        for node in ast.walk(call):
            if node is call or node is call.func:
                continue
            if isinstance(node, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)):
                return None
            if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) and not isinstance(node.value, bool):
                values.append(str(node.value))
    return values if values else None


def named_file(turn: Turn) -> str | None:
    """The first file the conversation's requests name (newest request first)."""
    from oi_local.core.hints import mentioned_paths

    requests = [str(m.get("content", "")) for m in turn.engine.messages
                if m.get("role") == "user" and m.get("type") == "message" and isinstance(m.get("content"), str)]
    for text in reversed(requests):
        found = [p for p in mentioned_paths(text, Path.cwd()) if p.is_file()]
        if found:
            return os.path.relpath(found[0], Path.cwd().resolve())
        m = _FILE_WORD.search(text)
        if m:
            return m.group(1)
    return None


def _seen(values: list[str], turn: Turn) -> bool:
    """Every word of the printed values was in an output already (a result printed back)."""
    outputs = " ".join(str(m.get("content", "")) for m in turn.engine.messages
                       if m.get("role") == "computer" and isinstance(m.get("content"), str)).lower()
    words = [w for v in values for w in _WORDS.findall(v.lower())]
    return bool(words) and set(words) <= set(_WORDS.findall(outputs))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["made up"] >= 1 or not turn.steps_left:
        return None
    values = typed_in(block.code)
    if values is None or _seen(values, turn):
        return None
    path = named_file(turn)
    if path is None:
        return None
    turn.counts["made up"] += 1
    return Verdict(note=SHOWN.format(path=path),
                   ask=Ask(NOTE.format(path=path), code_retry(turn.engine, 13), hide=True))


rule = Rule(
    name="made-up results", setting="computed_answers", check=check,
    summary="code that only prints typed-in values (`print(\"Marlow Farm Shop\")`) for a request that names a file "
            "is not run, unless an earlier output showed those values; the request is asked afresh once (sampled, "
            "the try hidden), told to read that file and compute the answer, or print that it is not there "
            "(small set: on)")
