"""Session values: a follow-up about the rows the last answer picked ("can you put their email
addresses into active_emails.txt?" after "how many members are active?") can use what the earlier
code left in the Python session. The 0.5B model wrote `for email in members.csv:` (ho43's two-turn
task), then three more broken tries, while `active_members` held the eight rows. Such a request (it
says "their", "them", "those", "these" or "they", and names no other file to read) goes to the model
with the earlier code's assignment of each value that code printed: `active_members = [r for r in ...]`.
Only values the earlier turn's last clean run made and printed; never stored."""
from __future__ import annotations

import ast
import re
from typing import Any

from oi_local.core.rules.base import Addition, Rule

HINT = "(The Python session still has {what} from the code before: {lines}. The code can use {it}.)"
MAX_LINE = 160
MAX_REQUEST = 240  # characters: a longer request says what it wants itself
_GROUP = re.compile(r"\b(?:their|them|those|these|they)\b", re.I)


def _turns(messages: list[Any]) -> tuple[int, int] | None:
    """Where the turn before the newest request starts and ends."""
    asks = [i for i, m in enumerate(messages) if m["role"] == "user" and m["type"] == "message"]
    return (asks[-2], asks[-1]) if len(asks) >= 2 else None


def _last_clean_code(messages: list[Any], start: int, end: int) -> str | None:
    """The last Python block of messages[start:end] whose run printed no error."""
    for i in range(end - 1, start, -1):
        m = messages[i]
        if m["role"] != "assistant" or m["type"] != "code" or (m.get("format") or "python") != "python":
            continue
        out = next((str(o.get("content", "")) for o in messages[i + 1:end] if o["role"] == "computer"), "")
        if "Traceback (most recent call last)" in out or "(exit code" in out or out.startswith("Not run"):
            continue
        return str(m.get("content", ""))
    return None


def printed_values(code: str) -> list[str]:
    """The lines that assign a value the code then prints (`x = ...` at any depth, x inside a print)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    printed = {n.id for call in ast.walk(tree) if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "print"
               for n in ast.walk(call) if isinstance(n, ast.Name)}
    lines = code.splitlines()
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id in printed and node.lineno == node.end_lineno:
            if isinstance(node.value, (ast.Constant, ast.Name)):
                continue  # a number typed in or another name: nothing the follow-up needs
            line = lines[node.lineno - 1].strip()
            if len(line) <= MAX_LINE:
                found[node.targets[0].id] = line
    return list(found.values())


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    from pathlib import Path

    from oi_local.core.hints import mentioned_paths

    if len(request) > MAX_REQUEST or not _GROUP.search(request):
        return None
    messages = list(getattr(engine, "messages", None) or [])
    where = _turns(messages)
    code = _last_clean_code(messages, *where) if where else None
    if not code:
        return None
    try:
        if mentioned_paths(request, Path.cwd()):
            return None  # it names a file there: that file is the data
    except OSError:
        return None
    lines = printed_values(code)[:3]
    if not lines:
        return None
    names = [ln.split("=", 1)[0].strip() for ln in lines]
    return Addition(hint=HINT.format(what=" and ".join(names), lines="; ".join(f"`{ln}`" for ln in lines),
                                     it="it" if len(lines) == 1 else "them"))


rule = Rule(
    name="session values", setting="file_hints", prompt=prompt,
    summary="a follow-up about the rows the last answer picked (\"put their emails into a file\") goes to the model "
            "with the earlier code's line that made each value it printed (still in the Python session); never stored")
