"""Targets: where the code puts what the request asked for. Two slips of the 0.5B model, both silent:
- asked to copy a file "into a new backup folder, budget/backup", it ran `shutil.copy(src,
  "budget/backup")` with no such folder, which makes a *file* named backup; the folder is made
  first (`os.makedirs` / `mkdir -p`) when the request calls that name a folder;
- asked for "story/whole_story.txt", it wrote `open("whole_story.txt", "w")` in the working folder;
  a written bare name that the request gives with its folder is written there;
- asked to copy a file "into a new backup folder", its first code made `backup_folder` in 26 of 30
  recorded runs of two such requests (the other 4 copied beside the file): the folder is named backup;
  a copy beside the file (`pantry_items_backup.csv`) goes into that folder; a named folder written
  with "_" for "/" (`thesis_backup_oct` for thesis/backup_oct) is written as named; a copy to the
  named folder's path with an extension (household/budget_backup.csv) goes into the folder;
- asked to sort "my desktop folder" into "a subfolder called images", it made ./images: a subfolder
  the request asks for, of the one folder it names, is made inside that folder.
The code is changed before it runs (and before any confirmation) and the person is told."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, rewrite

NOTE = "Changed before it ran: {changes}."
_FOLDER_WORD = re.compile(r"\b(?:folder|directory|dir)\b", re.I)
_NAMED = re.compile(r"(?<![\w/.-])((?:[\w-]+/)+[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/-])")
_COPIERS = {"copy", "copy2", "move"}  # a folder as destination is fine for these (not copyfile)


def _folder_named(dest: str, request: str) -> bool:
    """`dest` is a missing, extension-less path whose last part the request calls a folder."""
    name = os.path.basename(dest.rstrip("/"))
    if not name or "." in name or any(c in dest for c in "*?$`{") or Path(dest).exists():
        return False
    return bool(_FOLDER_WORD.search(request)) and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", request) is not None


def _python_copy_targets(tree: ast.AST, request: str = "") -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _COPIERS and isinstance(func.value, ast.Name) \
                    and func.value.id == "shutil":
                dest, src = node.args[1], node.args[0]
                if isinstance(dest, ast.Constant) and isinstance(dest.value, str) and not (
                        isinstance(src, ast.Constant) and isinstance(src.value, str) and _renamed(src.value, dest.value, request)):
                    found.append(dest.value)
    return found


def _renamed(src: str, dest: str, request: str) -> bool:
    """A folder copied or moved to a new name becomes that folder (`cp -r thesis thesis_backup`): made first, the
    copy went inside it, thesis_backup/thesis (seen by the helper writing ho52's oracle); unless the request asks
    for it *into* that folder."""
    name = os.path.basename(dest.rstrip("/"))
    return Path(src.rstrip("/")).is_dir() and not re.search(rf"\b(?:into|inside)\b[^.?!]*(?<![\w.-]){re.escape(name)}(?![\w.-])",
                                                          request, re.I)


def _shell_copy_targets(code: str, request: str = "") -> list[str]:
    from oi_local.core.deletions import _commands

    found = []
    for cmd, args in _commands(code):
        plain = [a for a in args if not a.startswith("-")]
        if cmd in ("cp", "mv") and len(plain) >= 2 and not (len(plain) == 2 and _renamed(plain[0], plain[1], request)):
            found.append(plain[-1])
    return found


def new_folders(lang: str, code: str, request: str) -> list[str]:
    """Folders the request asks for that the code copies into without making them."""
    if lang == "python":
        try:
            targets = _python_copy_targets(ast.parse(code), request)
        except SyntaxError:
            return []
    elif lang in SHELLS:
        targets = _shell_copy_targets(code, request)
    else:
        return []
    return [d.rstrip("/") for d in dict.fromkeys(targets) if _folder_named(d, request)]


def misplaced(code: str, request: str) -> dict[str, str]:
    """Bare names the Python code writes that the request gives with a folder: {"whole_story.txt":
    "story/whole_story.txt"}, or puts in a folder it names another way (outputs.placed: "same folder
    is fine", "(in the novel folder)") (only when the request names one such path, new in a folder that exists:
    "my log is reading/books.csv" with `open("books.csv", "w")` would have been an overwrite)."""
    from oi_local.core.writes import changed_paths

    try:
        written = changed_paths("python", code)
    except SyntaxError:
        return {}
    from oi_local.core.rules.outputs import TARGET, placed

    named: dict[str, list[str]] = {}
    put = [placed(request, m.group(1).rstrip(".")) for m in TARGET.finditer(request)]
    for p in dict.fromkeys([m.group(1) for m in _NAMED.finditer(request)] + [q for q in put if "/" in q]):
        named.setdefault(os.path.basename(p), []).append(p)
    return {w: named[w][0] for w in dict.fromkeys(written)
            if "/" not in w and len(named.get(w, [])) == 1 and Path(named[w][0]).parent.is_dir()
            and not Path(w).exists() and not Path(named[w][0]).exists()}


# "a new backup folder", "the archive folder": the word before "folder" names it.
_CALLED = re.compile(r"\b(?:a|an|the|my|new)\s+(?:new\s+)?([a-z][\w-]*)\s+(?:folder|directory)\b", re.I)
_NOT_NAMES = frozenset("new separate different sub same own other empty single whole one this that".split())


def folder_word(lang: str, code: str, request: str) -> dict[str, str]:
    """{"backup_folder": "backup"}: a made-up folder name in the code's strings that only adds "folder"
    to the word the request names its new folder by, when no such path exists and the request does
    not say it."""
    words = {m.group(1) for m in _CALLED.finditer(request) if m.group(1).lower() not in _NOT_NAMES}
    text = code if lang in SHELLS else "\n".join(value for _, value in _plain_strings(code))
    found = {}
    for word in words:
        pattern = rf"(?<![\w$-])(?:new_)?{re.escape(word)}[_-]?(?:folder|dir|directory)(?![\w-])"
        for made in re.findall(pattern, text, re.I):
            if made.lower() not in request.lower() and not Path(made).exists() and not Path(word).is_file():
                found[made] = word
    return found


_FOLDER_PATH = re.compile(r"(?<![\w/.-])((?:[\w-]+/)+[\w-]+)/?(?![\w/.-])")


def flattened(lang: str, code: str, request: str) -> dict[str, str]:
    """{"thesis_backup_oct": "thesis/backup_oct"}: a folder the request names, written with its "/" as
    "_" (ho26: copied into a new thesis_backup_oct beside thesis/), when that name is not there and the
    named folder's parent is."""
    text = code if lang in SHELLS else "\n".join(value for _, value in _plain_strings(code))
    found = {}
    for path in dict.fromkeys(_FOLDER_PATH.findall(request)):
        flat = path.replace("/", "_")
        if re.search(rf"(?<![\w$-]){re.escape(flat)}(?![\w-])", text) and not Path(flat).exists() \
                and Path(path).parent.is_dir() and flat not in request:
            found[flat] = path
    return found


# "into a subfolder called images", "a sub-folder named documents"
_SUBFOLDER = re.compile(r"\bsub-?(?:folder|directory)s?\s+(?:called|named)\s+['\"`]?([\w-]+)", re.I)


def inside_named(code: str, request: str) -> dict[str, str]:
    """{"images": "desktop/images"}: asked to sort "my desktop folder" into "a subfolder called images",
    the 0.5B model made ./images beside desktop/ (ho5-files-sort-desktop); where the request names one
    folder that is here, a subfolder it asks for that is not here at the top is that folder's. Only
    Python strings that are the name or start with it ("images/" + p.name)."""
    from oi_local.core.hints import mentioned_paths

    names = [n for n in dict.fromkeys(m.group(1) for m in _SUBFOLDER.finditer(request)) if not Path(n).exists()]
    if not names:
        return {}
    base = Path.cwd().resolve()
    folders = [p for p in mentioned_paths(request, base) if p.is_dir() and p.name not in names]
    if len(folders) != 1:
        return {}
    parent = folders[0].relative_to(base).as_posix()
    values = [v for _, v in _plain_strings(code)]
    return {n: f"{parent}/{n}" for n in names if any(v.strip("/") == n or v.startswith(n + "/") for v in values)}


def _prefixed(code: str, folders: dict[str, str]) -> str:
    """`code` with each string that is one of `folders` or starts with it ("images/") put in its place."""
    def new(value: str) -> str:
        for old, full in folders.items():
            if value.strip("/") == old or value.startswith(old + "/"):
                return full + value[len(old):]
        return value

    return rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or n.col_offset, repr(new(value)))
                          for n, value in _plain_strings(code) if new(value) != value])


def _file_copies(code: str) -> list[tuple[str, str]]:
    """(source, destination) of each `shutil.copy/copy2/copyfile` of a file that is there to a new path,
    both written as strings."""
    found = []
    for node in ast.walk(_tree(code)):
        if isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("copy", "copy2", "copyfile") and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "shutil":
            src, dest = (a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args[:2])
            if src and dest and Path(src).is_file() and not Path(dest).exists():
                found.append((src, dest))
    return found


def beside(code: str, request: str) -> dict[str, str]:
    """{"kitchen/pantry_items_backup.csv": "kitchen/backup/pantry_items.csv"}: asked for a copy "in a new
    backup folder" (no folder named), a Python copy to a new file beside the original goes into that
    folder, next to where the copy was put, under the original's name (ho24: the copy beside the file,
    then `pass` when told no folder was made)."""
    called = [m for m in _CALLED.finditer(request) if m.group(1).lower() not in _NOT_NAMES
              and not re.match(r"\s*[,:]?\s*(?:called|named|\S*/)", request[m.end():])]
    if len(called) != 1:
        return {}
    word = called[0].group(1)
    found = {}
    for src, dest in _file_copies(code):
        if os.path.splitext(dest)[1] and Path(dest).parent.is_dir() and word.lower() not in os.path.dirname(dest).lower():
            found[dest] = os.path.join(os.path.dirname(dest), word, os.path.basename(src))
    return found


def as_file(code: str, request: str) -> dict[str, str]:
    """{"household/budget_backup.csv": "household/budget_backup/budget_2026.csv"}: asked to copy a file
    "into a new folder called household/budget_backup", a Python copy to that folder's name with an
    extension (a file beside it, not the folder) goes into the folder under the original's name."""
    found = {}
    for src, dest in _file_copies(code):
        folder, ext = os.path.splitext(dest)
        if ext and "/" in folder and folder in request and _folder_named(folder, request):
            found[dest] = os.path.join(folder, os.path.basename(src))
    return found


_NEW_NAME_ASKED = re.compile(r"\b(?:call|name|rename)\s+(?:it|the\s+copy|that|them)\b|\bnamed\s+['\"`]?[\w.-]+\.\w+|"
                             r"\bas\s+['\"`]?[\w.-]+\.[A-Za-z]\w*", re.I)


def same_name(code: str, request: str) -> dict[str, str]:
    """{"backups_march/backup_shop_inventory.csv": "backups_march/shop_inventory.csv"}: asked to put "a copy of
    shop_inventory.csv" in a new folder the request names, the 0.5B model gave the copy a new name of its own,
    and the copy asked for was not there (ho45, read after session 46's end). A copy into the named folder
    keeps the original's name, unless the request gives the copy a name."""
    if _NEW_NAME_ASKED.search(request):
        return {}
    found = {}
    for src, dest in _file_copies(code):
        folder, name = os.path.split(dest)
        if folder and name != os.path.basename(src) and name not in request and re.search(
                rf"(?<![\w/.-]){re.escape(folder)}(?![\w.-])", request) and os.path.splitext(name)[1]:
            found[dest] = os.path.join(folder, os.path.basename(src))
    return found


def _tree(code: str) -> ast.AST:
    try:
        return ast.parse(code)
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def _renamed_in_strings(lang: str, code: str, names: dict[str, str]) -> str:
    """`code` with each of `names` renamed inside its string literals (Python) or anywhere (shell,
    where a variable `$backup_folder` keeps its name)."""
    def sub(text: str) -> str:
        for old, new in names.items():
            text = re.sub(rf"(?<![\w$-]){re.escape(old)}(?![\w-])", new, text)
        return text

    if lang in SHELLS:
        return sub(code)
    return rewrite(code, [(n.lineno, n.col_offset, n.end_col_offset or n.col_offset, repr(sub(value)))
                          for n, value in _plain_strings(code) if sub(value) != value])


def _plain_strings(code: str) -> list[tuple[ast.Constant, str]]:
    """The one-line string literals of Python `code` (not the parts of f-strings, whose offsets
    Python 3.11 does not give)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    inside_f = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    return [(n, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in inside_f and n.lineno == n.end_lineno]


def _put_first(lang: str, code: str, folders: list[str]) -> str:
    if lang == "python":
        made = "".join(f"os.makedirs({f!r}, exist_ok=True)\n" for f in folders)
        return "import os\n" + made + code
    return "".join(f"mkdir -p '{f}'\n" for f in folders) + code


def _rename(code: str, moves: dict[str, str]) -> str:
    for old, new in moves.items():
        code = re.sub(rf"""(["']){re.escape(old)}\1""", lambda m: m.group(1) + new + m.group(1), code)
    return code


def check(turn: Turn, block: Block) -> Verdict | None:
    request = turn.request
    code = block.code
    changes = []
    moves = misplaced(code, request) if block.lang == "python" else {}
    if moves:
        code = _rename(code, moves)
        changes += [f"{old} → {new} (the path the request gives)" for old, new in moves.items()]
    names = {**folder_word(block.lang, code, request), **flattened(block.lang, code, request)} \
        if block.lang == "python" or block.lang in SHELLS else {}
    if names:
        code = _renamed_in_strings(block.lang, code, names)
        changes += [f"{old} → {new} (the folder the request names)" for old, new in names.items()]
    inside = inside_named(code, request) if block.lang == "python" else {}
    if inside:
        code = _prefixed(code, inside)
        changes += [f"{old} → {new} (the request asks for a subfolder of {os.path.dirname(new)})" for old, new in inside.items()]
    copies = {**beside(code, request), **as_file(code, request)} if block.lang == "python" else {}
    kept = same_name(code, request) if block.lang == "python" and not copies else {}
    if kept:
        code = _renamed_in_strings("python", code, kept)
        missing = [f for f in dict.fromkeys(os.path.dirname(new) for new in kept.values()) if not Path(f).is_dir()]
        code = _put_first("python", code, missing) if missing else code
        changes += [f"{old} → {new} (a copy keeps the original's name)" for old, new in kept.items()]
    if copies:
        code = _put_first("python", _renamed_in_strings("python", code, copies),
                          list(dict.fromkeys(os.path.dirname(new) for new in copies.values())))
        changes += [f"{old} → {new} (the request asks for a new folder)" for old, new in copies.items()]
    folders = new_folders(block.lang, code, request)
    if folders:
        code = _put_first(block.lang, code, folders)
        changes += [f"the folder {f} is made first (the request asks for a folder)" for f in folders]
    if not changes or code == block.code:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="targets", setting="correct_paths", check=check,
    summary="code that copies or moves into a missing folder the request asks for (`shutil.copy(f, \"backup\")`, "
            "which makes a file) has the folder made first; a bare file name the code writes that the request gives "
            "with its folder (`whole_story.txt` for story/whole_story.txt) is written there; asked for \"a new backup "
            "folder\", a made-up `backup_folder` is named backup and a copy beside the file goes into that folder; a "
            "named folder written with `_` for `/` (`thesis_backup_oct`) is written as named, and a copy to the named "
            "folder's path with an extension (`household/budget_backup.csv`) goes into it; a copy into the named folder keeps "
            "the original's name unless the request names the copy; a \"subfolder called images\" "
            "of the one folder the request names is made inside it; the person is told")
