"""Kept values: asked to turn off the email notifications in a named JSON file and change its language,
the 0.5B model set every key it saw in the file's preview, `settings["theme"] = "dark"` and a whole
`settings["notifications"] = {...}` with push turned off too, and saved it (ho45). Code that loads the
request's JSON file, writes it back, and sets literal values by key has each setting the request does
not speak of left as it is in the file: the assignments are made again with only the asked changes
(`settings["notifications"]["email"] = False`) before the code runs, and the person is told. A value is
asked for when the request says its key's words or the value itself, or says a key above it and none of
the keys beside it ("turn off all notifications"). Left alone when nothing asked is changed (the request's
words may name the setting otherwise) and when the request asks to add or reset."""
from __future__ import annotations

import ast
import re
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.json_keys import _words, edited
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {kept} left as {file} has them (the request does not ask to change them)."
_BROAD = re.compile(r"\b(?:add|new|insert|create|reset|default|defaults|all\s+(?:the\s+)?settings)\b", re.I)
_MISSING = object()
Path_ = tuple[str, ...]


def _chain(target: ast.expr) -> tuple[str, Path_] | None:
    """`s["a"]["b"]` as ("s", ("a", "b")): string keys on a plain name only."""
    keys: list[str] = []
    while isinstance(target, ast.Subscript):
        if not (isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str)):
            return None
        keys.append(target.slice.value)
        target = target.value
    return (target.id, tuple(reversed(keys))) if isinstance(target, ast.Name) and keys else None


def _at(doc: Any, path: Path_) -> Any:
    for k in path:
        if not isinstance(doc, dict) or k not in doc:
            return _MISSING
        doc = doc[k]
    return doc


def _changes(path: Path_, old: Any, new: Any) -> list[tuple[Path_, Any]]:
    """The leaves `new` changes under `path` ((path, value); a key `new` leaves out is a change to _MISSING)."""
    if isinstance(old, dict) and isinstance(new, dict):
        found: list[tuple[Path_, Any]] = []
        for k in dict.fromkeys([*old, *new]):
            found += _changes((*path, k), old.get(k, _MISSING), new.get(k, _MISSING))
        return found
    return [] if old == new and type(old) is type(new) else [(path, new)]


def _said(value: Any, request: str) -> bool:
    if isinstance(value, bool) or value is None or value is _MISSING:
        return False
    text = str(value).strip().lower()
    return len(text) > 1 and re.search(rf"(?<![\w.]){re.escape(text)}(?![\w])", request.lower()) is not None


def _asked(path: Path_, value: Any, doc: dict[str, Any], words: set[str], request: str) -> bool:
    if _words(path[-1]) & words or _said(value, request):
        return True
    siblings = _at(doc, path[:-1])
    beside = [k for k in siblings if k != path[-1]] if isinstance(siblings, dict) else []
    return any(_words(k) & words for k in path[:-1]) and not any(_words(k) & words for k in beside)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "dump" not in block.code or _BROAD.search(turn.request):
        return None
    found = edited(block.code, turn.request)
    if found is None:
        return None
    tree, file, doc = found
    words = _words(turn.request)
    lines = block.code.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []  # (first line, last line, new text)
    kept: list[str] = []
    asked_any = False
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        named = _chain(node.targets[0])
        end = node.end_lineno or node.lineno
        if named is None or lines[node.lineno - 1][:node.col_offset].strip() \
                or lines[end - 1].encode()[node.end_col_offset or 0:].decode(errors="replace").strip():
            continue  # not a statement of its own lines (`a = 1; b = 2`)
        try:
            new = ast.literal_eval(node.value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        old = _at(doc, named[1])
        if old is _MISSING:
            continue  # a new key: json keys' concern
        changes = _changes(named[1], old, new)
        asked = [(p, v) for p, v in changes if _asked(p, v, doc, words, turn.request)]
        unasked = [p for p, v in changes if (p, v) not in asked]
        asked_any = asked_any or bool(asked)
        if not unasked:
            continue
        kept += [" → ".join(p) for p in unasked]
        line = lines[node.lineno - 1]
        pad = line[:len(line) - len(line.lstrip())]
        text = "".join(f"{pad}{named[0]}{''.join(f'[{k!r}]' for k in p)} = {v!r}\n" for p, v in asked if v is not _MISSING)
        edits.append((node.lineno, end, text or (f"{pad}pass\n" if pad else "")))
    if not edits or not asked_any:
        return None
    for first, last, text in sorted(edits, reverse=True):
        lines[first - 1:last] = [text]
    block.message["content"] = "".join(lines)
    return Verdict(warning=NOTE.format(kept=", ".join(kept[:8]), file=file))


rule = Rule(
    name="kept values", setting="correct_paths", check=check,
    summary="code that loads the request's JSON file, writes it back and sets values the request does not speak of "
            "(every key of the preview, a whole nested object) has only the asked changes made, the others left as "
            "the file has them, before it runs, and the person is told")
