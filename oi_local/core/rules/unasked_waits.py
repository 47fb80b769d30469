"""Unasked waits: asked when a pasted server log first ran out of disk space, the 0.5B model wrote a
`while` loop that slept a second a time for up to 1,800 s (the task's 240 s ran out), and another time
`for _ in range(100): time.sleep(1)`, which waited 100 s and printed how long it took (ho54, session 55).
Code whose sleeps add up to more than a few seconds (a sleep inside a `while` loop counts as endless), for
a request that says nothing of waiting, timing or repeating, is not run; the model is told what it would
wait (twice a turn at most). A short sleep (a retry's pause, a second between two reads) runs."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_again, instruction

LIMIT = 5.0  # seconds of sleeping a request that never asked to wait may take
TRIES = 2
NOTE = ("Not run: this code waits {wait} (`{call}`), and nothing asked to wait. Write code that reads the data "
        "once and prints the answer at once, with no sleep.")
# Words of waiting or timing in the person's own words. Not "server", "minutes", "slowest" or "later":
# "the server log", "how many minutes was it down", "the slowest request" ask about data, not for a wait.
_ASKED = re.compile(r"\b(?:wait\w*|sleep\w*|paus\w*|delay\w*|timers?|countdown|count\s+down|repeat\w*|"
                    r"every\s+(?:a|an|one|\d+(?:\.\d+)?)?\s*(?:second|minute|hour|day)s?|"
                    r"(?:for|after|in)\s+(?:a|an|one|a\s+few|\d+(?:\.\d+)?)\s*(?:more\s+)?(?:second|minute|hour)s?|"
                    r"again\s+and\s+again|poll\w*|monitor\w*|watch\w*|keep\s+\w+ing|rate\s+limit\w*|"
                    r"throttl\w*|schedul\w*|remind\w*|alarm|stopwatch|animat\w*|blink\w*|progress\s+bar|forever|"
                    r"until\s+i)\b", re.I)
_SLEEPS = ("time.sleep", "sleep", "asyncio.sleep")
_SHELL_SLEEP = re.compile(r"(?m)(?:^|[;&|]\s*|\bdo\s+)sleep\s+(\d+(?:\.\d+)?)([smh]?)\b")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600}
_ENDLESS = float("inf")


def _seconds(call: ast.Call) -> float:
    """What one sleep call waits: its number, or a second when it is a name (its value is not known here)."""
    arg = call.args[0] if call.args else None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float)) and not isinstance(arg.value, bool):
        return float(arg.value)
    return 1.0


def _times(loop: ast.AST) -> float:
    """How often a loop's body runs: a `range(n)`'s n, endless for a `while`, else ten (a list of things)."""
    if isinstance(loop, ast.While):
        return _ENDLESS
    it = getattr(loop, "iter", None)
    if isinstance(it, ast.Call) and ast.unparse(it.func) == "range":
        ends = [a.value for a in it.args if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        if ends and len(ends) == len(it.args):
            return float(len(range(*ends)))
    return 10.0


def _python_wait(code: str) -> tuple[float, str]:
    """The seconds `code`'s sleeps add up to (at most as the code says: a sleep in a `while` is endless), and
    the longest one's text."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return 0.0, ""
    total, worst, call_text = 0.0, 0.0, ""

    def walk(node: ast.AST, times: float) -> None:
        nonlocal total, worst, call_text
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _called(tree, node.name):
            return
        if isinstance(node, ast.Call) and ast.unparse(node.func) in _SLEEPS:
            wait = times * _seconds(node)
            total += wait
            if wait >= worst:
                worst, call_text = wait, ast.unparse(node)
        for child in ast.iter_child_nodes(node):
            inner = times * _times(node) if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) \
                and child in getattr(node, "body", []) else times
            walk(child, inner)

    walk(tree, 1.0)
    return total, call_text


def _called(tree: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name for n in ast.walk(tree))


def _shell_wait(code: str) -> tuple[float, str]:
    """A shell block's `sleep N`s added up; a sleep inside a `while` loop is endless."""
    total, call_text = 0.0, ""
    for m in _SHELL_SLEEP.finditer(code):
        total += float(m.group(1)) * _UNITS[m.group(2)]
        call_text = f"sleep {m.group(1)}{m.group(2)}"
    if call_text and re.search(r"\bwhile\b", code):
        total = _ENDLESS
    return total, call_text


def _said(seconds: float) -> str:
    if seconds == _ENDLESS:
        return "without end"
    return f"about {seconds:.0f} seconds" if seconds < 120 else f"about {seconds / 60:.0f} minutes"


def check(turn: Turn, block: Block) -> Verdict | None:
    if "sleep" not in block.code or turn.counts["unasked waits"] >= TRIES or _ASKED.search(instruction(turn.request)):
        return None
    if block.lang == "python":
        wait, call = _python_wait(block.code)
    elif block.lang in ("shell", "bash", "sh", "zsh"):
        wait, call = _shell_wait(block.code)
    else:
        return None
    if wait <= LIMIT:
        return None
    turn.counts["unasked waits"] += 1
    note = NOTE.format(wait=_said(wait), call=call)
    return Verdict(note=note, ask=code_again(turn.engine, note, 63))


rule = Rule(
    name="unasked waits", setting="repair_slips", check=check,
    summary="code whose sleeps add up to more than five seconds (a sleep in a `while` loop counts as endless), for a "
            "request that says nothing of waiting, timing or repeating, is not run; the model is told what it would "
            "wait (twice a turn at most)")
