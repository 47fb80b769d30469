"""Switched keys: asked to "switch the frost alerts on" in settings.json, the 0.5B model wrote every
setting out again as the file's preview showed them, `"frost": False` among them, and said done (ho48,
read after that set's end). When the request asks to switch on (or off) something that the JSON file
it names holds as a true/false value, and the code writes the opposite value to that key, the value is
written as asked before the code runs, and the person is told."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: {changes} (the request switches {them} {how})."
_ON = re.compile(r"\b(?:on|enabled?|enabling|activat\w*|true|yes)\b", re.I)
_OFF = re.compile(r"\b(?:off|disabled?|disabling|deactivat\w*|false|no longer|stop)\b", re.I)
_CLAUSES = re.compile(r"[,;.!?]|\band\b|\bbut\b|\bthen\b", re.I)


def _switches(obj: Any) -> set[str]:
    """The keys, at any depth, that hold true or false."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, bool):
                found.add(str(k))
            found |= _switches(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= _switches(v)
    return found


# words a switch's key often starts with that a request leaves out ("the sunrise" for show_sunrise)
_GENERIC = {"show", "enable", "enabled", "use", "allow", "display", "has", "send", "auto", "notify"}


def _key_words(key: str) -> list[str]:
    words = [w.lower() for w in re.findall(r"[A-Za-z][a-z]*|[A-Z]+(?![a-z])", key) if len(w) > 2]
    return [w for w in words if w not in _GENERIC] or words


def asked(request: str, cwd: Path) -> dict[str, bool]:
    """{key: value} for each true/false key of the named JSON file that a clause of the request switches on or off."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() == ".json"]
    if len(files) != 1:
        return {}
    try:
        keys = _switches(json.loads(files[0].read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}
    found: dict[str, bool] = {}
    for clause in _CLAUSES.split(words):
        on, off = bool(_ON.search(clause)), bool(_OFF.search(clause))
        if on == off:
            continue
        for key in keys:
            kw = _key_words(key)
            if kw and all(re.search(rf"\b{re.escape(w)}", clause, re.I) for w in kw):
                found[key] = on
    return found


def _opposites(code: str, wanted: dict[str, bool]) -> list[tuple[int, int, int, str, str]]:
    """(line, start, end, new text, key) for each literal true/false the code writes to a switched key the other way."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    spots: list[tuple[str, ast.AST]] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Dict):
            spots += [(k.value, v) for k, v in zip(n.keys, n.values) if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Subscript):
            sub = n.targets[0].slice
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                spots.append((sub.value, n.value))
    edits = []
    for key, value in spots:
        if (key in wanted and isinstance(value, ast.Constant) and isinstance(value.value, bool)
                and value.value != wanted[key] and value.lineno == value.end_lineno):
            edits.append((value.lineno, value.col_offset, value.end_col_offset or 0, str(wanted[key]), key))
    return edits


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or ".json" not in turn.request or not re.search(r"\b(?:True|False)\b", block.code):
        return None
    wanted = asked(turn.request, Path.cwd())
    edits = _opposites(block.code, wanted) if wanted else []
    if not edits:
        return None
    block.message["content"] = rewrite(block.code, [e[:4] for e in edits])
    keys = list(dict.fromkeys(e[4] for e in edits))
    changes = "; ".join(f"{k!r} is written {wanted[k]}" for k in keys)
    how = "on" if all(wanted[k] for k in keys) else "off" if not any(wanted[k] for k in keys) else "as said"
    return Verdict(warning=NOTE.format(changes=changes, them="it" if len(keys) == 1 else "them", how=how))


rule = Rule(
    name="switched keys", setting="repair_slips", check=check,
    summary="asked to switch on (or off) something the named JSON file holds as true or false (\"switch the frost "
            "alerts on\"), code that writes the opposite value to that key has it written as asked before it runs; the "
            "person is told")
