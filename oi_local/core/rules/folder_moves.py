"""Folder moves: asked "can you move those into a new folder called has_peanuts?" after a question that
picked some recipes, the 0.5B model renamed the whole recipes folder to has_peanuts (ho45, read after
session 46's end): every recipe moved, not the ones asked for. Code that moves or renames a folder that is
there (`Path("recipes").rename(...)`, `os.rename`, `shutil.move`, a shell `mv`) when the person's words
name no such folder and ask to move some files ("those", "them", "the ... ones") is not auto-run, as for a
question (question writes): shown and confirmed, or not run and the request asked afresh once."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.question_writes import refuse
from oi_local.core.rules.turn import SHELLS, Block, Turn, instruction

NOTE = ("Not run: this code moves the whole {folder} folder ({n} files), and the request asks to move some files, "
        "not that folder. Move only the files asked for, one by one, into the new folder.")
WARNING = "this code moves the whole {folder} folder ({n} files); the request asks to move some files."
# "move those into ...", "put them in a new folder", "move the ones with peanuts"
_SOME = re.compile(r"\b(?:move|put|shift|transfer)\s+(?:all\s+)?(?:those|them|these|the\s+(?:\w+\s+){0,3}ones)\b", re.I)
_MOVERS = {("os", "rename"), ("os", "replace"), ("shutil", "move"), ("os", "renames")}


def _strings(node: ast.AST, names: dict[str, str]) -> str | None:
    """The path a source expression stands for: "recipes", Path("recipes"), a name bound to either."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Path" and len(node.args) == 1:
        return _strings(node.args[0], names)
    if isinstance(node, ast.Name):
        return names.get(node.id)
    return None


def moved_folders(lang: str, code: str) -> list[str]:
    """The folders here that the code moves or renames as a whole."""
    found: list[str] = []
    if lang in SHELLS:
        from oi_local.core.deletions import _commands

        for cmd, args in _commands(code):
            plain = [a for a in args if not a.startswith("-")]
            if cmd == "mv" and len(plain) >= 2:
                found += [a.rstrip("/") for a in plain[:-1]]
    elif lang == "python":
        try:
            tree = ast.parse(code)
        except SyntaxError:
            return []
        names: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = _strings(node.value, {})
                if value is not None:
                    names[node.targets[0].id] = value
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            f = node.func
            if isinstance(f.value, ast.Name) and (f.value.id, f.attr) in _MOVERS and node.args:
                src = _strings(node.args[0], names)
            elif f.attr in ("rename", "replace") and len(node.args) == 1:
                src = _strings(f.value, names)
            else:
                continue
            if src:
                found.append(src.rstrip("/"))
    return [p for p in dict.fromkeys(found) if p not in ("", ".") and Path(p).is_dir()]


def check(turn: Turn, block: Block) -> Verdict | None:
    words = instruction(turn.request)
    if not _SOME.search(words) or ("mv" not in block.code and "rename" not in block.code
                                   and "move" not in block.code and "replace" not in block.code):
        return None
    for folder in moved_folders(block.lang, block.code):
        name = Path(folder).name
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", words, re.I):
            continue  # the person names the folder: moving it may be what they ask
        n = sum(1 for p in Path(folder).rglob("*") if p.is_file())
        return refuse(turn, NOTE.format(folder=folder, n=n), WARNING.format(folder=folder, n=n))
    return None


rule = Rule(
    name="folder moves", setting="repair_slips", check=check,
    summary="code that moves or renames a whole folder (`Path(\"recipes\").rename(\"has_peanuts\")`, `mv recipes ...`) "
            "for a request that asks to move some files (\"move those into a new folder\") and names no such folder is "
            "not auto-run: shown and confirmed, or not run and the request asked afresh once")
