"""Stale numbers: in a chat that keeps a log ("start runs.txt with my runs: 32, 41, 28, 55 and 37 minutes", then
"I ran another 46 today, add it. How many minutes in total now?"), the 0.5B model appended 46 and then summed
the first turn's list typed into the code, `sum([32, 41, 28, 55, 37])`, and answered 193 for 239; asked the
average next, it typed the same five numbers again (ho5-multi-running-log, failing in every whole-suite run
since). Numbers typed into the code that are all in a file the chat has named, while the file now holds more
of them, are an old copy of its data: such code is not run and the request is asked afresh once (sampled, the
try hidden), naming the file to read. So is a follow-up asking for an amount ("And how long was my average run?")
whose code reads nothing and works only from numbers typed in (`total = 239; average = total / 1`, the same
chat's third turn): it is asked to read the file the chat has been keeping."""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

NOTE = ("(Write one ```python block that does what I asked: read {path} and compute it from every number it holds "
        "now ({count} of them). A first try typed in {typed} of them from earlier in our chat, and the file has changed since.)")
SHOWN = "Not run: the code types in {typed} numbers from earlier in the chat, and {path} now holds {count}; asked afresh to read it."
UNREAD_NOTE = ("(Write one ```python block that does what I asked: read {path}, the file we have been keeping, and "
               "compute it from every number it holds now. A first try only worked from numbers typed in.)")
UNREAD = "Not run: the code works only from numbers typed in, and {path} holds the data; asked afresh to read it."
_AMOUNT = re.compile(r"\b(?:average|mean|median|total|sum|how\s+(?:many|much|long)|most|least|longest|shortest|"
                     r"highest|lowest|biggest|smallest)\b", re.I)
MIN_TYPED = 3  # fewer typed-in numbers are constants (a rate, a count), not a copy of the data
MAX_BYTES = 200_000
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*[A-Za-z_])")
_FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:txt|csv|tsv|log|md|json|dat))(?![\w/-])", re.I)


def typed_lists(code: str) -> list[list[float]]:
    """The lists (or tuples, sets) of MIN_TYPED or more number constants the code holds."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and len(node.elts) >= MIN_TYPED:
            values = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, (int, float))
                      and not isinstance(e.value, bool)]
            steps = {b - a for a, b in zip(values, values[1:])}
            if len(values) == len(node.elts) and steps != {1}:  # [1, 2, 3]: positions or a range, not data
                found.append([float(v) for v in values])
    return found


def _numbers(path: Path) -> list[float]:
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [float(n) for n in _NUMBER.findall(text)]


def stale(turn: Turn, code: str) -> tuple[str, int, int] | None:
    """(file, numbers typed, numbers the file holds) when the code types in an old copy of a named file's numbers."""
    lists = typed_lists(code)
    if not lists:
        return None
    asked = " ".join(str(m.get("content", "")) for m in turn.engine.messages if m.get("role") == "user")
    cwd = Path.cwd()
    for name in dict.fromkeys(_FILE.findall(asked)):
        held = Counter(_numbers(cwd / name))
        for typed in lists:
            if held and not Counter(typed) - held and sum(held.values()) > len(typed):
                return name, len(typed), sum(held.values())
    return None


def typed_only(code: str) -> bool:
    """The code uses only numbers typed into it: every name it reads it sets itself (or is a builtin), it opens
    nothing, and it holds a number."""
    import builtins

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if loaded - stored - set(dir(builtins)) or "open" in loaded or any(isinstance(n, (ast.Import, ast.ImportFrom))
                                                                       for n in ast.walk(tree)):
        return False
    return any(isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)
               for n in ast.walk(tree))


def _kept_file(turn: Turn) -> str | None:
    """The one data file the chat's earlier requests named that is here, when the newest names none."""
    if _FILE.search(turn.request):
        return None
    asked = " ".join(str(m.get("content", "")) for m in turn.engine.messages if m.get("role") == "user")
    names = [n for n in dict.fromkeys(_FILE.findall(asked)) if _numbers(Path.cwd() / n)]
    return names[0] if len(names) == 1 else None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["stale numbers"]:
        return None
    if sum(1 for m in turn.engine.messages if m.get("role") == "user" and m.get("type") == "message") < 2:
        return None  # a first request: numbers typed from it are the data, not a copy
    found = stale(turn, block.code)
    if found is None:
        kept = _kept_file(turn) if _AMOUNT.search(turn.request) and typed_only(block.code) else None
        if kept is None:
            return None
        turn.counts["stale numbers"] += 1
        return Verdict(note=UNREAD.format(path=kept), ask=Ask(UNREAD_NOTE.format(path=kept), code_retry(turn.engine, 17), hide=True))
    path, typed, count = found
    turn.counts["stale numbers"] += 1
    return Verdict(note=SHOWN.format(typed=typed, path=path, count=count),
                   ask=Ask(NOTE.format(path=path, typed=typed, count=count), code_retry(turn.engine, 17), hide=True))


rule = Rule(
    name="stale numbers", setting="repair_slips", check=check,
    summary="in a later request of a chat, code that types in three or more numbers that are all in a file the chat "
            "has named, while that file now holds more numbers, is not run (an old copy of its data); the request is "
            "asked afresh once, naming the file to read; so is a follow-up asking an amount whose code works only from "
            "numbers typed in while one data file the chat named is here")
