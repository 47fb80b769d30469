"""Subfolders: a request that counts or lists files "including subfolders" (or "recursively") whose
code looks at one folder level only has that look made recursive before it runs: `os.listdir(d)`
walks d, `glob.glob("d/*.pdf")` becomes `glob.glob("d/**/*.pdf", recursive=True)`, `Path(d).glob`
and `.iterdir()` become `.rglob`, and a shell `ls d/*.pdf` becomes `find d -type f -name '*.pdf'`.
Asked how many PDFs were in Documents "incl. all the subfolders", the 0.5B model listed Documents
alone and answered 1 of 9. The person is told."""
from __future__ import annotations

import ast
import os
import re
import shlex
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, rewrite

NOTE = "Changed before it ran: the code now looks in the subfolders too ({what}), as the request asks."
# "incl. all the subfolders", "and its subdirectories", "recursively", "at any depth", "anywhere under"
WANTS = re.compile(r"\b(?:incl\w*\.?|and|with|plus|in|across|through\w*|search\w*|including|every)\s+"
                   r"(?:all\s+|any\s+|its\s+|their\s+|the\s+|of\s+|every\s+|my\s+)*sub-?\s?(?:folders?|directories|directory|dirs?)\b|"
                   # "subfolders included", "sub folders too", "subdirs as well" (typos too: "inclded")
                   r"\bsub-?\s?(?:folders?|directories|directory|dirs?)\s+(?:inc\w*|too|as well|also)\b|"
                   r"\brecursive\w*|\bat any depth\b|\banywhere\s+(?:under|in|inside|within|below)\b|\ball (?:the )?(?:folders|directories) (?:inside|under|within|below)\b", re.I)
# "the .py files under src": a folder there named after "under" means its whole tree ("under 5 MB" names none)
_UNDER = re.compile(r"\bunder\s+(?:the\s+|my\s+)?([\w./~-]+?)(?:/|\s+(?:folder|directory|dir)\b)?(?=[\s,;:!?)]|\.?$|\.\s)", re.I)
_WALK = "[os.path.relpath(os.path.join(_root, _name), {d}) for _root, _dirs, _names in os.walk({d}) for _name in _names]"


def _python(code: str) -> tuple[str, list[str]]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, what = [], []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)) or node.lineno != node.end_lineno:
            continue
        func, args = node.func, node.args
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        span = (node.lineno, node.col_offset, node.end_col_offset or node.col_offset)
        if func.attr == "listdir" and owner == "os" and len(args) == 1 and isinstance(args[0], (ast.Constant, ast.Name)):
            edits.append((*span, _WALK.format(d=ast.unparse(args[0]))))
            what.append("os.walk for os.listdir")
        elif func.attr in ("glob", "iglob") and owner == "glob" and len(args) == 1 and isinstance(args[0], ast.Constant) \
                and isinstance(args[0].value, str) and "*" in args[0].value and "**" not in args[0].value \
                and not node.keywords:
            head, _, last = args[0].value.rpartition("/")
            pattern = f"{head}/**/{last}" if head else f"**/{last}"
            edits.append((*span, f"glob.{func.attr}({pattern!r}, recursive=True)"))
            what.append(f"{pattern} for {args[0].value}")
        elif func.attr == "glob" and owner != "glob" and len(args) == 1 and isinstance(args[0], ast.Constant) \
                and isinstance(args[0].value, str) and "**" not in args[0].value and "/" not in args[0].value:
            edits.append((func.end_lineno or node.lineno, func.end_col_offset - 4 if func.end_col_offset else 0,
                          func.end_col_offset or 0, "rglob"))
            what.append(".rglob for .glob")
        elif func.attr == "iterdir" and not args:
            edits.append((*span, ast.unparse(func.value) + '.rglob("*")'))
            what.append(".rglob for .iterdir")
    new = rewrite(code, edits) if edits else code
    if edits and "os.walk" in new and not re.search(r"^\s*(?:import os\b|from os import)", new, re.M):
        new = "import os\n" + new
    return new, what


_LS = re.compile(r"(?m)(^|[|;&]\s*)ls(?:\s+-[1a-zA-Z]+)*\s+('[^'\n]*'|\"[^\"\n]*\"|[^\s|;&]+)(?=\s*(?:$|[|;&]))")


def _shell(code: str) -> tuple[str, list[str]]:
    what: list[str] = []

    def ls(m: re.Match[str]) -> str:
        arg = shlex.split(m.group(2))[0] if m.group(2) else ""
        folder, _, last = arg.rpartition("/")
        if "*" in folder or not folder or "*" not in last:
            return m.group(0)
        what.append(f"find for ls {arg}")
        return f"{m.group(1)}find {shlex.quote(folder)} -type f -name {shlex.quote(last)}"

    new = _LS.sub(ls, code)
    if re.search(r"\bfind\b[^|;&\n]*\s-maxdepth\s+1\b", new):
        new = re.sub(r"(\bfind\b[^|;&\n]*?)\s-maxdepth\s+1\b", r"\1", new)
        what.append("no -maxdepth 1")
    return new, what


def wants(request: str, cwd: Path) -> bool:
    """The request asks for the subfolders too: in words, or "under" a folder here that has subfolders."""
    if WANTS.search(request):
        return True
    for name in _UNDER.findall(request):
        folder = cwd / os.path.expanduser(name)
        try:
            if folder.is_dir() and any(p.is_dir() for p in folder.iterdir()):
                return True
        except OSError:
            continue
    return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if not wants(turn.request, Path.cwd()):
        return None
    if block.lang == "python":
        new, what = _python(block.code)
    elif block.lang in SHELLS:
        new, what = _shell(block.code)
    else:
        return None
    if not what or new == block.code:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(what="; ".join(dict.fromkeys(what))))


rule = Rule(
    name="subfolders", setting="correct_paths", check=check,
    summary="a request that asks to include subfolders (\"incl. all the subfolders\", \"recursively\", files \"under\" a "
            "folder that has subfolders) whose code looks "
            "at one folder level has that look made recursive before it runs (`os.listdir` walks the folder, "
            "`glob(\"d/*.pdf\")` gets `**/`, `.glob`/`.iterdir()` become `.rglob`, `ls d/*.pdf` becomes `find`, a "
            "`find -maxdepth 1` loses its limit); the person is told")
