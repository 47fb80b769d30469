"""Replace in files: asked "In all the .html files under site/, replace shop.hazelnut-candles.example with
hazelnutcandles.example. Leave other files alone.", the 0.5B model opened site/deploy.txt (no such file),
then copied a file onto itself, then edited only DEPLOY.txt (ho40); a worked example for .md files did
not help. When the request says plainly what to replace with what ("replace A with B", "change A to B")
in which files (an extension, a folder that is there, or both) and the code does not walk those files,
the code is not run and the model is given the code that does: every such file under the folder (its
subfolders too), each one changed printed with its count, and the number of files changed. "We're moving the app from port 8080
to 9090. Can you update the files in config/" says no "replace" (ho41): a change "from" one value with a
digit "to" another is read the same way, and a number is replaced only where it stands alone. "We renamed our
product from Skylark to Nimbus. Update all the Markdown files under docs ..., except CHANGELOG.md" (ho42): the
0.5B model opened the folder as a file, then listed the files and stopped. A change from a word to another
is read so too when the old word is in those files' text (not a place), the kind may be named in words
("Markdown files"), and a file named after "except" ("but not", "apart from", ...) is left as it is."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = ("(Write one ```python block that does what I asked: in every {which}, replace {old!r} with {new!r}, and "
        "print each file changed.")
SHOWN = "Not run: the code does not go through every {which}; asked afresh with the code that does."
_Q = r"(?:\"([^\"\n]+)\"|'([^'\n]+)'|`([^`\n]+)`|“([^”\n]+)”|([^\s\"'`“]+))"
# "replace A with B", "replace every A by B", "change all A to B", "swap A for B"
_ASKS = re.compile(rf"\b(?:replace|substitute)\s+(?:every|all|each|any)?\s*(?:occurrences?\s+of\s+|instances?\s+of\s+|the\s+)?{_Q}"
                   rf"\s+(?:with|by|for)\s+{_Q}"
                   rf"|\b(?:change|swap)\s+(?:every|all|each|any)?\s*(?:occurrences?\s+of\s+|the\s+)?{_Q}"
                   rf"\s+(?:to|into|for|with)\s+{_Q}", re.I)
# "moving the app from port 8080 to 9090 ... update the files in config/": a value with a digit, from one to another
_FROM_TO = re.compile(rf"\b(?:chang\w*|updat\w*|switch\w*|bump\w*|mov(?:e|es|ing)|migrat\w*|edit\w*|set\w*|renam\w*|rebrand\w*)\b[^.?!\n]{{0,60}}?"
                      rf"\bfrom\s+(?:[A-Za-z]+\s+)?{_Q}\s+to\s+(?:[A-Za-z]+\s+)?{_Q}", re.I)
_EDITS = re.compile(r"\b(?:chang\w*|updat\w*|switch\w*|bump\w*|edit\w*|replac\w*|modif\w*|set)\b", re.I)
_EXT = re.compile(r"(?:(?<=\s)|(?<=\*)|^)\.([a-z0-9]{1,5})\b|\b([a-z0-9]{2,5})\s+files\b", re.I)
# a kind of file named in words: "all the Markdown files"
_KINDS = {"markdown": "md", "html": "html", "python": "py", "json": "json", "csv": "csv", "text": "txt", "yaml": "yaml",
          "javascript": "js", "css": "css", "xml": "xml"}
_KIND_WORDS = re.compile(r"\b(" + "|".join(_KINDS) + r")\s+(?:files?|documents?|docs|pages?)\b", re.I)
# "except CHANGELOG.md", "but not notes.txt", "apart from a.md and b.md", "leave README.md alone"
_EXCEPT = re.compile(r"\b(?:except(?:\s+for)?|but\s+not|other\s+than|apart\s+from|excluding|besides|leave|skip|"
                     r"keep)\s+((?:[\w./-]+\.[a-z0-9]{1,5}(?:\s*,\s*|\s+(?:and|or|nor)\s+)?)+)", re.I)
MAX_LOOK = 300  # files read to find the old word in them
_FOLDER = re.compile(r"\b(?:under|in|inside|within|from)\s+(?:the\s+|my\s+)?(?:folder\s+|directory\s+)?"
                     r"([\w.-]+(?:/[\w.-]+)*)/?(?:\s+(?:folder|directory|dir))?", re.I)
_A_FOLDER = re.compile(r"\b(?:folder|directory|dir)\b|\w/(?:\s|$)", re.I)
_NAMES = re.compile(r"\b(?:file\s*names?|filenames?|names)\b", re.I)
_MANY = re.compile(r"\b(?:all|every|each|any)\b|\bfiles\b", re.I)
_WALKS = re.compile(r"\b(?:rglob|glob|os\.walk|walk|listdir|iterdir|scandir)\b|\bfind\s|\bgrep\s+-\w*[rl]")
_TRAIL = ".,;:!?)"
_WRITES = re.compile(r"\bwrite_text\b|\.write\(|\bsed\s+-i|\bperl\s+-pi|open\([^)]*['\"][wa+]")


def _quoted(groups: tuple[str | None, ...]) -> str:
    word = next(g for g in groups if g)
    return word if any(groups[:4]) else word.rstrip(_TRAIL)


def asked(request: str, cwd: Path) -> tuple[str, str, str, str | None, tuple[str, ...]] | None:
    """(old, new, folder, extension or None, names to leave alone) when the request asks to replace text in
    many files: a folder that is there, an extension, or both ("." for the working folder)."""
    words = instruction(request)
    m = _ASKS.search(words)
    if m is not None:
        groups = m.groups()
        pair = groups[:10] if any(groups[:10]) else groups[10:]
    else:
        m = _FROM_TO.search(words)
        pair = m.groups() if m is not None and _EDITS.search(words) else ()
    if m is None or not pair or not _MANY.search(words) or _NAMES.search(words):
        return None  # one edit, or the files' names to change (core/rules/rename_example.py), not their text
    old, new = _quoted(pair[:5]), _quoted(pair[5:])
    if not old or old == new:
        return None
    words_only = m.re is _FROM_TO and not (re.search(r"\d", old) and re.search(r"\d", new))
    if (cwd / old.rstrip("/")).exists() or (cwd / new.rstrip("/")).exists():
        return None  # a file or folder's name: moving or renaming, not text
    # what is not the pair: "switch every text file in docs from A to B" names the files before "from"
    cut = words.lower().rfind("from", m.start(), m.end()) if m.re is _FROM_TO else m.start()
    rest = words[:cut] + " " + words[m.end():]
    skip = tuple(dict.fromkeys(n.rsplit("/", 1)[-1] for e in _EXCEPT.finditer(rest)
                               for n in re.findall(r"[\w./-]+\.[a-z0-9]{1,5}", e.group(1), re.I)))
    for e in reversed(list(_EXCEPT.finditer(rest))):
        rest = rest[:e.start()] + " " + rest[e.end():]
    exts = {(e.group(1) or e.group(2)).lower() for e in _EXT.finditer(rest)}
    exts = {e for e in exts if e not in ("all", "the", "my", "any", "text", "other", "those", "these", "some")}
    exts |= {_KINDS[k.group(1).lower()] for k in _KIND_WORDS.finditer(rest)}
    folders = [f.group(1) for f in _FOLDER.finditer(rest) if (cwd / f.group(1)).is_dir()]
    if len(exts) > 1 or len(set(folders)) > 1 or not (exts or folders) or (not folders and _A_FOLDER.search(rest)):
        return None  # several kinds or folders, none named, or a folder named that is not there
    named = [w for w in re.findall(r"\b[\w/-]+\.[a-z0-9]{1,5}\b", rest) if (cwd / w).is_file()]
    if named:
        return None  # a file named: its own edit, not every file's
    folder, ext = folders[0] if folders else ".", next(iter(exts), None)
    if words_only and not _in_files(old, cwd / folder, ext):
        return None  # "from Downloads to Desktop" moves files; a word to change is in the files' text
    return old, new, folder, ext, skip


def _in_files(old: str, folder: Path, ext: str | None) -> bool:
    for i, p in enumerate(folder.rglob(f"*.{ext}" if ext else "*")):
        if i >= MAX_LOOK:
            return False
        try:
            if p.is_file() and p.stat().st_size < 2_000_000 and old in p.read_text(encoding="utf-8", errors="ignore"):
                return True
        except OSError:
            continue
    return False


def ready_code(old: str, new: str, folder: str, ext: str | None, skip: tuple[str, ...] = ()) -> str:
    pattern = f"*.{ext}" if ext else "*"
    leave = f"    if p.name in {skip!r}:\n        continue  # asked to be left as it is\n" if skip else ""
    if re.fullmatch(r"\d+(?:\.\d+)*", old):  # 8080, not the 8080 of 18080 or 80801
        return (f"import re\nfrom pathlib import Path\nold, new = {old!r}, {new!r}\n"
                f"pattern = re.compile(r'(?<![\\d.])' + re.escape(old) + r'(?![\\d]|\\.\\d)')\nchanged = 0\n"
                f"for p in sorted(Path({folder!r}).rglob({pattern!r})):\n"
                f"    if not p.is_file():\n        continue\n{leave}"
                f"    try:\n        text = p.read_text(encoding='utf-8')\n    except UnicodeDecodeError:\n        continue\n"
                f"    text, n = pattern.subn(new, text)\n"
                f"    if n:\n        p.write_text(text, encoding='utf-8')\n"
                f"        changed += 1\n        print(f'{{p}}: {{n}} replaced')\n"
                f"print(changed, 'files changed')")
    return (f"from pathlib import Path\nold, new = {old!r}, {new!r}\nchanged = 0\n"
            f"for p in sorted(Path({folder!r}).rglob({pattern!r})):\n"
            f"    if not p.is_file():\n        continue\n{leave}"
            f"    try:\n        text = p.read_text(encoding='utf-8')\n    except UnicodeDecodeError:\n        continue\n"
            f"    if old in text:\n        p.write_text(text.replace(old, new), encoding='utf-8')\n"
            f"        changed += 1\n        print(f'{{p}}: {{text.count(old)}} replaced')\n"
            f"print(changed, 'files changed')")


def _which(folder: str, ext: str | None) -> str:
    kind = f".{ext} file" if ext else "file"
    return f"{kind} under {folder}/" if folder != "." else f"{kind} here (and in subfolders)"


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["replace files"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    old, new, folder, ext, skip = found
    if _WALKS.search(block.code) and (ext is None or ext in block.code) and (old in block.code or re.search(r"\bold\b", block.code)) \
            and _WRITES.search(block.code) and all(name in block.code for name in skip):
        return None  # the code goes through the files and writes them itself (not "folder": ho41's moved every file)
    turn.counts["replace files"] += 1
    which = _which(folder, ext) + (f" but {', '.join(skip)}" if skip else "")
    ask = own_code(turn.engine, NOTE.format(which=which, old=old, new=new), ready_code(old, new, folder, ext, skip))
    return Verdict(note=SHOWN.format(which=which), ask=ask)


rule = Rule(
    name="replace files", setting="repair_slips", check=check,
    summary="asked to replace one text with another (\"replace A with B\", \"change A to B\", \"update ... from port 8080 "
            "to 9090\": a value with a digit; \"renamed from Skylark to Nimbus\" when the old word is in those files) in many files (an "
            "extension, a folder that is there, or both), code that does not go through those files is not run and "
            "the model is given the code that does: every such file under the folder and its subfolders, each "
            "changed one printed with its count; a number only where it stands alone (not the 8080 of 18080); files named after \"except\" are left alone")
