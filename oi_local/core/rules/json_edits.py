"""JSON edits: "Update config.json: set the server port to 9090, switch debug off, and add bo@example.com to
the admins list. Keep everything else as it is." The 0.5B model set the port and debug, also switched both
features off, and appended ana@example.com (already there) for bo (ho50). When every part of a request is
an edit of the one JSON file it names that the loop can read (set, change, switch or bump <key> to <value>, switch <key> on or off,
enable or disable <key>, add <value> to <list>, remove <value> from <list>), each key found in the file, the
file as the turn began is kept in memory; a run that failed or left the file other than those edits of it
has the file put back as it was and gets the loop's own code that makes them, once a turn (the person is told)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "({file} was put back as it was before this request: the code left it other than asked ({why})."
HOW = "This block makes just the changes asked for; reply with it, then say what changed."
MAX_BYTES = 1_000_000
_KEY = "json edits"
_WORD = r"[\w][\w .'-]*?"
_END = r"(?=\s*(?:,|;|\.(?:\s|$)|\band\b|\bthen\b|$))"
EDITS = (
    # "bump the font size up to 14", "switch the editor theme to dark" (ho52: read as no edit, the model also
    # changed three other keys)
    ("set", re.compile(rf"\b(?:set|change|make|update|switch|turn|bump|raise|increase|lower|reduce|decrease|put)\s+"
                       rf"(?:the\s+)?(?P<key>{_WORD})\s+(?:(?:up|down)\s+)?(?:to|=|into)\s+"
                       rf"(?P<value>\"[^\"]*\"|'[^']*'|[^\s,;]+){_END}", re.I)),
    # "my new email is sam.r@fastmail.com" (ho53: not read, the model wrote an address of its own, sam.rivera@...)
    ("set", re.compile(rf"\b(?:my|our|the)\s+(?:new\s+(?P<key2>{_WORD})\s+(?:is|will\s+be)|(?P<key>{_WORD})\s+(?:is\s+now|"
                       rf"has\s+changed\s+to|changed\s+to|should\s+now\s+be))\s+(?P<value>\"[^\"]*\"|'[^']*'|[^\s,;]+){_END}", re.I)),
    ("switch", re.compile(rf"\b(?:switch|turn|set)\s+(?:the\s+)?(?P<key>{_WORD})\s+(?P<value>on|off){_END}", re.I)),
    ("switch", re.compile(rf"\b(?:switch|turn)\s+(?P<value>on|off)\s+(?:the\s+)?(?P<key>{_WORD}){_END}", re.I)),
    ("switch", re.compile(rf"\b(?P<value>enable|disable)\s+(?:the\s+)?(?P<key>{_WORD}){_END}", re.I)),
    ("add", re.compile(rf"\badd\s+(?P<value>\"[^\"]*\"|'[^']*'|[^\s,;]+)\s+(?:to|into|onto)\s+(?:(?:the|my|our)\s+)?(?P<key>{_WORD})"
                       rf"(?:\s+(?:list|array))?{_END}", re.I)),
    ("remove", re.compile(rf"\b(?:remove|delete|drop|take)\s+(?P<value>\"[^\"]*\"|'[^']*'|[^\s,;]+)\s+(?:off|out\s+of|from)\s+"
                          rf"(?:(?:the|my|our)\s+)?(?P<key>{_WORD})(?:\s+(?:list|array))?{_END}", re.I)),
)
# A value given with the one it replaces: "keep 12 monthly backups instead of 6" (ho59, session 60's start: the model
# set retention to a flat 12 and changed two other keys), "change the monthly backups from 6 to 12". The key is the
# one whose value is the old one (among several, the one the words name).
_NUM = r"-?\d+(?:\.\d+)?"
_UNTIL = r"(?=\s*(?:,|;|\.(?:\s|$)|\band\b|\bthen\b|\bplease\b|\bpls\b|$))"
REPLACES = (
    re.compile(rf"(?:\b(?:to|at)\s+)?(?:\b(?:keep|have|hold|use|be|allow|store)\s+)?(?P<value>{_NUM})\b(?P<key>(?:\s+[A-Za-z][\w-]*){{0,4}}?)"
               rf"\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+)?(?P<old>{_NUM})\b{_UNTIL}", re.I),
    re.compile(rf"\b(?:the\s+)?(?P<key>[A-Za-z][\w -]{{0,40}}?)\s+from\s+(?P<old>{_NUM})\s+(?:to|->|→)\s+(?P<value>{_NUM})\b{_UNTIL}",
               re.I),
)
# what may be left of the request once its edits are taken out: the file's name, "keep everything else"
_REST = re.compile(r"\b(?:update|edit|change|in|please|pls|can\s+you|could\s+you|and|then|also|the|file|config|json|"
                   r"keep|leave|everything|anything|all|else|other|rest|as|it|is|was|unchanged|untouched|alone|same|"
                   r"don'?t|do|not|touch|change|thanks?|cheers|ok|okay|so|to|set|make)\b", re.I)
_ON = {"on": True, "enable": True, "off": False, "disable": False}


def _value(text: str, old: Any) -> Any:
    """The value as the JSON file would hold it, by the old value's type."""
    text = text.strip().rstrip(".")
    if text[:1] in "\"'" and text[-1:] == text[:1] and len(text) > 1:
        return text[1:-1]
    low = text.lower()
    if isinstance(old, bool) or low in ("true", "false"):
        if low in ("true", "yes", "on", "false", "no", "off"):
            return low in ("true", "yes", "on")
    if low in ("null", "none") and old is None:
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _find(doc: Any, words: str) -> tuple[str, ...] | None:
    """The one key path whose words hold the words of `words` ("server port" → server/port)."""
    from oi_local.core.rules.asked_column import _tokens

    want = _tokens(words)
    paths: list[tuple[str, ...]] = []

    def walk(obj: Any, prefix: tuple[str, ...]) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                paths.append((*prefix, str(k)))
                walk(v, (*prefix, str(k)))

    walk(doc, ())
    exact = [p for p in paths if want and _tokens(p[-1]) == want]
    fits = exact or [p for p in paths if want and want <= _tokens(" ".join(p))]
    fits = [p for p in fits if not any(q != p and q[:len(p)] == p for q in fits)]  # the deepest
    return fits[0] if len(fits) == 1 else None


_SWITCHES = ("enabled", "enable", "on", "active")


def _switch_in(section: dict[str, Any], path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The key path of a section's switch: its one true-or-false key, or among several the one named "enabled"."""
    flags = [k for k, v in section.items() if isinstance(v, bool)]
    named = [k for k in flags if k.lower() in _SWITCHES]
    pick = flags if len(flags) == 1 else named
    return (*path, pick[0]) if len(pick) == 1 else None


def _holding(doc: Any, old: float, words: str) -> tuple[str, ...] | None:
    """The one key path whose number is `old`; among several, the one the words name."""
    from oi_local.core.rules.asked_column import _tokens

    paths: list[tuple[str, ...]] = []

    def walk(obj: Any, prefix: tuple[str, ...]) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool) and v == old:
                    paths.append((*prefix, str(k)))
                walk(v, (*prefix, str(k)))

    walk(doc, ())
    want = _tokens(words)
    if len(paths) > 1:
        paths = [p for p in paths if want & _tokens(p[-1])] or [p for p in paths if want & _tokens(" ".join(p))]
    return paths[0] if len(paths) == 1 else None


def _get(doc: Any, path: tuple[str, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def asked(request: str, cwd: Path) -> tuple[Path, list[tuple[str, tuple[str, ...], Any]]] | None:
    """The JSON file and the edits (kind, key path, value) a request is made of, or None."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() == ".json"]
    if len(files) != 1 or files[0].stat().st_size > MAX_BYTES:
        return None
    try:
        doc = json.loads(files[0].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    rest = words.replace(files[0].name, " ")
    edits: list[tuple[str, tuple[str, ...], Any]] = []
    for kind, pattern in EDITS:
        for m in pattern.finditer(rest):
            key = m.groupdict().get("key") or m.group("key2")
            path = _find(doc, re.sub(r"\s+(?:in|of)\s*$", "", key))  # "the theme in settings.json"
            if path is None:
                return None
            old = _get(doc, path)
            if isinstance(old, dict) and kind == "switch":
                # "turn sync on" of {"sync": {"enabled": false, "server": ...}}: its one switch. The loop's code had set
                # "sync" to true, losing the server and interval (ho58, session 59)
                path = _switch_in(old, path)
                if path is None:
                    return None
                old = _get(doc, path)
            if isinstance(old, dict):
                return None  # a whole section is no value to set
            if kind == "switch":
                value: Any = _ON[m.group("value").lower()]
            elif kind in ("add", "remove"):
                if not isinstance(old, list):
                    return None
                value = _value(m.group("value"), old[0] if old else "")
            else:
                value = _value(m.group("value"), old)
            edits.append((kind, path, value))
        rest = pattern.sub(" ", rest)
    for pattern in REPLACES:
        for m in pattern.finditer(rest):
            path = _holding(doc, float(m.group("old")), m.group("key"))
            if path is None:
                return None
            edits.append(("set", path, _value(m.group("value"), _get(doc, path))))
        rest = pattern.sub(" ", rest)
    if not edits or re.sub(r"[\W_]+", " ", _REST.sub(" ", rest)).strip():
        return None  # a part of the request that is no edit the loop reads
    return files[0], edits


def edited(doc: Any, edits: list[tuple[str, tuple[str, ...], Any]]) -> Any:
    doc = json.loads(json.dumps(doc))
    for kind, path, value in edits:
        parent = _get(doc, path[:-1])
        if kind in ("set", "switch"):
            parent[path[-1]] = value
        elif kind == "add" and value not in parent[path[-1]]:
            parent[path[-1]].append(value)
        elif kind == "remove" and value in parent[path[-1]]:
            parent[path[-1]].remove(value)
    return doc


def ready_code(file: str, edits: list[tuple[str, tuple[str, ...], Any]], indent: int | None) -> str:
    lines = ["import json", f"with open({file!r}, encoding='utf-8') as f:", "    data = json.load(f)"]
    for kind, path, value in edits:
        where = "data" + "".join(f"[{k!r}]" for k in path)
        if kind in ("set", "switch"):
            lines.append(f"{where} = {value!r}")
        elif kind == "add":
            lines.append(f"if {value!r} not in {where}:\n    {where}.append({value!r})")
        else:
            lines.append(f"if {value!r} in {where}:\n    {where}.remove({value!r})")
    lines += [f"with open({file!r}, 'w', encoding='utf-8') as f:", f"    json.dump(data, f, indent={indent!r})",
              "    f.write('\\n')", "print(json.dumps(data, indent=2))"]
    return "\n".join(lines)


def start(turn: Turn) -> None:
    try:
        found = asked(turn.request, Path.cwd())
        if found is not None:
            turn.state[_KEY] = (found[0], found[0].read_bytes(), found[1])
    except OSError:
        return


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    kept = turn.state.get(_KEY)
    if last is None or last.interrupted or kept is None or turn.counts[_KEY]:
        return None
    path, before, edits = kept
    try:
        want = edited(json.loads(before.decode("utf-8")), edits)
        now = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        now = None
    if not last.failed and now == want:
        return None
    why = "the run failed" if last.failed else "it does not read as JSON" if now is None else "other changes than those asked"
    try:
        path.write_bytes(before)
    except OSError:
        return None
    turn.counts[_KEY] += 1
    text = before.decode("utf-8", errors="replace")
    indent = 2 if "\n  \"" in text else 4 if "\n    \"" in text else None
    rel = path.name if path.parent == Path.cwd().resolve() else str(path)
    return own_code(turn.engine, NOTE.format(file=rel, why=why), ready_code(rel, edits, indent), HOW)


rule = Rule(
    name="json edits", setting="check_outputs", start=start, after_run=after_run,
    summary="a request made only of edits of the one JSON file it names (set a key to a value, switch it on or off, "
            "add a value to a list or remove it; a section switched on or off is its one switch, as sync.enabled; a number "
            "given with the one it replaces, \"12 monthly backups instead of 6\", is the key holding that one), each key "
            "found in the file: a run that failed or left the file other "
            "than just those edits has the file put back as the turn found it and gets the loop's own code that makes "
            "them (once a turn)")
