"""Extensions: a request that names the kinds of file it means (".jpg, .JPG or .jpeg", "the .log files")
whose code lists a folder without looking at any name's ending counts every file. Asked how many jpeg
photos were in camera/ and how much space they took, the 0.5B model summed the size of everything in
it (ho34-jpeg-count-size). The listing (`.glob("*")`, `.rglob("*")`, `.iterdir()`, `os.listdir(d)`)
is narrowed to the named endings, in any case, before it runs; the person is told. So is a whole
folder copied (`shutil.copytree`) for "copy all the .conf files from settings/" (ho37): it copies
only files with those endings."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite

NOTE = "Changed before it ran: the code now looks only at {names} files, as the request asks (it listed every file)."
# ".jpg", "the .PDF files"; not the ending of a file's name ("notes.txt") nor a number (".5")
DOTTED = re.compile(r"(?<![\w/.-])\.([A-Za-z][A-Za-z0-9]{1,4})(?![\w.-]|\.\w)")
_LOOKS = re.compile(r"suffix|endswith|splitext|fnmatch|\.ext\b|mimetypes|imghdr", re.I)


def named_endings(request: str) -> list[str]:
    """The endings the request names (lower case, with the dot), in order."""
    return list(dict.fromkeys("." + m.group(1).lower() for m in DOTTED.finditer(instruction(request))))


def narrowed(code: str, endings: list[str]) -> str | None:
    """The code with its plain listings narrowed to `endings`; None when there is none, or the code
    looks at endings itself."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    # What is only printed ("copied all .conf files") or a comment looks at no ending: names and other strings do.
    printed = {id(c) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id == "print" for c in ast.walk(n)}
    strings = [str(n.value).lower() for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
               and id(n) not in printed]
    names = [n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(tree) if isinstance(n, (ast.Attribute, ast.Name))]
    if any(_LOOKS.search(x) for x in names + strings) or any(e in x for e in endings for x in strings):
        return None
    wanted = repr(tuple(endings))
    edits = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)) or node.lineno != node.end_lineno:
            continue
        func, text = node.func, ast.get_source_segment(code, node) or ""
        span = (node.lineno, node.col_offset, node.end_col_offset or node.col_offset)
        every = len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value in ("*", "**/*")
        if func.attr in ("glob", "rglob") and every and not (isinstance(func.value, ast.Name) and func.value.id == "glob") \
                or func.attr == "iterdir" and not node.args:
            edits.append((*span, f"(_p for _p in {text} if _p.suffix.lower() in {wanted})"))
        elif func.attr == "listdir" and isinstance(func.value, ast.Name) and func.value.id == "os" and len(node.args) <= 1:
            edits.append((*span, f"[_n for _n in {text} if os.path.splitext(_n)[1].lower() in {wanted}]"))
        elif func.attr == "copytree" and len(node.args) >= 2 and not any(k.arg == "ignore" for k in node.keywords) \
                and text.endswith(")"):
            # Asked to copy the .conf files of settings/ into a new folder, copytree copied every file (ho37).
            edits.append((*span, text[:-1] + ", ignore=lambda _d, _ns: [_n for _n in _ns if not os.path.isdir("
                          f"os.path.join(_d, _n)) and os.path.splitext(_n)[1].lower() not in {wanted}])"))
    if not edits:
        return None
    code = rewrite(code, edits)
    return code if re.search(r"^import os\b|^import .*\bos\b", code, re.M) else "import os\n" + code


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["extensions"]:
        return None
    endings = named_endings(turn.request)
    code = narrowed(block.code, endings) if endings else None
    if code is None:
        return None
    turn.counts["extensions"] += 1
    block.message["content"] = code
    return Verdict(warning=NOTE.format(names=", ".join(endings)))


rule = Rule(
    name="extensions", setting="check_answers", check=check,
    summary="code for a request that names file endings (\".jpg, .JPG or .jpeg\") which lists a folder "
            "(`.glob(\"*\")`, `.rglob(\"*\")`, `.iterdir()`, `os.listdir`) or copies it whole (`shutil.copytree`) without "
            "looking at any name's ending has its listing (or copy) narrowed to those endings, in any case, before it runs")
