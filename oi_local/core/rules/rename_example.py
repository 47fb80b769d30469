"""Rename by example: asked to rename files "named like receipt_07-03-2024.txt" to "year-month-day first, like
2024-03-07_receipt.txt", the 0.5B model typed the five names into a list, sorted them by the year's
characters and renamed each to `receipt_07_03-2024.txt` (ho40): the parts cut by hand, the order
wrong. When a request to rename files gives one name as it is and as it should be, the rule between
them is read from the two: each number of the new name is one of the old name's (the same digits, or
the same number padded with zeros, "7" -> "007"), and the rest of the new name is kept as written.
Code that does not follow it is not run and the model is given the code that renames every file of
the folder named like the example."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = ("(Write one ```python block that does what I asked: rename each file in {folder} named like {old} as "
        "{new} shows, and print each new name.")
SHOWN = "Not run: the request shows the new name by example ({old} -> {new}); asked afresh with the code that renames every such file."
_RENAME = re.compile(r"\b(?:renam\w*|re-?name\w*)\b", re.I)
_NAME = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w][\w.-]*\.[A-Za-z0-9]{1,5})(?![\w-])")
_QUOTED = re.compile(r"[\"'‘“`]([\w][\w .-]*\.[A-Za-z0-9]{1,5})[\"'’”`]")
# Not file names: "e.g", "i.e", a format said in words ("(day.month.year)", ho45)
_NOT_NAME = re.compile(r"^(?:[a-z]\.[a-z]|[A-Za-z]+(?:\.[A-Za-z]+){2,})$")
_PART = re.compile(r"\d+|[A-Za-z]+|[^A-Za-z\d]+")


def _rule(old: str, new: str, loose: bool = False) -> tuple[str, str] | None:
    """(a regex for names like `old`, an f-string body of the new name from its groups `m[i]`), when
    each number of `new` is found once in `old`. `loose`: a word of the old name (not its extension) that the
    new name moves is any text ("receipt 05.03.2024.pdf" as "2024-03-05 receipt.pdf" is also "tax letter
    02.01.2024.pdf" as "2024-01-02 tax letter.pdf")."""
    parts = _PART.findall(old)
    digits = [p for p in parts if p.isdigit()]
    if not digits or len({int(d) for d in digits}) != len(digits):
        return None  # no number, or one twice: which goes where cannot be told
    new_parts = _PART.findall(new)
    regex, groups, words = "", dict[int, tuple[int, str]](), dict[str, int]()
    for k, p in enumerate(parts):
        if p.isdigit():
            groups[int(p)] = (len(groups) + len(words) + 1, p)
            regex += r"(\d+)"
        elif loose and p.isalpha() and p in new_parts and p not in words and not (k == len(parts) - 1 and k and parts[k - 1] == "."):
            words[p] = len(groups) + len(words) + 1
            regex += r"(.+?)"
        else:
            regex += re.escape(p)
    body, used = "", set()
    for p in new_parts:
        if p.isdigit() and int(p) in groups:
            i, was = groups[int(p)]
            used.add(i)
            body += f"{{m[{i}]}}" if p == was else f"{{int(m[{i}]):0{len(p)}d}}"
        elif p in words:
            body += f"{{m[{words[p]}]}}"
        else:
            body += p.replace("{", "{{").replace("}", "}}")
    if not used:
        return None
    return f"^{regex}$", body


def asked(request: str, cwd: Path) -> tuple[str, str, str, str, str] | None:
    """(folder, old example, new example, regex, new-name body) when a request to rename files shows one
    name before and after, and files of the folder are named like the first."""
    words = instruction(request)
    if not _RENAME.search(words):
        return None
    names = _names(words)
    pair = _pair(names, cwd)
    if pair is None:
        return None
    names = list(pair)
    old, new = (n.rsplit("/", 1)[-1] for n in names)
    from oi_local.core.hints import mentioned_paths

    # The example's words as written first; as any text when fewer than two files are named like that (the
    # request's "receipt 05.03.2024.pdf" stands for the insurance and tax letter scans too, ho45).
    for loose in (False, True):
        regex, body = _rule(old, new, loose) or ("", "")
        folders = [p for p in mentioned_paths(words, cwd) if p.is_dir()]
        if "/" in names[0]:
            folders = [(cwd / names[0]).parent]
        if not folders:  # "in scans": the one folder here (or this one) with files named like the example
            folders = [d for d in [cwd, *sorted(cwd.iterdir())] if d.is_dir() and len(_like(d, regex)) >= 2]
        if len(folders) == 1 and len(_like(folders[0], regex)) >= 2:
            return os.path.relpath(folders[0].resolve(), cwd.resolve()), old, new, regex, body
    return None


def _names(words: str) -> list[str]:
    """File names as written: quoted ones may hold spaces ("'Scan 1.pdf', 'Scan 12.pdf'", ho42)."""
    quoted = [(m.start(), m.end(), m.group(1)) for m in _QUOTED.finditer(words)]
    inside = [(a, b) for a, b, _ in quoted]
    bare = [(m.start(), m.end(), m.group(1).rstrip(".")) for m in _NAME.finditer(words)
            if not any(a <= m.start() < b for a, b in inside) and not _NOT_NAME.match(m.group(1).rstrip("."))]
    return list(dict.fromkeys(n for _, _, n in sorted(quoted + bare)))


def _pair(names: list[str], cwd: Path) -> tuple[str, str] | None:
    """The example (old, new): two names, or the first of several olds with the new name shown for it, when
    every other pair shown follows the same rule ("'Scan 1.pdf', 'Scan 12.pdf' ... to scan_001.pdf, scan_012.pdf")."""
    if len(names) == 2:
        pairs = [(names[0], names[1])]
    elif len(names) % 2 == 0 and 4 <= len(names) <= 8:
        half = len(names) // 2
        pairs = list(zip(names[:half], names[half:]))
    else:
        return None
    old, new = pairs[0]
    if (cwd / new).exists() or old == new:
        return None  # the new name is there already: not an example of a new one
    found = _rule(old.rsplit("/", 1)[-1], new.rsplit("/", 1)[-1])
    if found is None:
        return None
    regex, body = found
    for o, n in pairs[1:]:
        m = re.match(regex, o.rsplit("/", 1)[-1])
        if m is None or _render(body, m) != n.rsplit("/", 1)[-1]:
            return None
    return old, new


def _render(body: str, m: re.Match[str]) -> str:
    """The new name `body` gives for a match, as the ready code's f-string would."""
    def part(t: re.Match[str]) -> str:
        if t.group(1):
            return m[int(t.group(1))]
        if t.group(2):
            return f"{int(m[int(t.group(2))]):0{int(t.group(3))}d}"
        return t.group(0)[0]
    return re.sub(r"\{m\[(\d+)\]\}|\{int\(m\[(\d+)\]\):0(\d+)d\}|\{\{|\}\}", part, body)


def _like(folder: Path, regex: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.is_file() and re.match(regex, p.name)] if folder.is_dir() else []


def ready_code(folder: str, regex: str, body: str) -> str:
    return (f"import re\nfrom pathlib import Path\npattern = re.compile({regex!r})\n"
            f"for p in sorted(Path({folder!r}).iterdir()):\n"
            f"    m = pattern.match(p.name)\n    if not p.is_file() or not m:\n        continue\n"
            f"    new = p.with_name(f{body!r})\n"
            f"    if new.exists():\n        print('left as it is (the new name is taken):', p.name)\n        continue\n"
            f"    p.rename(new)\n    print(p.name, '->', new.name)")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["rename example"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    folder, old, new, regex, body = found
    if regex in block.code or regex.replace("\\", "") in block.code:
        return None  # the model's own code reads the names the same way
    turn.counts["rename example"] += 1
    where = f"{folder}/" if folder != "." else "this folder"
    ask = own_code(turn.engine, NOTE.format(folder=where, old=old, new=new), ready_code(folder, regex, body))
    return Verdict(note=SHOWN.format(old=old, new=new), ask=ask)


rule = Rule(
    name="rename example", setting="repair_slips", check=check,
    summary="asked to rename files with one name shown before and after (\"receipt_07-03-2024.txt\" as "
            "\"2024-03-07_receipt.txt\"), the rule is read from the two (each number of the new name is one of the "
            "old's, or it padded with zeros; a word it moves is any text when the example alone has it) and code that "
            "does not follow it is not run: the model is given the code that renames every file of the folder named like "
            "the example")
