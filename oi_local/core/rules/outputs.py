"""Outputs: the files a request asks for are checked against what the turn's code left in the
working folder, whatever the model says. A file the request names as a result ("save it as
prices.png") or a new folder it asks for ("into a new backup folder") that the turn did not make,
a file the turn created or changed that is empty, a "copy" whose bytes differ from the file it
copies, and a plot of a named data file drawn by code that never read that file: the model is told
what is wrong and asked once for code that does it (a 0.5B model left an empty backup/items.csv,
copied items.csv beside itself for "a new backup folder", and plotted made-up numbers, and said it
was done). A request to change files in a home folder it names ("move the PDFs out of my Downloads
folder") is held to that folder too; one asking to add one-word items ("take gerald off, and add
yusuf and carmen") is held to them (the code only took gerald off); one asking to add something "to
the log" (a file the conversation keeps) with a question is held to changing a file: the code globbed the working folder, moved nothing, and "The code
ran without errors and printed nothing" ended the turn. Not after a failure no code can fix (core/beyond_code.py: no network, a damaged file):
asked then, the model wrote code that made the file from nothing, and the honest answer was lost."""
from __future__ import annotations

import os
import re
import time
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import (
    Turn,
    asks_back,
    asks_something,
    careful,
    code_retry,
    instruction,
)

MAX_FILES = 3000  # a snapshot gives up past this many files (a home folder): no check then
MAX_SECONDS = 0.3
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".cache", ".interpreter"}
_NAME = r"['\"`]?([\w][\w./-]*\.[A-Za-z][A-Za-z0-9]{0,4})\b"
# A folder asked for: "into a new backup folder", "a folder called archive" (made by the turn).
NEW_FOLDER = re.compile(r"\bnew\s+['\"`]?([\w.-]+?)['\"`]?\s+(?:folder|directory|subfolder)\b|"
                        r"\b(?:folder|directory|subfolder)\s+(?:called|named)\s+['\"`]?([\w.-]+(?:/[\w.-]+)*)", re.I)
# A file named as a result: "save it as out.png", "write the total to sum.txt", "a file called a.md".
# "put them in errors.txt", "store the totals in sums.csv": a few words between, none of which starts
# a clause ("write code that counts words in notes.txt" names an input).
TARGET = re.compile(
    r"\b(?:(?:to|as|into|called|named|create|save|write|generate|make|export|(?:call|name)(?:ing)?\s+it)\s+"
    r"(?:(?:a|an|the|new|file|folder|image|picture|png|csv|json|text|called|named)\s+){0,4}|"
    r"(?:put|store|stick|dump|place|collect|gather|save|write|keep)\s+"
    r"(?:(?!(?:that|which|where|whose|who|if|when|to|for|and|then|in)\b)[\w.'/-]+\s+){1,6}?in\s+(?:(?:a|the|new|file)\s+){0,2})" + _NAME, re.I)
_KIND_ONLY = re.compile(r"(?:tar|zip|gz|7z|csv|tsv|json|png|jpe?g|gif|pdf|txt|md|xlsx?|docx?|html?|svg)(?:\.\w+)*", re.I)
# Words of a request that changes files the user has: a turn that left every file as it was did not
# do it (the 0.5B model's loop over `Path(".").glob("*.pdf")` for files in scans/ moved nothing, and
# "The code ran without errors and printed nothing" ended the turn).
CHANGE = re.compile(r"\b(mov(?:e|es|ing)|tid(?:y|ies|ying)|declutter\w*|renam\w*|chang(?:e|es|ing)|replac\w*|edit\w*|updat\w*|fix\w*|correct|"
                    r"organi[sz]\w*|join\w*|merg\w*|combin\w*|convert\w*|compress\w*|zip|pack|cop(?:y|ies)|"
                    r"back ?up|append\w*|insert\w*|split)\b", re.I)
# Something to add to a file the conversation keeps ("add it to the log. How many minutes in total now?"):
# asked with a question, only the question was answered and runs.txt was left as it was (ho5-multi-running-log).
ADD_TO = re.compile(r"\b(?:add|append|log|record|put)\s+(?:it|this|that|them|these|those|\S+(?:\s+\S+){0,3}?)\s+"
                    r"(?:to|into|onto|on)\s+(?:the|my|our)\s+(?:\w+\s+)?(?:log|list|file|notes|journal|diary|sheet|"
                    r"spreadsheet|table|inventory|todos?|to-do)\b"
                    # "Add a row for Omar with 11 points, then tell me the average" (the code only averaged, ho3)
                    r"|\b(?:add|append|insert)\s+(?:a|an|one|another|two|three|a\s+new)\s+(?:new\s+)?(?:rows?|lines?|entry|entries|"
                    r"records?)\b", re.I)
FILE_WORDS = re.compile(r"\b(cop(?:y|ies)|back ?up|duplicate|save|write|create|export|plot|chart|graph|"
                        r"histogram|visuali[sz]e|move|rename|folder|directory)\b|" + CHANGE.pattern, re.I)
COPY = re.compile(r"\b(cop(?:y|ies)|back ?up|duplicate)\b", re.I)
PLOT = re.compile(r"\b(plot\w*|chart|graph|histogram|visuali[sz]e)\b", re.I)
EMPTY_OK = re.compile(r"\b(empty|blank|touch|placeholder)\b", re.I)
DATA_EXT = {"csv", "tsv", "json", "jsonl", "xlsx", "xls", "txt", "log", "dat", "parquet"}
NOTE = "(Not done yet: {problems}. Write one ```python block that does what I asked.)"
UNREAD = "no code that ran read"

Snapshot = dict[str, tuple[int, int]]  # relative path -> (size, mtime_ns)


def snapshot(root: str) -> Snapshot | None:
    """Sizes and times of the files under `root`, or None when there are too many to look at."""
    found: Snapshot = {}
    deadline = time.monotonic() + MAX_SECONDS
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        for name in files:
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            found[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns)
            if len(found) > MAX_FILES or time.monotonic() > deadline:
                return None
    return found


def home_folders(request: str, cwd: str) -> list[str]:
    """Folders of the home folder the request names that the working folder does not have ("move the
    PDFs out of my Downloads folder": ~/Downloads), at most three."""
    home = os.path.expanduser("~")
    if os.path.realpath(home) == os.path.realpath(cwd):
        return []
    try:
        there = {e.name.lower(): e.path for e in os.scandir(home) if e.is_dir() and not e.name.startswith(".")}
    except OSError:
        return []
    words = dict.fromkeys(w.lower() for w in re.findall(r"(?<![\w./-])([A-Za-z][\w-]+)(?=/|\b)", instruction(request)))
    here = {n.lower() for n in os.listdir(cwd)} if os.path.isdir(cwd) else set()
    return [there[w] for w in words if w in there and w not in here][:3]


def start(turn: Turn) -> None:
    from oi_local.core.removals import REMOVE

    if FILE_WORDS.search(turn.request) or TARGET.search(turn.request) or added_items(turn.request) \
            or ADD_TO.search(turn.request) or REMOVE.search(instruction(turn.request)):
        turn.state["outputs"] = (os.getcwd(), snapshot(os.getcwd()))
        turn.state["home_outputs"] = {p: snapshot(p) for p in home_folders(turn.request, os.getcwd())}
        turn.state["folders"] = {w: bool(f) for w, f in _folders(os.getcwd(), _asked_folders(turn.request)).items()}


_NOT_NAMES = {"empty", "blank", "separate", "fresh", "clean", "little", "small", "big", "single", "shared", "sub"}


# "a new backup folder, budget/backup", "a new bakcup folder thesis/backup_oct": the path names it.
_THEN_PATH = re.compile(r"\s*[,:]?\s*(?:called|named)?\s*['\"`]?([\w.-]+(?:/[\w.-]+)+|[\w.-]+/)")


def _asked_folders(request: str) -> list[str]:
    words = (((p := _THEN_PATH.match(request, m.end())) and m.group(1) and p.group(1)) or m.group(1) or m.group(2)
             for m in NEW_FOLDER.finditer(request))
    words = (w.strip("./") for w in words)
    words = (w if "/" in w else w.lower() for w in words)  # a path is looked up as written
    return list(dict.fromkeys(w for w in words if w and w not in _NOT_NAMES))


def _folders(root: str, words: list[str]) -> dict[str, list[str]]:
    """For each word, the folders under `root` it names: the very path for a path
    ("house/backup"), else those with the word in their name (two levels deep at most)."""
    found: dict[str, list[str]] = {w: [] for w in words}
    for w in words:
        if "/" in w:
            found[w] = [w] if os.path.isdir(os.path.join(root, w)) else []
    names = [w for w in words if "/" not in w]
    if not names:
        return found
    for folder, dirs, _ in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        for d in dirs:
            for w in names:
                if w in d.lower():
                    found[w].append(os.path.relpath(os.path.join(folder, d), root))
        if folder != root and os.path.relpath(folder, root).count(os.sep) >= 1:
            dirs[:] = []
    return found


def _copied_into(root: str, folders: list[str], source: str) -> bool:
    """Whether one of `folders` (or a folder under them) holds a file with `source`'s bytes."""
    for top in folders:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            if any(_same_bytes(os.path.join(root, source), os.path.join(folder, f), unknown=False) for f in files):
                return True
    return False


def _put_there(request: str, folder: str) -> bool:
    """The request puts its result in `folder` ("save it in reports as a.txt", "reports/a.txt"):
    a result named without a folder may be made there."""
    if not folder:
        return True
    f = re.escape(folder)
    return bool(re.search(rf"(?<![\w./-]){f}/|\b(?:in|into|inside|to|under)\s+(?:the\s+|a\s+|my\s+)?"
                          rf"(?:new\s+)?(?:folder\s+|directory\s+)?['\"`]?{f}(?![\w.-])", request, re.I))


# "same folder is fine", "put it next to the csv": a result named without a folder goes beside the input.
_SAME_FOLDER = re.compile(r"\b(?:(?:the\s+)?same\s+(?:folder|directory|dir|place)|next\s+to\s+(?:it|the\s+(?:data|file|csv|original))|"
                          r"beside\s+(?:it|the\s+(?:data|file|csv|original))|alongside\s+(?:it|the))\b", re.I)
_IN_FOLDER = re.compile(r"(?<![\w/.-])((?:[\w-]+/)+)[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}(?![\w/-])")
# "full_draft.txt (in the novel folder)": right after the result's name, a folder as its place.
_FOLDER_AFTER = re.compile(r"[\s,(]{0,3}(?:in|into|inside)\s+(?:the\s+|my\s+)?['\"`]?([\w-]+(?:/[\w-]+)*)['\"`]?\s+(?:folder|directory)\b", re.I)


def placed(request: str, name: str) -> str:
    """Where a result the request names without a folder goes: into the folder of the one file the
    request names in a folder when it says "the same folder" ("plot health/weight_log.csv ... call it
    weight_chart.png, same folder is fine"), or into a folder that is there, named right after the
    result ("one file called full_draft.txt (in the novel folder)"); else `name`."""
    if "/" in name:
        return name
    after = [_FOLDER_AFTER.match(request, m.end()) for m in re.finditer(rf"(?<![\w/.-]){re.escape(name)}(?![\w/-])", request)]
    folders = {m.group(1) + "/" for m in after if m and os.path.isdir(m.group(1))}
    if not folders and _SAME_FOLDER.search(request):
        folders = {m.group(1) for m in _IN_FOLDER.finditer(request) if os.path.isfile(m.group(0))}
    return os.path.join(folders.pop(), name) if len(folders) == 1 else name


def _named_files(request: str, names: dict[str, list[str]]) -> list[str]:
    """The files that were there before the turn and that the request names (by path or by name)."""
    found: list[str] = []
    for name, rels in names.items():
        for rel in rels:
            if re.search(rf"(?<![\w.-]){re.escape(rel)}(?![\w-])", request) or (
                    len(rels) == 1 and re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w-])", request)):
                found.append(rel)
    return list(dict.fromkeys(found))


# "add yusuf and carmen", "add milk, eggs & bread to shopping.txt": one-word items, no article, no number.
_ADD = re.compile(r"\badd\s+((?:[A-Za-z][\w'-]*)(?:\s*(?:,|&|\band\b)\s*[A-Za-z][\w'-]*){0,5})(?=\s*(?:$|[.;!?\n]|\bto\b|\binto\b|\bon\b|\bonto\b|\bat\b|\bplease\b|\bpls\b|\btoo\b|\bas well\b))", re.I)
_NOT_ITEMS = {"a", "an", "the", "some", "my", "our", "your", "them", "it", "this", "that", "these", "those", "up", "one",
              "more", "another", "all", "each", "every", "new", "extra", "both", "any", "him", "her", "me", "us",
              "line", "lines", "row", "rows", "column", "columns", "header", "total", "totals", "numbers", "values",
              "entry", "entries", "item", "items", "name", "names", "date", "dates", "comment", "comments"}
MAX_ADDED_TEXT = 200_000  # bytes of a changed file searched for the added items


def added_items(request: str) -> list[str]:
    """The one-word items a request asks to add ("add yusuf and carmen"), or [] when it adds anything else."""
    items: list[str] = []
    for m in _ADD.finditer(instruction(request)):
        words = [w.strip() for w in re.split(r"\s*(?:,|&|\band\b)\s*", m.group(1), flags=re.I) if w.strip()]
        if not words or any(w.lower() in _NOT_ITEMS for w in words):
            return []
        items += words
    return list(dict.fromkeys(items))


def _missing_added(root: str, request: str, changed: list[str]) -> list[str]:
    """Asked to take one guest off a list and add two, the code only took one off: the items asked to
    be added that no changed text file holds."""
    items = added_items(request)
    if not items or not changed:
        return []
    texts = []
    for rel in changed:
        try:
            with open(os.path.join(root, rel), "rb") as f:
                texts.append(f.read(MAX_ADDED_TEXT).decode("utf-8", "replace").lower())
        except OSError:
            continue
    return [f"{item} is not in {changed[0]}" for item in items
            if not any(re.search(rf"(?<!\w){re.escape(item.lower())}(?!\w)", t) for t in texts)]


# "Rename "minutes (copy).txt" to meeting-minutes.txt": the 0.5B model wrote the new file and left the old one (ho55,
# session 56). A name quoted (it may hold spaces) or written plain.
_FILE = r"(?:\"([^\"\n]{1,120})\"|'([^'\n]{1,120})'|`([^`\n]{1,120})`|([\w./~-]+))"
RENAME = re.compile(rf"\b(renam|mov)e\s+(?:the\s+file\s+)?{_FILE}\s+(?:to|as|into)\s+(?:a\s+file\s+called\s+)?{_FILE}", re.I)


def renamed(request: str) -> list[tuple[str, str, str]]:
    """(the verb, the old name, the new name or folder) of each "rename A to B", "move A into B" a request says."""
    found = []
    for m in RENAME.finditer(instruction(request)):
        names = [g for g in m.groups()[1:] if g is not None]
        if len(names) == 2:
            found.append((m.group(1).lower() + "e", names[0], names[1].rstrip(".").rstrip("/")))
    return found


def _by_name(snap: Snapshot) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for rel in snap:
        names.setdefault(os.path.basename(rel), []).append(rel)
    return names


def _same_bytes(a: str, b: str, unknown: bool = True) -> bool:
    try:
        if os.path.getsize(a) != os.path.getsize(b):
            return False
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read(50_000_000) == fb.read(50_000_000)
    except OSError:
        return unknown  # cannot tell: by default not a problem to report


def problems(turn: Turn) -> list[str]:
    """What is wrong with the files the request asked for (empty when nothing is, or cannot tell)."""
    root, before = turn.state.get("outputs", (None, None))
    if root is None or before is None or not turn.runs:
        return _unread_data(turn)
    after = snapshot(root)
    if after is None:
        return _unread_data(turn)
    request = turn.request
    found: list[str] = []
    changed = [rel for rel, st in after.items() if before.get(rel) != st]
    names_after, names_before = _by_name(after), _by_name(before)
    for name in dict.fromkeys(m.group(1).rstrip(".") for m in TARGET.finditer(request)):
        base = os.path.basename(name)
        if _KIND_ONLY.fullmatch(base):
            continue  # "into a tar.gz called website-backup.tar.gz": a kind of file, not its name
        if base in names_before or os.path.exists(os.path.join(root, name)):
            continue  # it was there already: an input, or a file to change
        elsewhere = [] if "/" in name else [  # a path asked for is the only place
            rel for rel in names_after.get(base, []) if _put_there(request, os.path.dirname(rel))]
        if not elsewhere:  # "zip tax_2024 into tax_2024.zip" made tax_2024/tax_2024.zip: not what was asked
            made = names_after.get(base, [])
            found.append(f"{name} was not created" + (f" (the code made {made[0]} instead)" if made else ""))
    had = turn.state.get("folders", {})
    now = _folders(root, [w for w, there in had.items() if not there])
    went = " (the copy went to that name)" if COPY.search(request) else ""
    found += [f"{w} is a file, not a new folder{went}" if os.path.isfile(os.path.join(root, w))
              else f"no new {w} folder was made" for w, there in now.items() if not there]
    if not EMPTY_OK.search(request):
        found += [f"{rel} is empty" for rel in changed if after[rel][0] == 0 and before.get(rel, (1, 0))[0] != 0]
    found += _missing_added(root, request, changed)
    if not turn.runs[-1].failed:
        from oi_local.core.all_rows import all_rows
        from oi_local.core.repeats import repeats

        found += repeats(root, instruction(request), changed)
        found += all_rows(root, instruction(request), changed)
    if not turn.runs[-1].failed:  # after a failure, the error is the news
        from oi_local.core.removals import kept

        found += kept(root, instruction(request))
    if COPY.search(request):
        for rel in changed:
            sources = [s for s in names_before.get(os.path.basename(rel), []) if s != rel]
            if sources and after[rel][0] and not any(_same_bytes(os.path.join(root, s), os.path.join(root, rel)) for s in sources):
                found.append(f"{rel} is not a copy of {sources[0]} (the bytes differ)")
    made = [f for folders in now.values() for f in folders]
    if COPY.search(request) and made and not any(p.startswith(tuple(made)) for p in found):
        # "copy a.csv into a new backup folder": the new folder holds a file with a.csv's bytes
        found += [f"{made[0]} has no copy of {name}" for name in _named_files(request, names_before)
                  if not _copied_into(root, made, name)]
    for verb, a, b in renamed(request):
        into = os.path.join(b, os.path.basename(a))
        new = b if b in changed else into if into in changed else None
        if new and a in before and os.path.exists(os.path.join(root, a)):
            found.append(f"{a} is still there (a {verb} leaves only {new})")
    found += _kept_in_place(root, request, before, after)
    sizes = {st[0] for st in before.values()}  # a file moved or copied as it was is the person's, whatever its bytes
    found += [w for rel in changed if rel not in before and after[rel][0] not in sizes and (w := wrong_kind(root, rel))]
    homes = {p: snap for p, snap in turn.state.get("home_outputs", {}).items() if snap is not None}
    if not found and not changed and set(after) == set(before) and not turn.runs[-1].failed \
            and all(snapshot(p) == snap for p, snap in homes.items()):  # after a failure, the error is the news
        if _changes_named(request, before) or ADD_TO.search(instruction(request)):
            found.append("no file in the working folder was changed")
        elif homes and _changes_asked(request):  # "move the PDFs out of my Downloads folder"
            found.append("no file in " + ", ".join("~/" + os.path.basename(p) for p in homes) + " was changed")
    if PLOT.search(request):
        code = "\n".join(r.code for r in turn.runs)
        from pathlib import Path

        from oi_local.core.hints import by_stem

        data = [n for n in names_before if n.rsplit(".", 1)[-1].lower() in DATA_EXT and re.search(
            rf"(?<![\w.-]){re.escape(n)}(?![\w-])", request)]
        data = data or [p.name for p in by_stem(request, Path(root)) if p.name in names_before]  # "plot the prices"
        found += [f"the code never read {n}, so the plot does not show its data" for n in data if not _names(code, n)]
    return found + _unread_data(turn)


# What a file's first bytes are, by the kind its name says (a name with no kind here is not looked at).
_MAGIC = {"gzip file": (b"\x1f\x8b",), "zip archive": (b"PK\x03\x04", b"PK\x05\x06"), "PNG image": (b"\x89PNG",),
          "JPEG image": (b"\xff\xd8",), "PDF": (b"%PDF",), "bzip2 file": (b"BZh",), "xz file": (b"\xfd7zXZ",)}
_KINDS = {".gz": "gzip file", ".tgz": "gzip file", ".zip": "zip archive", ".png": "PNG image", ".jpg": "JPEG image",
          ".jpeg": "JPEG image", ".pdf": "PDF", ".bz2": "bzip2 file", ".xz": "xz file"}


def wrong_kind(root: str, rel: str) -> str:
    """"reports.tar.gz is not a gzip file (its bytes are a zip archive)" for a file whose first bytes are not the
    kind its name says: asked for reports.tar.gz, the 0.5B model wrote a zip archive under that name (ho56), and
    `tar -tzf` could not open it; else ""."""
    kind = _KINDS.get(os.path.splitext(rel)[1].lower())
    if kind is None:
        return ""
    try:
        with open(os.path.join(root, rel), "rb") as f:
            head = f.read(8)
    except OSError:
        return ""
    if head.startswith(_MAGIC[kind]):
        return ""
    other = next((k for k, marks in _MAGIC.items() if head.startswith(marks)), "")
    return f"{rel} is not a {kind}" + (f" (its bytes are a {other})" if other else "")


def _kept_in_place(root: str, request: str, before: Snapshot, after: Snapshot) -> list[str]:
    """A file asked to be changed where it is ("put shopping_list.txt in alphabetical order, just save it over the
    same file") that the turn left as it was: the 0.5B model sorted the lines in memory, printed how many there
    were, and said so (ho56). Asked with a question, such a request was not held to changing a file."""
    from pathlib import Path

    from oi_local.core.rules.in_place import asked

    target = asked(request, Path(root))
    if target is None:
        return []
    rel = os.path.relpath(target, root)
    return [f"{rel} is unchanged (I asked for it to be changed where it is)"] if rel in before and before.get(rel) == after.get(rel) else []


def _names(code: str, name: str) -> bool:
    """The code names the file, or a pattern that matches it (`glob("*.csv")` read spending.csv: session 44)."""
    import fnmatch

    if name in code:
        return True
    patterns = re.findall(r"[\"']([^\"'\n]*[*?][^\"'\n]*)[\"']", code)
    return any(fnmatch.fnmatch(name, p.rsplit("/", 1)[-1]) for p in patterns)


def _unread_data(turn: Turn) -> list[str]:
    if not turn.runs or turn.runs[-1].failed or PLOT.search(turn.request):
        return []
    return [f"{UNREAD} {n}, so the answer is not from its data" for n in unread(turn)]


def unread(turn: Turn) -> list[str]:
    """For a question, the data files it names (or its pasted text's file) that no code that ran in the
    conversation read: the 0.5B model answered from a worked example's `print(1234 * 5678)`, from
    numbers typed in, or from a folder that is not there, in 29 of 764 recorded answers to such
    questions (ho12, ho14, ho15, ho19, ho21, ho23), each taken for the data's answer."""
    from pathlib import Path

    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.long_request import pasted_file
    from oi_local.core.writes import question

    request = turn.request
    own = instruction(request)  # a pasted log's "copied 41 files" asks for nothing
    if not (question(own) or asks_something(own)):  # "...supposed to back up our photos. how many failed?"
        return []
    base = Path.cwd()
    data = [os.path.relpath(p, base) for p in mentioned_paths(request, base)
            if p.is_file() and p.suffix[1:].lower() in DATA_EXT]
    pasted = pasted_file(turn.engine, request)
    data += [pasted] if pasted else []
    messages = turn.engine.messages
    ran = [str(m.get("content", "")) for i, m in enumerate(messages) if m.get("type") == "code" and not (
        i + 1 < len(messages) and str(messages[i + 1].get("content", "")).startswith("Not run:"))]
    code = "\n".join(ran + [r.code for r in turn.runs])
    return [n for n in dict.fromkeys(data) if not _read_in(n, code)]


_LISTS = re.compile(r"\b(?:glob|rglob|listdir|scandir|iterdir|walk)\b|\b(?:ls|find|grep\s+-r\w*)\s")
# A listing of the working folder itself: listdir(), listdir("."), glob("*.csv"), Path(".").iterdir(), ls.
_LISTS_HERE = re.compile(r"""(?:listdir|scandir|walk)\(\s*(?:['"]\.?/?['"])?\s*\)|\bglob\(\s*['"][^'"/]*['"]|"""
                         r"""Path\(\s*(?:['"]\.?/?['"])?\s*\)\.(?:r?glob|iterdir)|Path\.cwd\(\)|os\.getcwd\(\)|"""
                         r"""(?:^|[;&|]\s*)(?:ls|find \.|grep\s+-r\w*\s+\S+\s+\.)(?:\s|$)""", re.M)


def _read_in(path: str, code: str) -> bool:
    """Code may have read `path`: it names the file (or its stem: f"{m}.csv"), or lists the folder
    it is in (the one it names, or the working folder)."""
    if os.path.splitext(os.path.basename(path))[0] in code:
        return True
    folder = os.path.dirname(path)
    if not _LISTS.search(code):
        return False
    return folder in code if folder else bool(_LISTS_HERE.search(code))


def _changes_asked(request: str) -> bool:
    """The request asks to change files (not a question, not a script to fix: the fix asks' own check,
    core/rules/fix_asks.py)."""
    from oi_local.core.fixes import targets
    from oi_local.core.writes import question, unnegated

    return not question(request) and bool(CHANGE.search(unnegated(request))) and not targets(request)


def _changes_named(request: str, before: Snapshot) -> bool:
    """The request asks to change files it names (a file, or a folder as "scans/" or "the scans folder")."""
    if not _changes_asked(request):
        return False
    folders = {part for rel in before for part in os.path.dirname(rel).split(os.sep) if part}
    return any(re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", request) for n in _by_name(before)) or any(
        re.search(rf"(?<![\w.-]){re.escape(f)}(?:/|\s+(?:folder|directory)\b)", request, re.I) for f in folders)


def follow_up(turn: Turn) -> Any:
    if (not turn.steps or not turn.steps_left or turn.counts["outputs"] >= 1 or asks_back(turn.engine)
            or careful(turn.request)):
        return None
    from oi_local.core.beyond_code import beyond_code

    last = turn.runs[-1] if turn.runs else None  # loop mode's nudges are steps without runs
    if last is not None and last.failed and beyond_code(last.output):  # honest end says it failed
        return None
    found = problems(turn)
    if not found:
        return None
    turn.counts["outputs"] += 1
    missing = [p.split(" was not created")[0] for p in found if " was not created" in p]
    note = NOTE.format(problems="; ".join(found))
    if missing:  # told only "does what I asked", the model printed the list again and saved nothing (ho58 dev)
        note = note[:-2] + f", and saves {' and '.join(missing)}.)"
    return Ask(note, code_retry(turn.engine, 1))


rule = Rule(
    name="outputs", setting="check_outputs", start=start, follow_up=follow_up,
    summary="the files a request asks for are checked against the working folder when the model stops: a named "
            "result file or new folder that was not made, a file the turn left empty, a copy whose bytes differ from its "
            "source, a plot of a named data file by code that never read it, an answer to a question about a named data "
            "file or pasted text that no code that ran read, a request to change named files (move, "
            "rename, replace, join, add a row, add it to the log ...) that left every file as it was, or that asked to add one-word items "
            "(\"add yusuf and carmen\") that no changed file holds, or to take named items off a list (\"take Ben off\") that a "
            "list file here still holds as lines, or to change a file in place that it left as it was, or to hold each thing "
            "once (\"only once\", \"no duplicates\") that it wrote with a header row, a key (email, id ...) or a line twice, or to make a CSV of only some rows of "
            "another (\"only\", \"where\" ...) that holds every row, or only its header row; a new "
            "file whose bytes are not the kind its name says (a zip archive called reports.tar.gz) "
            "(also in the home folders it names, "
            "as ~/Downloads); the model is told what is wrong and "
            "asked once for code that does it (not after a failure no code can fix: no network, a damaged file)")
