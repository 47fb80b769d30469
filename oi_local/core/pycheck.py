"""Problems in a Python script that show without running it: syntax errors, undefined names and,
given the folder it runs in, files it opens for reading that are not there.

Asked to fix a script, a small model copies it back unchanged unless it is told where the fault
is (the 0.5B model rewrote `pritn(...)` as `pritn(...)`). pyflakes reads the code (it never runs
it); only what would make the script fail is kept, with a likely correction.
"""
from __future__ import annotations

import ast
import builtins
import difflib
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

MAX_PROBLEMS = 3
MAX_FILES = 500  # files looked at for a missing path's likely correction


def compiles(code: str) -> bool:
    """The code compiles as Python (a syntax error, or a NUL byte, says no)."""
    try:
        compile(code, "<code>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def review(code: str, filename: str = "<script>", folder: Path | None = None) -> tuple[list[str], str | None]:
    """problems() and corrected() from one reading of the code."""
    found = _check(code, filename, folder)
    return [text for text, _ in found], _apply(code, found)


def problems(code: str, filename: str = "<script>", folder: Path | None = None) -> list[str]:
    """Lines such as "line 4: pritn is not defined (did you mean print?)"; [] if none were found
    or pyflakes is not installed."""
    return review(code, filename, folder)[0]


def corrected(code: str, filename: str = "<script>", folder: Path | None = None) -> str | None:
    """`code` with the problems that have one obvious correction corrected (a misspelt name, a
    missing standard-library import, a file that is elsewhere), or None when there is none to make."""
    return review(code, filename, folder)[1]


def _apply(code: str, found: list[tuple[str, tuple[int, str, str] | None]]) -> str | None:
    lines = code.splitlines(keepends=True)
    imports: list[str] = []
    changed = False
    for _, fix in found:
        if fix is None:
            continue
        lineno, name, replacement = fix
        if replacement.startswith("import "):
            if replacement not in imports:
                imports.append(replacement)
            continue
        if 0 < lineno <= len(lines):
            new = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w)", replacement, lines[lineno - 1])
            changed |= new != lines[lineno - 1]
            lines[lineno - 1] = new
    if not imports and not changed:
        return None
    return "".join(f"{i}\n" for i in imports) + "".join(lines)


def _check(code: str, filename: str, folder: Path | None = None) -> list[tuple[str, tuple[int, str, str] | None]]:
    """(problem text, (line, name, correction) or None), in line order, at most MAX_PROBLEMS."""
    try:
        from pyflakes import api, messages
    except ImportError:
        return []

    found: list[tuple[int, str, tuple[int, str, str] | None]] = []

    class _Reporter:
        def unexpectedError(self, name: str, msg: str) -> None:
            pass

        def syntaxError(self, name: str, msg: str, lineno: int, offset: Any, text: Any) -> None:
            found.append((lineno or 0, f"line {lineno}: {msg}", None))

        def flake(self, m: Any) -> None:
            if isinstance(m, messages.UndefinedLocal):
                found.append((m.lineno, f"line {m.lineno}: {m.message_args[0]} is used before it is given a value", None))
            elif isinstance(m, messages.UndefinedName):
                name = m.message_args[0]
                fix = _correction(name, code)
                hint = "" if fix is None else f" (it needs `{fix}`)" if fix.startswith("import ") else f" (did you mean {fix}?)"
                found.append((m.lineno, f"line {m.lineno}: {name} is not defined{hint}",
                              None if fix is None else (m.lineno, name, fix)))

    api.check(code, filename, _Reporter())
    for lineno, old, new in skipped_firsts(code):
        found.append((lineno, f"line {lineno}: {old} starts at 1, so the loop skips the first item; {new} takes every one",
                      (lineno, old, new)))
    for lineno, old, new in past_ends(code):
        found.append((lineno, f"line {lineno}: {old} goes one past the last item (an IndexError); {new} stops at it",
                      (lineno, old, new)))
    for lineno, old, new in text_compares(code):
        found.append((lineno, f"line {lineno}: {old} compares text letter by letter (\"10\" < \"5\"); as numbers it is {new}",
                      (lineno, old, new)))
    if folder is not None:
        found += _missing_files(code, folder)
    return [(text, fix) for _, text, fix in sorted(found, key=lambda f: f[0])][:MAX_PROBLEMS]


def skipped_firsts(code: str) -> list[tuple[int, str, str]]:
    """(line, range, the whole range) for each `for i in range(1, len(xs))` whose body reads `xs[i]`
    and never `xs[i - 1]`: it leaves out xs[0]. The averages of grades.py came out too low so (ho32),
    and the 0.5B model copied the loop back into each fix."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.For) and isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call)
                and isinstance(n.iter.func, ast.Name) and n.iter.func.id == "range" and len(n.iter.args) == 2):
            continue
        start, stop = n.iter.args
        if not (isinstance(start, ast.Constant) and start.value == 1 and isinstance(stop, ast.Call)
                and isinstance(stop.func, ast.Name) and stop.func.id == "len" and len(stop.args) == 1
                and isinstance(stop.args[0], ast.Name)):
            continue
        items, i = stop.args[0].id, n.target.id
        reads = [s for b in n.body for s in ast.walk(b) if isinstance(s, ast.Subscript)
                 and isinstance(s.value, ast.Name) and s.value.id == items]
        if any(isinstance(s.slice, ast.Name) and s.slice.id == i for s in reads) and not any(
                isinstance(s.slice, ast.BinOp) for s in reads):  # xs[i - 1]: pairs of neighbours, rightly from 1
            old = ast.get_source_segment(code, n.iter)
            if old:
                found.append((n.lineno, old, f"range(len({items}))"))
    return found


def past_ends(code: str) -> list[tuple[int, str, str]]:
    """(line, range, the right range) for each `for i in range(len(xs) + 1)` (or from 0) whose body
    reads `xs[i]`: its last turn reads past the end. stats.py's mean() did so (ho34), and the 0.5B
    model copied the loop into each fix, to the same IndexError."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.For) and isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call)
                and isinstance(n.iter.func, ast.Name) and n.iter.func.id == "range" and len(n.iter.args) in (1, 2)):
            continue
        *first, stop = n.iter.args
        if first and not (isinstance(first[0], ast.Constant) and first[0].value == 0):
            continue
        if not (isinstance(stop, ast.BinOp) and isinstance(stop.op, ast.Add) and isinstance(stop.right, ast.Constant)
                and stop.right.value == 1 and isinstance(stop.left, ast.Call) and isinstance(stop.left.func, ast.Name)
                and stop.left.func.id == "len" and len(stop.left.args) == 1 and isinstance(stop.left.args[0], ast.Name)):
            continue
        items, i = stop.left.args[0].id, n.target.id
        if any(isinstance(s, ast.Subscript) and isinstance(s.value, ast.Name) and s.value.id == items
               and isinstance(s.slice, ast.Name) and s.slice.id == i for b in n.body for s in ast.walk(b)):
            old = ast.get_source_segment(code, n.iter)
            if old:
                found.append((n.lineno, old, f"range(len({items}))"))
    return found


_NUMBER_TEXT = re.compile(r"-?\d+(?:\.\d+)?")
_ORDERS = {ast.Lt: "<", ast.Gt: ">", ast.LtE: "<=", ast.GtE: ">="}


def text_compares(code: str) -> list[tuple[int, str, str]]:
    """(line, comparison, as numbers) for each `x > "5"`: an order taken against a number in quotes
    compares text letter by letter, so "40" < "5". Asked why make_report.py wrote no item "with
    fewer than 5 in stock", the 0.5B model kept the script's `row["qty"] > "5"` in each try (ho33)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in _ORDERS
                and n.lineno == n.end_lineno):
            continue
        left, right, op = n.left, n.comparators[0], _ORDERS[type(n.ops[0])]
        quoted = [isinstance(s, ast.Constant) and isinstance(s.value, str) and bool(_NUMBER_TEXT.fullmatch(s.value))
                  for s in (left, right)]
        if quoted.count(True) != 1 or any(isinstance(s, ast.Constant) for s, q in zip((left, right), quoted) if not q):
            continue
        old = ast.get_source_segment(code, n)
        if old is None:
            continue
        sides = [str(s.value) if isinstance(s, ast.Constant) else f"float({ast.get_source_segment(code, s)})"
                 for s in (left, right)]
        found.append((n.lineno, old, f"{sides[0]} {op} {sides[1]}"))
    return found


def _correction(name: str, code: str) -> str | None:
    if name in sys.stdlib_module_names and re.search(rf"(?<![\w.]){re.escape(name)}\.\w", code):
        return f"import {name}"  # used as a module (`csv.reader`), not a list called numbers
    known = (set(dir(builtins)) | _defined(code)) - {name}
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
    return close[0] if close else None


def _defined(code: str) -> set[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _read_paths(code: str) -> list[tuple[int, str]]:
    """(line, path) of files opened for reading by a literal name: open("x"), Path("x").read_text()."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.strip()):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
        mode_text = mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else "r"
        if name == "open" and not set(mode_text) & set("wax+"):
            found.append((node.lineno, first.value))
        elif name in ("read_csv", "read_json", "load_workbook"):
            found.append((node.lineno, first.value))
    return found


def _missing_files(code: str, folder: Path) -> list[tuple[int, str, tuple[int, str, str] | None]]:
    out = []
    for lineno, path in _read_paths(code):
        if "{" in path or (folder / path).exists():
            continue
        guess = likely_file(path, folder)
        hint = f" (did you mean {guess}?)" if guess else ""
        out.append((lineno, f"line {lineno}: there is no file {path}{hint}", (lineno, path, guess) if guess else None))
    return out


def folder_files(folder: Path, limit: int = MAX_FILES) -> list[str]:
    """Paths of the files under `folder` (relative, posix), hidden ones left out, at most `limit`."""
    files: list[str] = []
    for root, dirs, names in os.walk(folder):  # hidden folders (.git, .venv) are not entered at all
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = Path(root).relative_to(folder)
        for n in names:
            if len(files) >= limit:
                return files
            if not n.startswith(".") and os.path.isfile(os.path.join(root, n)):
                files.append((rel / n).as_posix())
    return files


def likely_file(path: str, folder: Path) -> str | None:
    """The file under `folder` most likely meant by a path that does not exist: the same name
    elsewhere, else a close spelling."""
    files = folder_files(folder)
    name = Path(path).name
    same = [f for f in files if Path(f).name == name]
    if len(same) == 1:
        return same[0]
    # Another number is another file, not a misspelling: pointed from timesheets/week_23.csv to
    # week_24.csv, the 0.5B model added up the wrong week.
    numbers = re.findall(r"\d+", path)
    close = difflib.get_close_matches(path, [f for f in files if re.findall(r"\d+", f) == numbers], n=1, cutoff=0.8)
    # A shared folder is not a close spelling: recipes/recipes.txt is 0.83 like recipes/pesto.txt, and pointed
    # there the 0.5B model read one recipe for "which of my recipes have peanuts" (ho45).
    if close and difflib.SequenceMatcher(None, name, Path(close[0]).name).ratio() < 0.75:
        return None
    return close[0] if close else None


def rewrite(code: str, edits: Iterable[tuple[int, int, int, str]]) -> str:
    """`code` with each (line, start, end, text) edit made: a span of one line, in `ast`'s offsets
    (columns count UTF-8 bytes). The later spans are made first, so the earlier offsets hold."""
    lines = code.splitlines(keepends=True)
    for line, start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        raw = lines[line - 1].encode()
        lines[line - 1] = (raw[:start] + text.encode() + raw[end:]).decode()
    return "".join(lines)
