"""Paths: code that reads a file by a path that is not there, when exactly one file of that name is in
the working folder or under it, reads that one instead. Small models write the name they were told
without its folder (`open("members.csv")` for bookclub/members.csv) or a placeholder folder
(`pd.read_csv("/path/to/sales.csv")`); the run fails with FileNotFoundError, and the 0.5B model's
next try fails the same way more often than not. Only reads are corrected, only to a file of the
very same name (never a close spelling: asked about week41.csv, reading week40.csv would be a wrong
answer, not a fix), and the person is told before the code runs. A copy's source is a read too
(`shutil.copy("budget.csv", "backup/")`, `cp budget.csv backup/`); its destination never is.
A folder of the person's home: asked "how many files in my Downloads folder are over 1 MB?", the code
listed `Path("Downloads")` in the working folder, which has none, and failed; ~/Downloads was there.
A relative path whose first part the request names, that is not in the working folder but is in the
home folder, is given its home path (in Python as the full path, in shell as ~/...). So is a folder the
code makes inside such a folder (asked to move PDFs into Documents/receipts, "both in my home folder",
the code made ./Documents/receipts), but not one it makes alone (`os.makedirs("Downloads")`).
A made-up absolute path ("/home/user/inbox") that is not there, whose last parts are here and named by
the request, is the path here.
Git run outside a repository, for a request about the one repository here, runs in it (`git -C repo`).
A made-up name in a named folder: told "there's a json file in reading/", the 0.5B model opened
reading/reading_books_2023.json three times (told after each try that reading/books_2023.json is there).
Where the request names a folder and no file of that kind, and the folder holds exactly one file of the
extension the code reads, that file is read."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn

NOTE = "Path corrected before it ran: {changes} (no such file here; the one of that name is used)."
ONLY_NOTE = "Path corrected before it ran: {changes} (no such file here; the only file of that kind in the folder you named is used)."
PASTED_NOTE = "Path corrected before it ran: {changes} (no such file here; the text you pasted is in that file)."
REPO_NOTE = "Changed before it ran: {changes} (the working folder is not a git repository)."
HOME_NOTE = "Path corrected before it ran: {changes} (not in the working folder; the one in your home folder is used)."
MAX_FILES = 2000  # files looked at under the working folder
_READ_FUNCS = {"open", "loadtxt", "genfromtxt", "load_workbook", "imread", "Image.open"}
_READ_METHODS = {"read_text", "read_bytes", "open"}
_COPIES = {"copy", "copy2", "copyfile"}  # shutil's: their first argument is read
_SHELL_COPIES = {"cp", "rsync"}  # every path but the last is read
_SHELL_READERS = {"cat", "head", "tail", "wc", "grep", "sort", "uniq", "cut", "awk", "less", "more", "nl", "tac",
                  "md5sum", "sha256sum", "file", "stat", "jq", "csvlook", "python", "python3", "bash", "sh", "source"}


def _files(folder: Path) -> list[str]:
    from oi_local.core.pycheck import folder_files

    return folder_files(folder, MAX_FILES)


def corrected(path: str, folder: Path, files: list[str] | None = None) -> str | None:
    """The one file under `folder` that a missing `path` must mean (the same name), or None."""
    if not path or "\n" in path or path.endswith("/") or any(c in path for c in "*?[{$"):
        return None
    full = Path(os.path.expanduser(path))
    if (folder / full).exists():
        return None
    name = full.name
    if not name or "." not in name:  # a name with an extension: "data" alone may be anything
        return None
    files = _files(folder) if files is None else files
    same = [f for f in files if os.path.basename(f) == name]
    if not same:
        same = [f for f in files if os.path.basename(f).lower() == name.lower()]
    return same[0] if len(same) == 1 and same[0] != path else None


def only_kind(path: str, folder: Path, request: str) -> str | None:
    """The one file of `path`'s extension in the folder the request names, for a made-up name that is
    not there ("reading/reading_books_2023.json" for reading/books_2023.json), when the request names
    no file of that extension itself; else None."""
    from oi_local.core.hints import mentioned_paths

    suffix = os.path.splitext(path)[1].lower()
    if not request or not suffix or "\n" in path or path.startswith(("/", "~")) or any(c in path for c in "*?[{$") \
            or (folder / path).exists() or re.search(rf"\w{re.escape(suffix)}\b", request, re.I):
        return None
    parent = os.path.dirname(path)
    try:
        named = [p for p in mentioned_paths(request, folder) if p.is_dir()]
        places = [folder / parent] if parent else named
        if not places or not all(p.is_dir() for p in places) or \
                (parent and (folder / parent).resolve() not in [n.resolve() for n in named]):
            return None
        fits = [f for p in places for f in p.iterdir() if f.is_file() and f.suffix.lower() == suffix]
    except OSError:
        return None
    if len(fits) != 1:
        return None
    found = os.path.relpath(fits[0], folder.resolve())
    # Asked about week 41, "logs/week41.csv" is what is asked, not a made-up name: the words and numbers
    # of the missing name that the request says are all in the one found.
    words = lambda text: set(re.findall(r"[a-z]+|\d+", text.lower()))  # noqa: E731
    return found if words(path) & words(request) <= words(found) else None


def cased(path: str, folder: Path, request: str) -> str | None:
    """`path` spelled as it is on disk, when it is not there as written, its first part is named in the
    request, and each missing part matches exactly one entry but for case ("downloads/": Downloads/).
    Asked which file in Downloads was newest, the 0.5B model listed `Path("downloads")`: fine on a
    Mac, FileNotFoundError here."""
    if not path or "\n" in path or path.startswith(("/", "~")) or "\\" in path or any(c in path for c in "*?[{$"):
        return None
    parts = [p for p in path.split("/") if p]
    if not parts or parts[0] in (".", "..") or (folder / path).exists() or \
            not re.search(rf"(?<![\w/.-]){re.escape(parts[0])}(?![\w-])", request, re.I):
        return None
    here, out = folder, list[str]()
    for part in parts:
        if not (here / part).exists():
            try:
                same = [e.name for e in here.iterdir() if e.name.lower() == part.lower()]
            except OSError:
                return None
            if len(same) != 1:
                return None
            part = same[0]
        here, out = here / part, [*out, part]
    new = "/".join(out) + ("/" if path.endswith("/") else "")
    return new if new != path else None


_HOME_FOLDER = re.compile(r"\bhome\s+(?:folder|directory|dir)\b", re.I)


def at_home(path: str, folder: Path, request: str) -> str | None:
    """The home folder path a relative `path` means ("Downloads/*.pdf": ~/Downloads/*.pdf) when its first
    part is named in `request`, is not in `folder` and is in the home folder, else None."""
    if not path or "\n" in path or path.startswith(("/", "~", ".")) or "\\" in path:
        return None
    first = path.split("/", 1)[0]
    if not first or any(c in first for c in "*?[{$") or (folder / first).exists():
        return None
    if first == "home" and _HOME_FOLDER.search(request):
        # "somewhere in my home folder": Path("home") is no folder here (ho45, read after session 46's end)
        return "." + path[len(first):]
    if not re.search(rf"(?<![\w/.-]){re.escape(first)}(?![\w-])", request, re.I):
        return None
    try:
        home = Path.home()
        there = [e.name for e in home.iterdir() if e.name.lower() == first.lower() and e.is_dir()]
    except (OSError, RuntimeError):
        return None
    if len(there) != 1 or home.resolve() == folder.resolve():
        return None
    return there[0] + path[len(first):]


def placeholder(path: str, folder: Path, request: str) -> str | None:
    """The path here that a made-up absolute one means: "/home/user/inbox" for inbox/, when it is not
    there, its last parts are here and the request names their first. Asked to count the .log files
    in the inbox folder, the 0.5B model walked "/home/user/inbox", found nothing and answered 0 (ho33)."""
    if not path.startswith(("/", "~")) or "\n" in path or any(c in path for c in "*?[{$"):
        return None
    full = Path(os.path.expanduser(path))
    try:
        if full.exists():
            return None
    except OSError:
        return None
    parts = [q for q in full.parts[1:] if q]
    for i in range(len(parts)):  # the longest tail first
        tail = "/".join(parts[i:])
        if (folder / tail).exists() and re.search(rf"(?<![\w/.-]){re.escape(parts[i])}(?![\w-])", request, re.I):
            return tail + ("/" if path.endswith("/") else "")
    return None


def _mode(call: ast.Call, at: int) -> str:
    mode = call.args[at] if len(call.args) > at else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else "r"


def _read_args(tree: ast.AST) -> list[ast.AST]:
    """The path expressions `tree` reads from: open(p), open(p, "r"), pd.read_csv(p), Path(p).read_text(),
    shutil.copy(p, ...) (asked to back up budget_2026.csv, the copy named it without its folder)."""
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if isinstance(func, ast.Attribute) and name in _READ_METHODS and isinstance(func.value, ast.Call) \
                and isinstance(func.value.func, ast.Name) and func.value.func.id == "Path" and func.value.args:
            if name != "open" or not set(_mode(node, 0)) & set("wax+"):
                found.append(func.value.args[0])
        elif node.args and name in _COPIES and (isinstance(func, ast.Name) or (isinstance(func, ast.Attribute)
                                                  and isinstance(func.value, ast.Name) and func.value.id == "shutil")):
            found.append(node.args[0])
        elif node.args and (name.startswith("read_") or name in _READ_FUNCS):
            if name != "open" or not set(_mode(node, 1)) & set("wax+"):
                found.append(node.args[0])
    return found


def _constants(tree: ast.AST, expr: ast.AST) -> list[ast.Constant]:
    """The string constant a path expression is: "a.csv" itself, or a name given it once (`f = "a.csv"`)."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr]
    if isinstance(expr, ast.Name):
        given = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
        if len(given) == 1 and isinstance(given[0], ast.Constant) and isinstance(given[0].value, str):
            return [given[0]]
    return []


_MAKERS = {"savefig", "save", "dump", "touch", "mkdir", "makedirs", "write_text", "write_bytes", "urlretrieve"}


def _made(tree: ast.AST) -> set[str]:
    """Paths the code itself makes (df.to_csv("a.csv"), plt.savefig("p.png"), urlretrieve(u, "f")): not to correct."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr.startswith("to_") or node.func.attr in _MAKERS):
            for a in [*node.args, *(k.value for k in node.keywords)]:
                found |= {str(c.value) for c in _constants(tree, a)}
            if isinstance(node.func.value, ast.Call):  # Path("a.txt").write_text(...)
                found |= {str(c.value) for a in node.func.value.args for c in _constants(tree, a)}
    return found


def _leading(expr: ast.AST) -> list[ast.Constant]:
    """The folder a joined path starts with: "Documents/receipts/" of `"Documents/receipts/" + p.name`."""
    if not (isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add)):
        return []
    while isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        expr = expr.left
    return [expr] if isinstance(expr, ast.Constant) and isinstance(expr.value, str) and "/" in expr.value else []


def _call_args(tree: ast.AST) -> list[ast.AST]:
    """The arguments of every call but print's: where a path is used (Path(p), os.listdir(p), glob(p))."""
    return [a for n in ast.walk(tree) if isinstance(n, ast.Call)
            and not (isinstance(n.func, ast.Name) and n.func.id == "print") for a in n.args]


def _pasted_for(path: str, folder: Path, request: str, pasted: str | None) -> str | None:
    """The pasted text's file for a read of a file that is not there and that the person's own words
    do not name. Told "There is no log.txt here: the text I pasted is in the file pasted-df43690e.txt",
    the 0.5B model read log.txt three times more."""
    from oi_local.core.rules.turn import instruction

    if not pasted or path == pasted or (folder / path).exists() or os.path.basename(path) in instruction(request):
        return None
    return pasted


def _python(code: str, folder: Path, request: str = "", pasted: str | None = None) -> tuple[str, list[str]]:
    from oi_local.core.writes import changed_paths

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    written = set(changed_paths("python", code)) | _made(tree)
    edits: dict[tuple[int, int, int], tuple[str, str]] = {}
    files: list[str] | None = None
    for expr in _read_args(tree):
        for const in _constants(tree, expr):
            path = str(const.value)
            if path in written or const.lineno != const.end_lineno:
                continue
            files = _files(folder) if files is None else files
            new = corrected(path, folder, files) or _pasted_for(path, folder, request, pasted)
            only = None if new else only_kind(path, folder, request)
            if new or only:
                edits[(const.lineno, const.col_offset, const.end_col_offset or 0)] = (path, new or only or "")
    for expr in _call_args(tree) if request else []:
        for const in _constants(tree, expr) + _leading(expr):
            path = str(const.value)
            spot = (const.lineno, const.col_offset, const.end_col_offset or 0)
            if spot in edits or const.lineno != const.end_lineno:
                continue
            # A path the code makes keeps its spelling, but not its place: asked to move PDFs "into
            # Documents/receipts" (both in the home folder), the code made ./Documents/receipts.
            made = path in written
            if made and "/" not in path.strip("/"):  # the code makes that folder itself, here
                continue
            new = None if made else cased(path, folder, request) or placeholder(path, folder, request)
            home = None if new else at_home(path, folder, request)
            if new or home:
                edits[spot] = (path, new or str(Path.home() / (home or "")) + ("/" if path.endswith("/") else ""))
    lines = code.splitlines(keepends=True)
    for (line, col, end), (_, new) in sorted(edits.items(), reverse=True):
        s = lines[line - 1].encode()
        lines[line - 1] = (s[:col] + repr(new).encode() + s[end:]).decode()
    return "".join(lines), [f"{old} → {new}" for old, new in dict.fromkeys(edits.values())]


def _shell(code: str, folder: Path, request: str = "") -> tuple[str, list[str]]:
    from oi_local.core.deletions import _commands
    from oi_local.core.writes import changed_paths

    written = set(changed_paths("shell", code))
    changes: dict[str, str] = {}
    files: list[str] | None = None
    for cmd, args in _commands(code):
        if cmd not in _SHELL_READERS and cmd not in _SHELL_COPIES:
            continue
        paths = [a for a in args if not a.startswith("-")]
        for a in paths[:-1] if cmd in _SHELL_COPIES else args:
            if a.startswith("-") or a in written or ("." not in a and "/" not in a):
                continue
            files = _files(folder) if files is None else files
            new = corrected(a, folder, files)
            if new:
                changes[a] = new
    for cmd, args in _commands(code) if request else []:
        for a in args:
            if a.startswith("-") or a in changes:
                continue
            if a in written and "/" not in a.strip("/"):
                continue
            new = None if a in written else cased(a, folder, request)
            home = None if new else at_home(a, folder, request)
            if new or home:
                changes[a] = new or "$HOME/" + (home or "")  # $HOME: expanded in double quotes too, unlike ~
    for old, new in changes.items():
        code = re.sub(rf"(?<![\w./~-]){re.escape(old)}(?![\w./-])", new.replace("\\", "\\\\"), code)
    return code, [f"{old} → {new}" for old, new in changes.items()]


_GIT = re.compile(r"(^|&&|\|\||;|\||\$\(|`)(\s*)git\s+(?!-C\b)", re.M)
_PATH_TAKERS = re.compile(r"\bgit\s+(?:status|log|diff|ls-files|add|blame|shortlog)\b")
_REPO_WORDS = re.compile(r"\b(?:git|repo\w*|commit\w*|branch\w*)\b", re.I)


def _in_repo(folder: Path) -> bool:
    return any((p / ".git").exists() for p in (folder, *folder.parents))


def named_repo(folder: Path, request: str) -> str | None:
    """The git repository a request about git names, when the working folder is not in one: a
    folder the request names that has a .git, else the only such folder one or two levels down."""
    from oi_local.core.hints import mentioned_paths

    if not _REPO_WORDS.search(request) or _in_repo(folder):
        return None
    named = [p for p in mentioned_paths(request, folder) if p.is_dir() and (p / ".git").exists()]
    if not named:
        try:
            named = [g.parent for g in [*folder.glob("*/.git"), *folder.glob("*/*/.git")]][:2]
        except OSError:
            return None
    return os.path.relpath(named[0], folder.resolve()) if len(named) == 1 else None


def _git(code: str, folder: Path, request: str) -> tuple[str, list[str]]:
    """Git commands run where there is no repository, for a request about the one repository here,
    run in it (`git -C repo ...`, its own path given as "."). Asked which files in the garden_planner
    repo had changed, the 0.5B model ran `git log --oneline garden_planner/` in the folder above it:
    "fatal: not a git repository", then it wrote into the repository's .gitattributes."""
    if not _GIT.search(code):
        return code, []
    repo = named_repo(folder, request)
    if repo is None or re.search(r"\bcd\s", code):  # code that changes folder finds its own way
        return code, []
    out = []
    for line in code.splitlines(keepends=True):
        if _GIT.search(line):
            # its own path, as a path: "repo/" anywhere, "repo" after a command that takes paths
            bare = "?" if _PATH_TAKERS.search(line) else ""
            line = re.sub(rf"(?<![\w./-]){re.escape(repo)}/{bare}(?=[\s;&|)]|$)", ".", line)
            line = re.sub(rf"(?<![\w./-]){re.escape(repo)}/(?=[\w.])", "", line)
            line = _GIT.sub(lambda m: f"{m.group(1)}{m.group(2)}git -C {repo} ", line)
        out.append(line)
    return "".join(out), [f"git runs in the repository {repo} (git -C {repo})"]


def check(turn: Turn, block: Block) -> Verdict | None:
    folder = Path.cwd()
    in_repo: list[str] = []
    pasted: str | None = None
    if block.lang == "python":
        from oi_local.core.rules.long_request import pasted_file

        pasted = pasted_file(turn.engine, turn.request, str(folder))
        new, changes = _python(block.code, folder, turn.request, pasted)
    elif block.lang in SHELLS:
        new, changes = _shell(block.code, folder, turn.request)
        new, in_repo = _git(new, folder, turn.request)
    else:
        return None
    if not (changes or in_repo) or new == block.code:
        return None
    block.message["content"] = new
    home = str(Path.home())
    homes = [c for c in changes if c.split(" → ", 1)[-1].startswith((home, "$HOME/"))]
    pastes = [c for c in changes if pasted and c.endswith(" → " + pasted)]
    others = [c for c in changes if c not in homes and c not in pastes]
    kinds = [c for c in others if only_kind(c.split(" → ")[0], folder, turn.request) == c.split(" → ")[-1]]
    others = [c for c in others if c not in kinds]
    notes = [NOTE.format(changes=", ".join(others))] if others else []
    notes += [ONLY_NOTE.format(changes=", ".join(kinds))] if kinds else []
    notes += [PASTED_NOTE.format(changes=", ".join(pastes))] if pastes else []
    notes += [HOME_NOTE.format(changes=", ".join(homes))] if homes else []
    notes += [REPO_NOTE.format(changes=", ".join(in_repo))] if in_repo else []
    return Verdict(warning=" ".join(notes))


rule = Rule(
    name="paths", setting="correct_paths", check=check,
    summary="code that reads a file by a path that does not exist (`open(\"members.csv\")`, `/path/to/sales.csv`), "
            "or copies from one, when exactly one file of that very name is in the working folder or under it, "
            "reads that one (a made-up name in a folder the request names, that holds the one file of that extension, "
            "reads that file, when the request names no such file); the person "
            "is told before it runs (never a close spelling); a relative path the request names that is only in the "
            "home folder gets its home path (so does a folder the code makes inside it: `Documents/receipts` for "
            "~/Documents); a made-up absolute path (\"/home/user/inbox\") that is not there becomes the folder here "
            "that the request names; git commands run where there is no repository, for a request about git "
            "and the one repository here (named, or the only one), run in it (`git -C repo`)")
