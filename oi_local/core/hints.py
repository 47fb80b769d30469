"""Workspace hints: a short look at the files and folders a request names.

A small model cannot explore before it writes code: asked about sales.csv it guesses the column
names, asked to fix greet.py it writes a new script instead. Showing the first lines of a named
file (or the names in a named folder) next to the request lets it write the right code the first
time. Bounded and read-only: a few paths, a few lines each, text files only.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

MAX_PATHS = 3
MAX_LINES = 24
MAX_CHARS = 1200
MAX_ENTRIES = 30
MAX_CHECK_BYTES = 200_000  # Python files read whole for problems (pycheck) up to this size
MAX_DATA_BYTES = 2_000_000  # JSON files are summarised from the whole file up to this size

# JSON files are described, not shown: shown a JSON list, a small model pastes it into its code or
# assumes a variable `users` already holds it; told the keys, it opens the file and uses them.
# (CSV summaries were tried too: the model did worse than with the first lines, so those stay.)
_DATA_SUFFIXES = {".json"}

# Path-like words: "sales.csv", "src/app.py", "notes/", "./data.json"
_PATHISH = re.compile(r"[\w.~/-]*[\w/](?:\.[\w]+)?")
_FOLDER_WORD = re.compile(r"\b(?:the\s+)?([\w.-]+)\s+(?:folder|directory|dir|subfolder)\b|\b(?:folder|directory)\s+(?:called\s+|named\s+)?([\w.-]+)", re.I)
_HERE = re.compile(r"\b(?:this|current|the working)\s+(?:folder|directory)\b", re.I)


def mentioned_paths(text: str, cwd: Path) -> list[Path]:
    """Existing files/folders under `cwd` that the text names, in order of mention."""
    found: list[Path] = []
    base = cwd.resolve()

    def add(word: str) -> None:
        word = word.strip("`'\".,;:!?()[]{}<>")
        if not word or word in (".", "..") or word.startswith(("/", "~")):
            return
        p = (base / word).resolve()
        try:
            p.relative_to(base)  # never look outside the working folder
        except ValueError:
            return
        if p != base and p.exists() and p not in found:
            found.append(p)

    for m in _FOLDER_WORD.finditer(text):
        add(m.group(1) or m.group(2) or "")
    for m in _PATHISH.finditer(text):
        w = m.group(0)
        if "." in w.strip(".") or "/" in w:
            add(w)
        elif ("_" in w or "-" in w.strip("-")) and (base / w).is_dir():  # "my weather_bot project"
            add(w)
    if _HERE.search(text) and base not in found:
        found.append(base)
    if not found:
        found = by_stem(text, base)
    return found[:MAX_PATHS]


# Data files a request may name by their stem alone: "plot the prices" with prices.csv here.
STEM_SUFFIXES = {".csv", ".tsv", ".json", ".jsonl", ".xlsx", ".xls", ".txt", ".log", ".dat"}
MAX_SCAN = 500  # entries of the working folder looked at for stems


def by_stem(text: str, cwd: Path) -> list[Path]:
    """Data files in the working folder (not below it) whose name without its extension is a word of
    `text`, when no other data file there has that stem. Asked to "plot the prices and save as
    prices.png" beside prices.csv, the 0.5B model plotted made-up numbers: it was never shown the file."""
    # A stem after "the", "my", "in", ... ("plot the prices", "from my expenses"), not any word ("how big").
    words = {w for pair in re.findall(r"\b(?:the|my|our|your|this|that|these|those|in|from|of)\s+([\w-]+)(?:\s+([\w-]+))?",
                                      text.lower()) for w in pair if w}
    stems: dict[str, list[Path]] = {}
    try:
        with os.scandir(cwd) as it:
            for i, e in enumerate(it):
                if i >= MAX_SCAN:
                    break
                suffix = os.path.splitext(e.name)[1].lower()
                if suffix in STEM_SUFFIXES and not e.name.startswith(".") and e.is_file():
                    stems.setdefault(e.name[: -len(suffix)].lower(), []).append(Path(e.path).resolve())
    except OSError:
        return []
    return [paths[0] for stem, paths in sorted(stems.items()) if stem in words and len(paths) == 1]


MAX_SAMPLE = 400  # characters of JSON shown as a sample


def _keys(obj: object) -> str:
    return ", ".join(str(k) for k in list(obj)[:20]) if isinstance(obj, dict) else ""


def _sample(obj: object) -> str | None:
    """`obj` as one line of JSON if it is short enough to show whole, else None.

    A small model guesses nested key names ("unit_price", "count") from the top-level keys alone;
    one whole record shows them.
    """
    import json

    text = json.dumps(obj, ensure_ascii=False)
    return text if len(text) <= MAX_SAMPLE else None


def _data_summary(p: Path, name: str) -> str | None:
    """A line or two about a JSON file's shape, or None (not JSON, too big)."""
    import json

    try:
        if p.stat().st_size > MAX_DATA_BYTES:
            return None
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if isinstance(data, list):
        if data and all(isinstance(x, dict) for x in data):
            line = f"The file {name} holds a JSON list of {len(data)} objects with the keys {_keys(data[0])}."
            first = _sample(data[0])
            return line + (f" The first one is:\n{first}" if first else "")
        return f"The file {name} holds a JSON list of {len(data)} items."
    if isinstance(data, dict):
        line = f"The file {name} holds a JSON object with the keys {_keys(data)}."
        whole = _sample(data)
        if whole:
            return line + f" It is:\n{whole}"
        return line + "".join(_records(key, value) for key, value in list(data.items())[:20])
    return None


def _records(key: str, value: object) -> str:
    """The shape of a list of records under a key of a JSON object ("animals": [{...}, ...]), which
    the object's keys alone do not show: a small model guessed `data["animals"]["cats"]`."""
    if not (isinstance(value, list) and value and all(isinstance(x, dict) for x in value)):
        return ""
    first = _sample(value[0])
    return (f'\nIts "{key}" is a list of {len(value)} objects with the keys {_keys(value[0])}.'
            + (f" The first one is:\n{first}" if first else ""))


def _file_preview(p: Path, name: str, base: Path | None = None) -> str | None:
    if p.suffix.lower() in _DATA_SUFFIXES:
        summary = _data_summary(p, name)
        if summary:
            return summary
    try:
        with open(p, "rb") as f:
            head = f.read(MAX_CHARS + 1)
        size = p.stat().st_size
    except OSError:
        return None
    if b"\0" in head:
        return f"({name} is a binary file of {size} bytes.)"
    text = head[:MAX_CHARS].decode("utf-8", errors="replace")
    lines = text.splitlines()
    cut = len(head) > MAX_CHARS or len(lines) > MAX_LINES
    if len(head) > MAX_CHARS and lines:
        lines = lines[:-1]  # the last line may be cut mid-way
    lines = lines[:MAX_LINES]
    if not lines:
        return f"({name} is empty.)"
    if not cut and _header_only(p, lines):
        # Shown "night_log.csv contains: timestamp,temp_c", the 0.5B model answered "None" for the
        # highest temperature logged: say there is no data, not just what there is.
        return f"({name} has a header line and no rows of data: {lines[0]})"
    title = f"First lines of {name}:" if cut else f"{name} contains:"
    preview = title + "\n" + "\n".join(lines)
    if p.suffix == ".py" and size <= MAX_CHECK_BYTES:
        from oi_local.core.pycheck import review

        found, fixed = review(p.read_text(encoding="utf-8", errors="replace"), name, base)
        if found:  # where it fails: a small model asked to fix a script copies it back unchanged otherwise
            preview += f"\n\nProblems in {name}:\n" + "\n".join(found)
            if fixed is not None and len(fixed) <= MAX_CHARS:  # and it copies a corrected version as readily
                preview += f"\n\nWith that corrected, {name} would be:\n" + fixed.rstrip("\n")
    return preview


def _header_only(p: Path, lines: list[str]) -> bool:
    """A CSV or TSV whose whole text is these `lines`, and they are its header alone."""
    return len(lines) == 1 and p.suffix.lower() in (".csv", ".tsv")


def _folder_preview(p: Path, name: str, prefix: str = "") -> str | None:
    try:
        entries = sorted(os.scandir(p), key=lambda e: e.name)
    except OSError:
        return None
    # Paths relative to the working folder ("logs/app.log", not "app.log"): small models use the
    # names they are shown as paths as they are.
    names = [prefix + e.name + ("/" if e.is_dir() else "") for e in entries if not e.name.startswith(".")]
    if not names:
        return f"({name} is empty.)"
    more = f" and {len(names) - MAX_ENTRIES} more" if len(names) > MAX_ENTRIES else ""
    return f"{name} contains: " + ", ".join(names[:MAX_ENTRIES]) + more


# A request that moves files about and does nothing with what is in them. Shown a file's first
# lines, the 0.5B model processes them: asked to put a copy of a Markdown draft in a new folder it
# read the draft's table with pandas and averaged a column, and asked to copy items.csv into a backup
# folder it rewrote the CSV by hand. Such a request gets each file's size, not its lines.
_FILE_OPS = re.compile(r"\b(?:cop(?:y|ies|ied|ying)|duplicat\w*|back(?:ing|s|ed)?\s+(?:\S+\s+){0,2}up|backup|mov(?:e|es|ed|ing)|"
                       r"renam\w*|zip\w*|compress\w*|archiv\w*|tar|gzip\w*|delet\w*|remov\w*|trash\w*)\b", re.I)
_CONTENT = re.compile(r"\b(?:lines?|words?|rows?|columns?|fields?|records?|entries|count\w*|sum|total|average|mean|"
                      r"median|max\w*|min\w*|plot\w*|chart|graph|fix\w*|read|contents?|say|says|mention\w*|contain\w*|"
                      r"search\w*|find|grep|sort\w*|replac\w*|edit\w*|add|append\w*|convert\w*|summar\w*|print\w*|"
                      r"show\w*|how\s+many|how\s+much|what|which|where|dedup\w*|duplicates|merg\w*|combin\w*|join\w*|"
                      r"split\w*|extract\w*|unzip\w*|list\w*|filter\w*|only|except|header|blank|empty|chang\w*|set|updat\w*|"
                      r"modif\w*|rewrit\w*|correct\w*|translat\w*|clean\w*|format\w*|strip\w*|trim\w*|upper\w*|lower\w*|"
                      r"insert\w*|calculat\w*|comput\w*|analy\w*|check\w*|compar\w*|diff)\b", re.I)

_PATH_WORDS = re.compile(r"[\w.~-]*/[\w./-]*|\b[\w-]+\.[A-Za-z]\w{0,4}\b")


def file_operation(request: str) -> bool:
    """True for "put a copy of essay/draft.md in a new folder essay/backup", not for "copy the rows
    of sales.csv where the region is north into north.csv"."""
    words = _PATH_WORDS.sub(" ", request)  # "copy lines.txt to old/" says nothing about lines
    return bool(_FILE_OPS.search(words)) and not _CONTENT.search(words)


def _size_line(p: Path, name: str) -> str | None:
    try:
        size = p.stat().st_size
    except OSError:
        return None
    return f"({name} is a file of {size:,} bytes.)"


# A name in the request (capitalised, not its first word, not quoted) that no named file holds: asked
# how many goals Kofi scored, the 0.5B model counted "Kojo" in the file and answered 2.
_NAME = re.compile(r"(?<=[a-z0-9,;:] )[A-Z][a-z]{2,}\b")
_QUOTES = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`")
_NOT_A_NAME = frozenset(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday python json csv excel celsius fahrenheit".split())
MAX_NAMED_BYTES = 200_000  # files read whole to look for the names a request uses


_TEXT_DATA = STEM_SUFFIXES - {".xlsx", ".xls"}  # data files a name in them is readable in as is


def _missing_names(text: str, files: list[tuple[Path, str]]) -> list[str]:
    """The names `text` uses that none of `files` holds (all of them readable, else none)."""
    first = _QUOTES.sub(" ", _PATH_WORDS.sub(" ", text.split("\n\n")[0]))
    names = [n for n in dict.fromkeys(_NAME.findall(first)) if n.lower() not in _NOT_A_NAME]
    if not names or not files:
        return []
    held = []
    for p, _ in files:
        try:
            if p.stat().st_size > MAX_NAMED_BYTES:
                return []
            held.append(p.read_bytes().decode("utf-8", errors="replace").lower())
        except OSError:
            return []
    whole = "\n".join(held)
    # A plural or possessive name is held in its plain form ("Mugs" in a file of "Mug").
    return [n for n in names if not any(v in whole for v in (n.lower(), n.lower().rstrip("s")) if len(v) > 2)]


# The thing a question asks for: "find Marta's phone number in ...", "whats the wifi password?", "where is the spare
# key": up to three words after the asking words (and a the/my/someone's), cut at the first small word.
_ASKED_THING = re.compile(r"\b(?:what(?:'s|s|\s+is|\s+was|\s+are|\s+were)|where(?:'s|s|\s+is|\s+are|\s+was)|find|look\s+up|"
                          r"tell\s+me|give\s+me)\s+(?:(?:the|my|our|his|her|their|its|a|an)\s+|(?:[A-Z][\w-]*\s+){0,2}"
                          r"[A-Z][\w-]*'s\s+)?((?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)", re.I)
_SMALL = frozenset("in for of from and or on at to is was are were that this with did do does has have if by "
                   "about when which who whos whose whom what whats how why much many each every everyone i we you it they "
                   "there here so just actually really".split())
# Words that say what is done with the data (or name it too generally) rather than a thing that must be in it.
_GENERIC = frozenset(
    "number numbers name names date dates time times day days week weeks month months year years code id amount total "
    "sum average mean median count value values one ones thing things list most least common word words line lines "
    "file files folder biggest largest smallest highest lowest longest shortest oldest newest latest first last next "
    "best worst cheapest dearest difference size price cost percent percentage share rate result answer status "
    "overall altogether altogether entry entries row rows record records person people item items new old".split())
_SAME = {"phone": ("phon", "tel", "mobile", "cell"), "email": ("mail",), "e-mail": ("mail",), "wifi": ("wifi", "wi-fi", "wlan", "wireless"),
         "birthday": ("birth", "born", "dob"), "address": ("addr", "street", "road", "postcode", "zip")}


_WORKED_OUT = frozenset("average averages mean median total totals sum grand overall per exact margin revenue profit "
                        "difference change growth ratio share percentage percent rate count".split())
_CODE = frozenset(".py .sh .js .ts .rb .pl .r .ps1 .bat .ipynb".split())
_PHONE = re.compile(r"\+?\d[\d ()-]{6,}\d")


def _phone_like(text: str) -> bool:
    """A number written as a phone number is (eight digits or more; not a date, a plain amount or an id)."""
    return any(sum(c.isdigit() for c in m) >= 8 and not re.fullmatch(r"\d{4}-\d\d-\d\d|\d+", m.strip())
               for m in _PHONE.findall(text))


def _missing_things(text: str, files: list[tuple[Path, str]]) -> list[str]:
    """What a question asks for that none of `files` mentions ("phone number" of a service log with no phone
    column; "wifi password" of a host's notes without it): asked for Marta's phone number in such a log, the 0.5B
    model answered the price of her bike job; a word is held when its first four letters (or a word for it) are."""
    if not files:
        return []
    asked = []
    for m in _ASKED_THING.finditer(text.split("\n\n")[0]):
        words = m.group(1).lower().split()
        words = words[:next((i for i, w in enumerate(words) if w in _SMALL), len(words))]
        # A thing to work out ("average commute time", "total revenue") is named by what it is made of,
        # which the data calls otherwise (minutes, qty and price): only a thing to look up is looked for.
        if words and not _WORKED_OUT & set(words):
            asked.append(words)
    if not asked:
        return []
    held = []
    for p, _ in files:
        try:
            if p.stat().st_size > MAX_NAMED_BYTES or p.suffix.lower() in _CODE:
                return []  # a script's bug is not written in it as "bug"
            held.append(p.read_bytes().decode("utf-8", errors="replace").lower())
        except OSError:
            return []
    whole = "\n".join(held)
    missing = []
    for words in asked:
        # a superlative ("hottest", "busiest") says how to pick, not what to find
        things = [w for w in words if w not in _GENERIC and len(w) > 2 and not (len(w) > 5 and w.endswith("est"))]
        gone = [w for w in things if not any(v in whole for v in _SAME.get(w, (w[:4],)))
                and not (w == "phone" and _phone_like(whole))]
        if things and len(gone) == len(things):  # one word held ("email" of "email address") may be the thing
            missing.append(" ".join(words))
    return list(dict.fromkeys(missing))


def _not_held(missing: list[str], files: list[tuple[Path, str]], one: str, many: str) -> str:
    """"Kofi appears nowhere in goals.json": `one` or `many` for the verb, as the names are one or more."""
    verb = one if len(missing) == 1 else many
    return f"{', '.join(missing)} {verb} in {' or '.join(name for _, name in files)}"


def workspace_hints(text: str, cwd: str | os.PathLike[str] | None = None) -> str:
    """The previews for `text`, or "" when it names nothing that exists."""
    base = Path(cwd or os.getcwd())
    parts = []
    sizes_only = file_operation(text)
    named: list[tuple[Path, str]] = []
    for p in mentioned_paths(text, base):
        name = "." if p == base.resolve() else os.path.relpath(p, base.resolve())
        if p.is_dir():
            preview = _folder_preview(p, "The current folder" if name == "." else f"The folder {name}/",
                                      "" if name == "." else f"{name}/")
        elif sizes_only:
            preview = _size_line(p, name)
        else:
            preview = _file_preview(p, name, base.resolve())
            if p.suffix.lower() in _TEXT_DATA:
                named.append((p, name))
        if preview:
            parts.append(preview)
    missing = _missing_names(text, named) if parts and not sizes_only else []
    things = _missing_things(text, named) if parts and not sizes_only else []
    # Told only that the wifi password is not there, the 0.5B model dropped the other half of "where is the
    # spare key, and whats the wifi password?" (ho45, a development run): the rest is asked for by name.
    rest = "; say so, and answer the rest from it" if things and len(_ASKED_THING.findall(text.split("\n\n")[0])) > len(things) else ""
    return "\n\n".join(parts + ([f"({_not_held(missing, named, 'appears nowhere', 'appear nowhere')}.)"] if missing else [])
                       + ([f"({' or '.join(n for _, n in named)} never mentions {' or '.join(things)}{rest}.)"] if things else []))


def data_gaps(text: str, cwd: str | os.PathLike[str] | None = None) -> list[str]:
    """What the files `text` names lack for it, as plain sentences: a CSV with no rows, a name that
    no named file holds. Empty when nothing is known to be missing."""
    base = Path(cwd or os.getcwd())
    if file_operation(text):
        return []
    gaps, named = [], []
    for p in mentioned_paths(text, base):
        if not p.is_file() or p.suffix.lower() not in _TEXT_DATA:
            continue
        name = os.path.relpath(p, base.resolve())
        named.append((p, name))
        with open(p, "rb") as f:
            head = f.read(MAX_CHARS + 1)
        if len(head) <= MAX_CHARS and _header_only(p, head.decode("utf-8", errors="replace").splitlines()):
            gaps.append(f"{name} has a header line but no rows of data.")
    missing = _missing_names(text, named)
    if missing:
        gaps.append(_not_held(missing, named, "does not appear anywhere", "do not appear anywhere") + ".")
    things = _missing_things(text, named)
    if things:
        gaps.append(f"{' or '.join(n for _, n in named)} never mentions {' or '.join(things)}, so that is not in it.")
    return gaps
