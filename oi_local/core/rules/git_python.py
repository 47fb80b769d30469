"""Git from Python: git run through subprocess (or os.system) where there is no repository, for a
request about the one repository here, runs in it, as shell git does (`paths`). Asked who made the
most commits in a repository one folder down, the 0.5B model wrote `subprocess.run(["git", "log",
..., "garden-app/CHANGES.txt"])` in the folder above it: "fatal: not a git repository", then it
counted the lines of CHANGES.txt as commits. The repository's own paths lose its name ("garden-app"
is ".", "garden-app/x" is "x"); code that picks its own folder (cwd=, os.chdir, cd) is left alone."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.paths import named_repo
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: git runs in the repository {repo} (git -C {repo}); the working folder is not one."
_RUNNERS = frozenset("run check_output check_call call Popen getoutput getstatusoutput system popen".split())
_OWN_FOLDER = re.compile(r"\bcwd\s*=|\bos\.chdir\(|\bcd\s")


def _runner(node: ast.Call) -> bool:
    f = node.func
    return isinstance(f, ast.Attribute) and f.attr in _RUNNERS or isinstance(f, ast.Name) and f.id in _RUNNERS


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _edits(tree: ast.AST, repo: str) -> list[tuple[int, int, int, str]]:
    """(line, start, end, new text) for each git argument to change."""
    edits = []
    own = re.compile(rf"(?<![\w./-]){re.escape(repo)}/?(?=\s|$)")
    inside = re.compile(rf"(?<![\w./-]){re.escape(repo)}/(?=[\w.])")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _runner(node) and node.args):
            continue
        first = node.args[0]
        if isinstance(first, ast.List) and first.elts and _text(first.elts[0]) == "git":
            if len(first.elts) > 1 and _text(first.elts[1]) == "-C":
                continue
            head = first.elts[0]
            args = [(e, _text(e)) for e in first.elts[1:]]
            edits.append((head.lineno, head.col_offset, head.end_col_offset or 0, f'"git", "-C", "{repo}"'))
            for e, s in args:
                if s is not None and e.lineno == e.end_lineno:
                    new = "." if own.fullmatch(s) else inside.sub("", s)
                    if new != s:
                        edits.append((e.lineno, e.col_offset, e.end_col_offset or 0, repr(new)))
        elif (s := _text(first)) is not None and re.match(r"\s*git\s+(?!-C\b)", s) and first.lineno == first.end_lineno:
            new = inside.sub("", own.sub(".", s))
            new = re.sub(r"^(\s*)git\s+", rf"\1git -C {repo} ", new, count=1)
            edits.append((first.lineno, first.col_offset, first.end_col_offset or 0, repr(new)))
    return edits


def check(turn: Turn, block: Block) -> Verdict | None:
    code = block.code
    if block.lang != "python" or "git" not in code or _OWN_FOLDER.search(code):
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    repo = named_repo(Path.cwd(), turn.request)
    if repo is None:
        return None
    edits = _edits(tree, repo)
    if not edits:
        return None
    block.message["content"] = rewrite(code, edits)
    return Verdict(warning=NOTE.format(repo=repo))


rule = Rule(
    name="git python", setting="correct_paths", check=check,
    summary="git run from Python (`subprocess.run([\"git\", \"log\"])`, `os.system(\"git ...\")`) where there is "
            "no repository, for a request about git and the one repository here, runs in it (`\"-C\", repo`), "
            "its paths given inside it; code that picks its own folder (cwd=, os.chdir) is left alone; the person "
            "is told")
