"""Named folder: asked to sort "my photos folder", the 0.5B model's code looked for `*.jpg` in the
working folder (`Path(".").glob("*.jpg")`), found none, moved nothing and said it ran. When code
looks for files by pattern in the working folder, none of its patterns matches a file there, and the
one folder the request names (here, or in the home folder: "my Downloads") has files that match,
it looks in that folder instead, and the person is told before it runs. Asked to copy "every .ini
file from settings" into backup, it listed the working folder (`os.listdir(".")`, filtered by
`.endswith(".ini")`), copied nothing and printed "backed up config files" (ho33-copy-configs): the
names listed are used without their folder, so that code is not rewritten; it is not run and the
model is told where the files are."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.question_writes import FRESH
from oi_local.core.rules.turn import Block, Turn, code_retry, rewrite

NOTE = "Path corrected before it ran: the files are looked for in {folder}, which the request names (the working folder has no {patterns})."
_HERE = {'"."', "'.'", '"./"', "'./'", ""}
_WORD = re.compile(r"[A-Za-z][\w-]{2,40}")
# "every .ini file from settings", "the logs in inbox": a folder named by its bare name after a preposition
_BARE = re.compile(r"\b(?:from|in|inside|within|under|into)\s+(?:the\s+|my\s+)?([A-Za-z][\w-]{1,40})(?![\w./-])")
LISTED = ("Not run: this code lists the working folder, which has no {patterns} files; {folder}, which the request "
          "names, has them ({names}). Look in {folder}: `for name in os.listdir({folder!r})`, and each file is "
          "`os.path.join({folder!r}, name)`.")
MAX_TOLD = 2  # a turn: told once, the 0.5B model listed the working folder again and copied nothing


def _here(node: ast.expr) -> bool:
    """Path("."), Path(), Path.cwd(), Path(os.getcwd())."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr == "cwd" and isinstance(f.value, ast.Name) and f.value.id == "Path":
        return True
    if not (isinstance(f, ast.Name) and f.id == "Path") or len(node.args) > 1:
        return False
    if not node.args:
        return True
    a = node.args[0]
    return (isinstance(a, ast.Constant) and a.value in (".", "./")) or \
        (isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "getcwd")


def looks(code: str) -> list[tuple[tuple[int, int, int], str, str, bool]]:
    """Each look for files by pattern in the working folder: (span to replace, kind, pattern, recursive)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and len(n.args) == 1
                and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)):
            continue
        pattern = n.args[0].value
        if "*" not in pattern or "/" in pattern or n.lineno != n.end_lineno:
            continue
        f = n.func
        if f.attr in ("glob", "rglob") and _here(f.value):
            owner = f.value
            found.append(((owner.lineno, owner.col_offset, owner.end_col_offset or 0), "path", pattern, f.attr == "rglob"))
        elif f.attr in ("glob", "iglob") and isinstance(f.value, ast.Name) and f.value.id == "glob" and not n.keywords:
            arg = n.args[0]
            found.append(((arg.lineno, arg.col_offset, arg.end_col_offset or 0), "glob", pattern, False))
    return found


def listed(code: str) -> list[str]:
    """The `.endswith(...)` patterns of code that lists the working folder (`os.listdir(".")`,
    `os.listdir()`, `os.scandir(".")`), as globs; [] when it does not, or filters by no ending."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    lists, ends = False, []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
            continue
        f = n.func
        if f.attr in ("listdir", "scandir") and isinstance(f.value, ast.Name) and f.value.id == "os" and (
                not n.args or (isinstance(n.args[0], ast.Constant) and n.args[0].value in (".", "./"))):
            lists = True
        elif f.attr == "endswith" and len(n.args) == 1:
            a = n.args[0]
            items = a.elts if isinstance(a, ast.Tuple) else [a]
            ends += ["*" + i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)
                     and re.fullmatch(r"\.\w{1,8}", i.value)]
    return list(dict.fromkeys(ends)) if lists else []


def _matches(folder: Path, pattern: str, deep: bool) -> bool:
    try:
        return any(p.is_file() for p in (folder.rglob(pattern) if deep else folder.glob(pattern)))
    except (OSError, ValueError):
        return False


def named_folders(request: str, cwd: Path) -> list[tuple[Path, str]]:
    """The folders the request names, under the working folder, else in the home folder, with how
    the code should write each."""
    from oi_local.core.hints import mentioned_paths

    here = [p for p in mentioned_paths(request, cwd) if p.is_dir() and p != cwd.resolve()]
    if not here:
        here = list(dict.fromkeys(p.resolve() for w in _BARE.findall(request) if (p := cwd / w).is_dir()))
    if here:
        return [(p, p.relative_to(cwd.resolve()).as_posix()) for p in here]
    home = Path.home()
    if home.resolve() == cwd.resolve():
        return []
    return [(home / w, str(home / w)) for w in dict.fromkeys(_WORD.findall(request))
            if w[0].isupper() and (home / w).is_dir() and not (cwd / w).exists()]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    found = looks(block.code)
    cwd = Path.cwd()
    if not found:
        return _listed(turn, block, cwd)
    if any(_matches(cwd, pattern, deep) for _, _, pattern, deep in found):
        return None  # it finds something where it looks
    holding = [(folder, written) for folder, written in named_folders(turn.request, cwd)
               if any(_matches(folder, pattern, deep) for _, _, pattern, deep in found)]
    if len(holding) != 1:
        return None  # none, or which one is meant is not clear
    folder, written = holding[0]
    edits = [(*span, f"Path({written!r})" if kind == "path" else repr(f"{written}/{pattern}")) for span, kind, pattern, _ in found]
    block.message["content"] = rewrite(block.code, edits)
    patterns = ", ".join(dict.fromkeys(p for _, _, p, _ in found))
    return Verdict(warning=NOTE.format(folder=written, patterns=patterns))


def _listed(turn: Turn, block: Block, cwd: Path) -> Verdict | None:
    """The working folder listed for files by ending it does not have: not rewritten (the names
    listed are used without their folder), the model is told where they are, once a turn."""
    patterns = listed(block.code)
    if not patterns or turn.counts["named folder"] >= MAX_TOLD or any(_matches(cwd, p, False) for p in patterns):
        return None
    holding = [(folder, written) for folder, written in named_folders(turn.request, cwd)
               if any(_matches(folder, p, False) for p in patterns)]
    if len(holding) != 1:
        return None
    folder, written = holding[0]
    names = sorted(q.name for p in patterns for q in folder.glob(p) if q.is_file())
    note = LISTED.format(patterns=", ".join(patterns), folder=written,
                         names=", ".join(names[:8]) + (", ..." if len(names) > 8 else ""))
    if turn.approve is not None:  # a person confirms: told, and the choice is theirs
        return Verdict(warning=note[len("Not run: "):])
    turn.counts["named folder"] += 1
    # Told in the output only, the 0.5B model replied without code and the turn ended not done: asked
    # afresh, with why, as for a refused write (question writes).
    fresh = Ask(FRESH.format(why=note[len("Not run: "):]), code_retry(turn.engine, 3 + turn.counts["named folder"]), hide=True) if turn.steps_left else None
    return Verdict(note=note, again=True, ask=fresh)


rule = Rule(
    name="named folder", setting="correct_paths", check=check,
    summary="code that looks for files by pattern in the working folder (`Path(\".\").glob(\"*.jpg\")`) where none "
            "match, for a request that names one folder whose files do (\"my photos folder\", \"my Downloads\"), "
            "looks in that folder instead; the person is told before it runs. Code that lists the working folder "
            "(`os.listdir(\".\")`) for endings it has no files with, when the folder the request names (\"from "
            "settings\") has them, is not run and the model is told where they are, once a turn")
