"""JSON keys: asked to change "the night temp" in thermostat.json, whose night temperature is at
schedule → night → temp, the 0.5B model wrote `settings["night_temp"] = 17.5`: a new top-level key,
saved without an error, the real setting unchanged. Code that sets a key the named JSON file does not
have at its top level, when the file has exactly one nested key path whose words hold the key's words,
has the path put in its place before it runs (`settings["schedule"]["night"]["temp"] = 17.5`), and the
person is told; with several such paths the code is not run and the model is told them (once a turn).
A key the request asks to add is left alone."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {old} → {new} ({file} has no key {key!r} at its top level; the value is at {path})."
CHOOSE = ("Not run: {file} has no key {key!r} at its top level (its keys: {keys}), so this would add a new key and "
          "change nothing that is there. The values whose keys fit are at: {paths}. Set the one the request means.")
ADDS = re.compile(r"\b(?:add|new|insert|create|extra)\b", re.I)
_OPEN = re.compile(r"open\(\s*['\"]([^'\"]+\.json)['\"]")


def _paths(obj: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key path to a value that is not an object, under objects only (lists are left alone)."""
    found: list[tuple[str, ...]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            found += _paths(v, (*prefix, str(k))) if isinstance(v, dict) else [(*prefix, str(k))]
    return found


def _words(text: str) -> set[str]:
    from oi_local.core.rules.asked_column import _tokens

    return _tokens(text)


def fitting(doc: dict[str, Any], key: str) -> list[tuple[str, ...]]:
    """Nested key paths (two keys or more) whose words hold all of `key`'s words."""
    want = _words(key)
    return [p for p in _paths(doc) if len(p) > 1 and want and want <= _words(" ".join(p))]


def _file(code: str, request: str) -> tuple[str, dict[str, Any]] | None:
    names = [n for n in dict.fromkeys(_OPEN.findall(code)) if n in request or Path(n).name in request]
    if len(names) != 1:
        return None
    try:
        doc = json.loads(Path(names[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return (names[0], doc) if isinstance(doc, dict) else None


def _new_keys(tree: ast.AST, doc: dict[str, Any]) -> list[ast.Subscript]:
    """`x["key"]` targets of assignments whose key is not at the file's top level (x a plain name)."""
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        for t in targets:
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and isinstance(t.slice, ast.Constant) \
                    and isinstance(t.slice.value, str) and t.slice.value not in doc and t.lineno == t.end_lineno:
                found.append(t)
    return found


def edited(code: str, request: str) -> tuple[ast.Module, str, dict[str, Any]] | None:
    """(the code's tree, the JSON file it opens that the request names, that file's object), when there is one."""
    if ".json" not in code:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = _file(code, request)
    return (tree, *found) if found else None


def check(turn: Turn, block: Block) -> Verdict | None:
    found = edited(block.code, turn.request) if block.lang == "python" and not ADDS.search(turn.request) else None
    if found is None:
        return None
    tree, file, doc = found
    edits, told = [], []
    for target in _new_keys(tree, doc):
        key, owner = str(getattr(target.slice, "value", "")), getattr(target.value, "id", "")
        paths = fitting(doc, key)
        if len(paths) == 1:
            new = owner + "".join(f"[{k!r}]" for k in paths[0])
            edits.append((target.lineno, target.col_offset, target.end_col_offset or 0, new))
            told.append(NOTE.format(old=ast.unparse(target), new=new, file=file, key=key, path=" → ".join(paths[0])))
        elif len(paths) > 1 and not turn.counts["json keys"]:
            turn.counts["json keys"] += 1
            return Verdict(note=CHOOSE.format(file=file, key=key, keys=", ".join(list(doc)[:12]),
                                              paths="; ".join(" → ".join(p) for p in paths[:6])), again=True)
    if not edits:
        return None
    block.message["content"] = rewrite(block.code, edits)
    return Verdict(warning=" ".join(told))


rule = Rule(
    name="json keys", setting="correct_paths", check=check,
    summary="code that sets a key the named JSON file does not have at its top level (`s[\"night_temp\"] = 17.5` for "
            "schedule → night → temp) has the one nested key path whose words hold the key's words put in its place "
            "before it runs, and the person is told; with several such paths it is not run and the model is told "
            "them; a key the request asks to add is left alone")
