"""Slips: Python mistakes with one repair that keeps what the code means, made before it runs.

An iterator read twice: asked to plot weights from a CSV, the 0.5B model wrote
`reader = csv.DictReader(f)`, then `dates = [r["date"] for r in reader]` and
`weights = [r["weight_kg"] for r in reader]`; the second pass found nothing left, matplotlib failed
on 22 dates against 0 weights, and the three tries after it each broke something new. Read once
into a list (`list(csv.DictReader(f))`), both passes see every row. Only a name bound once to a
one-pass iterator (csv readers, map, filter, zip, a generator expression, an open file) and walked
two or more times by for loops, comprehensions or list/sum/max/min/sorted/set/len; never when the
code calls next() on it (a list has no next()) or binds the name again.
An archive named twice: `shutil.make_archive("gig_photos.zip", "zip")` adds the extension itself
and wrote gig_photos.zip.zip; the extension is taken off the base name. And with no root_dir it
archived the whole working folder: when the base name is a folder here, that folder is archived.
A weekday printed as a number: asked what day of the week 3 October is, the code printed
`d.weekday()`, 5, and the answer was "Day of the week: 5"; printed only, it is printed by name.
Numbered files sorted as text: asked to join chapters "in the right order", `sorted(Path("novel").glob(...))`
put chapter_10 and chapter_11 before chapter_2; asked for an order, a sorted folder listing is sorted
by the numbers in the names; and where the folder's matches are numbered files of one prefix (ch1.txt ...
ch11.txt) beside unnumbered ones, the pattern takes the numbered ones: "*.txt" also took notes.txt, which
the request said to leave out, and the draft being written into that folder.
A folder searched at the top only: asked to delete junk files "in every subfolder", the code used
`Path("usb_stick").glob("*.DS_Store")`, found one of eight and said done; asked for subfolders, it
is `rglob`.
Lines counted as pieces: `len(text.split("\\n"))` said 54 for a list of 53 lines (the final newline
makes an empty last piece), and asked for lines, `len(f.read().split())` counted words; both are
`len(text.splitlines())`; and `sum(1 for line in f if line.strip())` counted the lines that are not
blank (29 for 41), so, asked for lines and not for blank or empty ones, the test is dropped.
An extension in capitals: asked for the PDFs under invoices/, `f.endswith(".pdf")` missed two ".PDF"
files; where the named folder holds an extension in another case, it is matched in any case.
A copy into a folder that is not there: asked to copy items.csv into a new backup folder,
`shutil.copy("items.csv", "backup_folder")` made a file called backup_folder; asked for a folder, a copy
or move to a path with no extension that is not there gets the folder made first.
A folder made inside one that is not there: `Path("Documents/receipts").mkdir(exist_ok=True)` stopped
with FileNotFoundError; its parents are made too (`parents=True`, `os.makedirs`).
A file opened for writing and only read: `with open("seed_notes.txt", "w") as f: text = f.read()`
empties the file before the read fails; it is opened for reading.
A value in another case: `r["category"] == "takeaway"` over a column of "Takeaway" picked no rows and
the answer was 0; a compared string the named CSV files hold only in another case is written as they do.
A glob of ".*" matches only hidden files: it is "*" (the model meant "anything"); a glob of a bare word
("passport") matches only that exact name: it is "*passport*".
len() of an open file fails: it is the number of the file's lines.
A folder's size taken as its entry's: `os.path.getsize(d)` of a folder the code tests with isdir() is 4096 whatever
it holds; it is the sum of the sizes of the files under it.
A file handle named as its path (`with open(f) as f`): `print(f)` printed the file object; the handle is `fh`.
Lines counted for times: asked how many times a word is in a text, `sum(1 for line in f if "harbour" in line)`
counted the lines that hold it (19 for 23); each line's whole-word matches, in any case, are counted.
A word looked for in another case: `"invoice" in content` missed the emails that say "Invoice"; where a file has
the word only in another case, the text is lower-cased first.
Text appended again: asked to add two items to shopping.txt, the code appended the whole list again;
only the lines that are not already at the file's start are appended, on a line of their own.
A path with ~: Python does not expand it (`open("~/notes.txt")` looks for a folder named "~" here);
given to a file call, it is written as the home folder's path.
The bottom for the top: asked for the most common words, `sorted(counts.items(), key=...)[:3]` printed the
three least common; asked for the top (and not the least), a sort whose head is taken runs from the highest down.
A file read twice: `sum(map(int, f.readlines()))` then `len(f.readlines())`, which is empty, and the
average divided by zero; a file opened in a `with` and read more than once is read once, into a name.
JSON read as CSV: `csv.DictReader(f)` over books.json gave rows keyed "{"; a file of records is read
with json.load. A table of a JSON object that holds one list of records (`pd.read_json`, `pd.DataFrame(data)`)
had one column of whole records; it is made of that list.
A move for a copy: asked to back up a photos folder, the code moved every photo out of it; asked to
back up or copy (and not to move), `shutil.move` is `shutil.copy2`.
A table written as a text list: asked for "just the titles ... into finished_2025.txt, one per line", the
code wrote `df[["title"]].to_csv("finished_2025.txt", index=False)`, and the file's first line was the
column's name, "title" (ho24, a development run of session 45); a table written to a .txt file with
to_csv gets no header line (and no index) unless the code says so.
An extension tested on a stem: `p.stem.endswith(".pdf")` is never true; it is tested on the name.
A CSV cell equal to a number: `r["kwh"] != 0` is always true (a cell is text); it is compared as a number.
A whole text walked for lines, distinct values counted in two cases, an alphabetical list never sorted:
core/text_values.py.
The person is told before it runs."""
from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, rewrite
from oi_local.core.text_values import (
    ALPHABETICAL,
    asks_case_free_distinct,
    characters_walked,
    distinct_lowered,
    sorted_as_asked,
)

NOTE = "Changed before it ran: {changes}."
_ONE_PASS = {"reader", "DictReader", "map", "filter", "zip", "open"}
_WALKERS = {"list", "sum", "max", "min", "sorted", "set", "tuple", "len", "enumerate", "dict"}


def _one_pass(value: ast.expr) -> bool:
    if isinstance(value, ast.GeneratorExp):
        return True
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in {"reader", "DictReader"}:
        return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "csv"
    if name == "open":  # a file read in text mode; `list(open(...))` is its lines
        mode = value.args[1] if len(value.args) > 1 else next((k.value for k in value.keywords if k.arg == "mode"), None)
        return isinstance(func, ast.Name) and (mode is None or (isinstance(mode, ast.Constant) and mode.value in ("r", "rt")))
    return name in _ONE_PASS and isinstance(func, ast.Name)


def _walks(tree: ast.AST, name: str) -> int:
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)):
            target = node.iter
            if isinstance(target, ast.Name) and target.id == name:
                count += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _WALKERS \
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == name:
            count += 1
    return count


def _stepped_or_rebound(tree: ast.AST, name: str) -> bool:
    bound = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == name:
            func = node.func
            if isinstance(func, ast.Name) and func.id in {"next", "iter"}:
                return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True  # reader.fieldnames, f.readline(), f.seek(0): left as the code has it
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            bound += 1
        if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name) and node.optional_vars.id == name:
            return True  # `with open(...) as f`: a file the code manages itself
    return bound != 1


def read_twice(code: str) -> tuple[str, list[str]]:
    """`code` with each one-pass iterator it walks twice read into a list first, and the names."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    lines = code.splitlines(keepends=True)
    edits: list[tuple[int, int, int, int, str]] = []
    names = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        name, value = node.targets[0].id, node.value
        if not _one_pass(value) or value.end_lineno is None or value.end_col_offset is None:
            continue
        if _walks(tree, name) < 2 or _stepped_or_rebound(tree, name):
            continue
        edits.append((value.lineno, value.col_offset, value.end_lineno, value.end_col_offset, name))
        names.append(name)
    for start, col, end, end_col, _ in sorted(edits, reverse=True):
        # Columns are UTF-8 byte offsets: edit the lines as bytes.
        first, last = lines[start - 1].encode(), lines[end - 1].encode()
        if start == end:
            lines[start - 1] = (first[:col] + b"list(" + first[col:end_col] + b")" + first[end_col:]).decode()
        else:
            lines[start - 1] = (first[:col] + b"list(" + first[col:]).decode()
            lines[end - 1] = (last[:end_col] + b")" + last[end_col:]).decode()
    return "".join(lines), names


def _read_mode(call: ast.Call) -> bool:
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return mode is None or isinstance(mode, ast.Constant) and mode.value in ("r", "rt")


def file_read_twice(code: str) -> tuple[str, list[str]]:
    """`code` with a file opened for reading in a `with` and read more than once (`total =
    sum(map(int, f.readlines()))`, then `count = len(f.readlines())`, which is empty: ZeroDivisionError)
    read once into `<name>_text` at the top of the block, each read taken from that; and the names.
    Not when the code seeks back or reads a line at a time (readline, next)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    lines = code.splitlines(keepends=True)
    edits: list[tuple[int, int, int, int, str]] = []  # line, col, end line, end col, new text (bytes offsets)
    inserts: list[tuple[int, str]] = []
    names = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.With) or not node.body:
            continue
        for item in node.items:
            call, target = item.context_expr, item.optional_vars
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open"
                    and _read_mode(call) and isinstance(target, ast.Name)):
                continue
            name, text = target.id, f"{target.id}_text"
            uses = [n for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == name]
            reads = [n for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                     and n.func.value.id == name and n.func.attr in ("read", "readlines") and not n.args]
            walks = [n.iter for stmt in node.body for n in ast.walk(stmt) if isinstance(n, (ast.For, ast.comprehension))
                     and isinstance(n.iter, ast.Name) and n.iter.id == name]
            if len(reads) + len(walks) < 2 or len(uses) != len(reads) + len(walks) or text in code:
                continue  # read once, or used some other way (seek, readline, next, passed on)
            for r in reads:
                whole = isinstance(r.func, ast.Attribute) and r.func.attr == "read"
                new = text if whole else f"{text}.splitlines(keepends=True)"
                edits.append((r.lineno, r.col_offset, r.end_lineno or r.lineno, r.end_col_offset or 0, new))
            for w in walks:
                edits.append((w.lineno, w.col_offset, w.end_lineno or w.lineno, w.end_col_offset or 0,
                              f"{text}.splitlines(keepends=True)"))
            first = node.body[0]
            inserts.append((first.lineno, " " * first.col_offset + f"{text} = {name}.read()\n"))
            names.append(name)
    if any(a[0] != a[2] for a in edits):
        return code, []
    for line, col, _, end_col, new in sorted(edits, reverse=True):
        raw = lines[line - 1].encode()
        lines[line - 1] = (raw[:col] + new.encode() + raw[end_col:]).decode()
    for line, text in sorted(inserts, reverse=True):
        lines.insert(line - 1, text)
    return "".join(lines), names


_ARCHIVE_EXT = {"zip": (".zip",), "tar": (".tar",), "gztar": (".tar.gz", ".tgz"), "bztar": (".tar.bz2",),
                "xztar": (".tar.xz",)}


def archive_names(code: str) -> tuple[str, list[str]]:
    """`code` with its `make_archive` calls repaired, and what was changed: a base name given with
    the extension the call adds itself loses it; a call with no folder to archive, whose base name is
    a folder here, archives that folder (without root_dir it archives the whole working folder)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits: list[tuple[str, str]] = []
    changes = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "make_archive"
                and len(node.args) >= 2):
            continue
        base, fmt = node.args[0], node.args[1]
        if not (isinstance(base, ast.Constant) and isinstance(base.value, str) and isinstance(fmt, ast.Constant)):
            continue
        ext = next((e for e in _ARCHIVE_EXT.get(str(fmt.value), ()) if base.value.endswith(e)), None)
        stem = base.value[:-len(ext)] if ext else base.value
        whole_folder = len(node.args) == 2 and not node.keywords and bool(stem) and Path(stem).is_dir()
        segment, func = ast.get_source_segment(code, node), ast.get_source_segment(code, node.func)
        if segment is None or func is None or (not ext and not whole_folder):
            continue
        if whole_folder:
            edits.append((segment, f"{func}({stem!r}, {fmt.value!r}, root_dir='.', base_dir={stem!r})"))
            changes.append(f"make_archive archives the folder {stem}/ (without root_dir it archives the whole working folder)")
        else:
            base_src = ast.get_source_segment(code, base) or repr(base.value)
            edits.append((segment, segment.replace(base_src, repr(stem), 1)))
        if ext:
            changes.append(f"make_archive gets {base.value!r} without its extension (it adds it itself)")
    for old, new in edits:
        code = code.replace(old, new, 1)
    return code, changes


_DAY_ASKED = re.compile(r"\b(?:day\s+of\s+the\s+week|week\s*day|what\s+day|which\s+day)\b", re.I)


def _shown_only(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """`node` is only printed: an argument of print() or a value in an f-string."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.FormattedValue):
        return parent.format_spec is None
    return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "print"
            and node in parent.args)


Edit = Callable[[ast.Call, ast.Module, dict[int, ast.AST]], "str | None"]


def _rewrite_calls(code: str, edit: Edit) -> tuple[str, bool]:
    """`code` with each call that `edit` gives new source for replaced by it, and whether any was.
    `edit` sees the call, the whole tree and each node's parent; code that does not parse is left alone."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    edits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (new := edit(node, tree, parents)) is not None:
            segment = ast.get_source_segment(code, node)
            if segment:
                edits.append((segment, new))
    for old, new in edits:
        code = code.replace(old, new, 1)
    return code, bool(edits)


# text read as lines: a CSV's or a JSON file's name written bare is left to the error notes, which load its records
# into that name (`for row in sales.csv` opened as lines gave strings, not rows: multi-csv-followup, session 55's suite)
_FILE_EXTS = frozenset("txt log md".split())


def bare_files(code: str) -> tuple[str, list[str]]:
    """`code` with a text file's name written as a name (`for line in notes.txt:`, `open(notes.txt)`), which nothing
    defines, written as the file: opened where it is walked, quoted elsewhere. Given a pasted log's file
    pasted-896bda0d.txt, the 0.5B model wrote `for line in pasted_896bda0d.txt:` and its fix kept `.txt` on the text
    read into that name (ho20, a development run of session 55); and the files so written."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    bound |= {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
              for a in n.names}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    walked = {id(n.iter) for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension))}
    # `notes.txt["x"]`, `notes.txt.read()`: the name stands for data read from the file, not for the file
    used = {id(n.value) for n in ast.walk(tree) if isinstance(n, (ast.Subscript, ast.Attribute))}
    edits, files = [], []
    for node in ast.walk(tree):
        # `guests.txt = [...]` quoted is `'guests.txt' = [...]`, a SyntaxError (ho56): a name assigned to is left alone
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr.lower() in _FILE_EXTS
                and isinstance(node.ctx, ast.Load)
                and node.value.id not in bound and node.lineno == node.end_lineno and id(node) not in used):
            continue
        stem = node.value.id
        name = next((f"{s}.{node.attr}" for s in dict.fromkeys((stem, stem.replace("_", "-")))
                     if os.path.isfile(f"{s}.{node.attr}")), None)
        if name is None:
            continue
        text = f"open({name!r}, encoding='utf-8', errors='replace')" if id(node) in walked else repr(name)
        edits.append((node.lineno, node.col_offset, node.end_col_offset or 0, text))
        files.append(name)
    return (rewrite(code, edits), list(dict.fromkeys(files))) if edits else (code, [])


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_PLOTS = re.compile(r"\b(?:plt|ax|axes)\.(?:plot|bar|barh|scatter|pie|stackplot)\(|\.plot\(")


def _month_columns(request: str) -> set[str]:
    """The columns of the CSV files the request names that hold month names (three or more), in calendar order."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import SUFFIXES, _table

    found = set()
    for p in mentioned_paths(request, Path.cwd()):
        if p.is_file() and p.suffix.lower() in SUFFIXES:
            for column, values in _table(p).items():
                spots = [_MONTH_NAMES.index(v[:3].lower()) if v[:3].lower() in _MONTH_NAMES and v.isalpha() else -1
                         for v in values]
                seen = list(dict.fromkeys(spots))
                if len(seen) >= 3 and -1 not in seen and seen == sorted(seen):
                    found.add(column)
    return found


def month_order(code: str, request: str) -> tuple[str, bool]:
    """`code` that plots with `sorted(groups.items())` (or `.keys()`, or `.groupby("month")`) over a column of month
    names kept in the file's order: sorted as text, the months went Apr, Aug, Dec, Feb (ho53's chart). Only when a named
    CSV's month column is in calendar order, so the file's order is the calendar's; and whether it changed."""
    months = _month_columns(request) if _PLOTS.search(code) else set()
    if not months:
        return code, False

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "sorted" and len(node.args) == 1 and not node.keywords:
            arg = node.args[0]
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr in ("items", "keys") \
                    and not arg.args:  # a dict's keys: a list's values may be sorted for their own sake
                return ast.get_source_segment(code, arg)
        if isinstance(func, ast.Attribute) and func.attr == "groupby" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Constant) and node.args[0].value in months \
                and not any(k.arg == "sort" for k in node.keywords):
            whole = ast.get_source_segment(code, node)
            return whole[:-1].rstrip() + ", sort=False)" if whole and whole.endswith(")") else None
        return None
    return _rewrite_calls(code, edit)


def domain_ends(code: str) -> tuple[str, bool]:
    """`code` with `x.startswith("@gmail.com")` tested at the end, `x.endswith("@gmail.com")`: an address's domain is
    at its end, and asked how many contacts have a gmail address, the test at the start printed 0 (ho53); and whether
    it changed."""
    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        if not (isinstance(node.func, ast.Attribute) and node.func.attr == "startswith" and len(node.args) == 1
                and not node.keywords and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and re.fullmatch(r"@[\w-]+(?:\.[\w-]+)+", node.args[0].value)):
            return None
        owner, arg = ast.get_source_segment(code, node.func.value), ast.get_source_segment(code, node.args[0])
        return f"{owner}.endswith({arg})" if owner and arg else None
    return _rewrite_calls(code, edit)


def text_lists(code: str) -> tuple[str, bool]:
    """`code` with each `x.to_csv("a.txt", ...)` that says nothing of a header written without one (and
    without the index, unless it says); and whether it changed."""
    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        if not (isinstance(node.func, ast.Attribute) and node.func.attr == "to_csv" and node.args
                and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower().endswith(".txt")):
            return None
        said = {k.arg for k in node.keywords}
        if "header" in said or None in said:
            return None
        segment = ast.get_source_segment(code, node)
        if not segment or not segment.endswith(")"):
            return None
        extra = ", header=False" + ("" if "index" in said else ", index=False")
        return segment[:-1].rstrip().rstrip(",") + extra + ")"
    return _rewrite_calls(code, edit)


def named_readers(code: str) -> tuple[str, list[str]]:
    """`code` with each `csv.DictReader("invoices.csv")` (or `csv.reader`) given the file's name itself, which
    walks the letters of the name and finds no rows (the 0.5B model's follow-up summed 0, ho50), given the
    opened file; and the files so opened."""
    opened: list[str] = []

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("DictReader", "reader") and isinstance(func.value, ast.Name)
                and func.value.id == "csv" and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str) and re.search(r"\.(?:csv|tsv|txt)$", node.args[0].value, re.I)):
            return None
        segment, name = ast.get_source_segment(code, node.args[0]), node.args[0].value
        whole = ast.get_source_segment(code, node)
        if not segment or not whole:
            return None
        opened.append(name)
        return whole.replace(segment, f"open({segment}, newline='', encoding='utf-8')", 1)
    code, _ = _rewrite_calls(code, edit)
    return code, opened


def day_names(code: str) -> tuple[str, bool]:
    """`code` with `d.weekday()` that is only printed (directly or through one name) printed as the
    day's name, `d.strftime('%A')`; and whether it changed."""
    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        if not (isinstance(node.func, ast.Attribute) and node.func.attr in ("weekday", "isoweekday") and not node.args):
            return None
        parent = parents.get(id(node))
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            name = parent.targets[0].id
            uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name]
            loads = [n for n in uses if isinstance(n.ctx, ast.Load)]
            if len(uses) - len(loads) != 1 or not loads or not all(_shown_only(n, parents) for n in loads):
                return None
        elif not _shown_only(node, parents):
            return None
        owner = ast.get_source_segment(code, node.func.value)
        return f"{owner}.strftime('%A')" if owner else None
    return _rewrite_calls(code, edit)


_PATH_CALLS = {"open", "listdir", "walk", "scandir", "Path", "join", "exists", "isfile", "isdir", "getsize", "makedirs",
               "mkdir", "copy", "copy2", "copyfile", "copytree", "move", "rename", "remove", "unlink", "rmtree", "glob",
               "iglob", "read_csv", "read_json", "read_excel", "to_csv", "to_json", "savefig", "chdir", "stat", "getmtime"}


def home_paths(code: str) -> tuple[str, bool]:
    """`code` with a path written with ~ ("~/Documents", given to open, os.listdir, Path ...) written
    as the home folder's path: Python does not expand ~, and open("~/notes.txt") looks for a folder
    named "~" in the working folder; and whether it changed. Not where the code expands it itself."""
    home = os.path.expanduser("~")
    if home == "~":
        return code, False

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        parent = parents.get(id(node))
        if name not in _PATH_CALLS or isinstance(parent, ast.Attribute) and parent.attr == "expanduser":
            return None
        tilde = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                 and (a.value == "~" or a.value.startswith("~/"))]
        segment = ast.get_source_segment(code, node)
        if not tilde or not segment:
            return None
        for arg in tilde:
            old = ast.get_source_segment(code, arg)
            if old:
                segment = segment.replace(old, repr(home + str(arg.value)[1:]), 1)
        return segment
    return _rewrite_calls(code, edit)


def _opened_json(tree: ast.AST, name: str) -> str | None:
    """The .json path a file handle `name` was opened from (`with open("books.json") as name`)."""
    for node in ast.walk(tree):
        pairs = [(i.context_expr, i.optional_vars) for i in node.items] if isinstance(node, ast.With) else \
            [(node.value, node.targets[0])] if isinstance(node, ast.Assign) and len(node.targets) == 1 else []
        for value, target in pairs:
            if isinstance(target, ast.Name) and target.id == name and isinstance(value, ast.Call) \
                    and isinstance(value.func, ast.Name) and value.func.id == "open" and value.args \
                    and isinstance(value.args[0], ast.Constant) and str(value.args[0].value).lower().endswith(".json"):
                return str(value.args[0].value)
    return None


def json_as_csv(code: str) -> tuple[str, list[str]]:
    """`code` with `csv.DictReader(f)` over a file opened from a .json path read with json.load: the
    0.5B model, asked to turn books.json into books.csv, read the JSON as CSV and got rows keyed "{".
    A list of records is read as it is; an object holding one list of records (`{"books": [...]}`),
    as that list. Returns the paths read so; none when the file is not there or not such JSON."""
    read: list[str] = []

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "DictReader" and isinstance(func.value, ast.Name)
                and func.value.id == "csv" and len(node.args) == 1 and isinstance(node.args[0], ast.Name)):
            return None
        path = _opened_json(tree, node.args[0].id)
        where = _records_where(path) if path else None
        if where is None:
            return None
        read.append(str(path))
        return f"json.load({node.args[0].id}){where}"
    code, changed = _rewrite_calls(code, edit)
    return (_importing_json(code) if changed else code), read


def _records_where(path: str) -> str | None:
    """Where a JSON file's records are: "" for a list of records, "['books']" for an object that holds
    one list of records ({"books": [{...}, ...]}); None for other JSON or no file."""
    import json

    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(doc, list):
        return "" if doc and all(isinstance(x, dict) for x in doc) else None
    if not isinstance(doc, dict):
        return None
    lists = [k for k, v in doc.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
    return f"[{lists[0]!r}]" if len(lists) == 1 else None


def _importing_json(code: str) -> str:
    return code if re.search(r"^import json\b|^import .*\bjson\b", code, re.M) else "import json\n" + code


def _json_loaded(tree: ast.AST) -> dict[str, str]:
    """Each name bound to `json.load(...)` of a .json file, with that file's path."""
    loaded: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
                and node.value.func.attr == "load" and node.value.args:
            arg = node.value.args[0]
            path = _opened_json(tree, arg.id) if isinstance(arg, ast.Name) else (
                str(arg.args[0].value) if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "open"
                and arg.args and isinstance(arg.args[0], ast.Constant) else None)
            if path and path.lower().endswith(".json"):
                loaded[node.targets[0].id] = path
    return loaded


def json_walked(code: str) -> tuple[str, list[str]]:
    """`code` with a walk over a JSON object that holds one list of records made a walk over that list:
    `for item in items` over {"products": [...]} gave the key "products", and `item.get("stock")` failed
    on a string, four tries running (ho2-data-json-sum). Only where the code never looks the object up
    by a key itself. Returns the files read so."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    loaded = _json_loaded(tree)
    keyed = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)} | \
        {n.func.value.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
         and isinstance(n.func.value, ast.Name)}
    # the loop's name used as a record (`item["stock"]`, `item.get("stock")`), not as a key
    as_record = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                 and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str)} | \
        {n.func.value.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
         and n.func.attr == "get" and isinstance(n.func.value, ast.Name)}
    edits, read = [], []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.For, ast.comprehension)):
            continue
        it, target = node.iter, node.target
        if isinstance(it, ast.Name) and it.id in loaded and it.id not in keyed and isinstance(target, ast.Name) \
                and target.id in as_record:
            where = _records_where(loaded[it.id])
            if where:
                edits.append((it.lineno, it.col_offset, it.end_col_offset or it.col_offset, f"{it.id}{where}"))
                read.append(loaded[it.id])
    return (rewrite(code, edits) if edits else code), list(dict.fromkeys(read))


def json_tables(code: str) -> tuple[str, list[str]]:
    """`code` with a table made of a JSON object that holds one list of records made of that list:
    `pd.read_json("books.json")` and `pd.DataFrame(data)` (data = json.load(...) of it) give one column
    "books" of whole records, and a CSV written from it held them as text (ho6-data-json-to-csv).
    Returns the files read so."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    loaded = _json_loaded(tree)
    read: list[str] = []

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if len(node.args) != 1 or node.keywords:
            return None
        arg = node.args[0]
        if name == "read_json" and isinstance(arg, ast.Constant) and str(arg.value).lower().endswith(".json"):
            where = _records_where(str(arg.value))  # a list of records reads well as it is: only an object's
            owner = ast.get_source_segment(code, func.value) if isinstance(func, ast.Attribute) else None
            if where and owner:
                read.append(str(arg.value))
                return f"{owner}.DataFrame(json.load(open({str(arg.value)!r}, encoding='utf-8')){where})"
        if name in ("DataFrame", "json_normalize") and isinstance(arg, ast.Name) and arg.id in loaded:
            where = _records_where(loaded[arg.id])
            segment = ast.get_source_segment(code, node)
            if where and segment:
                read.append(loaded[arg.id])
                return segment[:-1] + f"{where})"
        return None
    code, changed = _rewrite_calls(code, edit)
    return (_importing_json(code) if changed else code), read


# Asked for the top of something: "the 3 most common words", "which 5 files are the largest".
_MOST_ASKED = re.compile(r"\b(?:top|(?<!at )most|highest|largest|biggest|longest|heaviest|busiest|greatest|best)\b", re.I)
_LEAST_ASKED = re.compile(r"\b(?:least|lowest|smallest|fewest|shortest|lightest|cheapest|worst|bottom)\b", re.I)


def _negated_key(call: ast.Call) -> bool:
    key = next((k.value for k in call.keywords if k.arg == "key"), None)
    return isinstance(key, ast.Lambda) and isinstance(key.body, ast.UnaryOp) and isinstance(key.body.op, ast.USub)


def top_first(code: str) -> tuple[str, bool]:
    """`code` with an ascending sort whose head is taken (`sorted(counts.items(), key=...)[:3]`,
    `df.sort_values("amount").head(5)`, `sorted(...)[0]`) sorted from the highest down, for a request
    that asks for the top; and whether it changed. Asked for the most common words, the 0.5B model
    printed the three least common (session 37's fix-top-words)."""
    def head_of(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
        parent = parents.get(id(node))
        if isinstance(parent, ast.Subscript) and parent.value is node:
            index = parent.slice
            if isinstance(index, ast.Slice):
                return index.lower is None or isinstance(index.lower, ast.Constant) and index.lower.value == 0
            return isinstance(index, ast.Constant) and index.value == 0
        if isinstance(parent, ast.Attribute) and parent.attr == "head":
            return True
        return isinstance(parent, ast.Attribute) and parent.attr == "iloc" and head_of(parent, parents)

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        segment = ast.get_source_segment(code, node)
        if not segment or not segment.endswith(")") or not head_of(node, parents):
            return None
        if isinstance(func, ast.Name) and func.id == "sorted" and node.args and [k.arg for k in node.keywords] == ["key"] \
                and not _negated_key(node):  # by a key: a plain sorted(names)[:10] may be alphabetical on purpose
            return segment[:-1].rstrip().rstrip(",") + ", reverse=True)"
        if isinstance(func, ast.Attribute) and func.attr == "sort_values" \
                and not any(k.arg in ("ascending", "key") for k in node.keywords):
            return segment[:-1].rstrip().rstrip(",") + ", ascending=False)"
        return None
    return _rewrite_calls(code, edit)


# "in order", "in the right order", "in chapter order", "(1, 2, 3 ...)": "in chapter order" was missed,
# and the chapters were joined 1, 10, 11, 2.
_ORDER_ASKED = re.compile(r"\b(?:in\s+(?:the\s+)?(?:[a-z]+\s+)?order|order(?:ed)?\s+by\s+(?:the\s+)?numbers?)\b"
                          r"|\b1\s*,\s*2\s*,\s*3\b", re.I)
_LISTERS = {"glob", "rglob", "iterdir", "listdir", "scandir"}
NATURAL = "key=lambda p: [int(t) if t.isdigit() else t for t in __import__('re').split(r'(\\d+)', str(p))]"


def natural_order(code: str) -> tuple[str, bool]:
    """`sorted(<a folder listing>)` sorted by the numbers in the names ("chapter_2" before
    "chapter_10"); asked to join chapters "in the right order", the code put 10 and 11 after 1."""
    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Name) and node.func.id == "sorted" and len(node.args) == 1
                and not node.keywords and isinstance(node.args[0], ast.Call)):
            return None
        inner = node.args[0].func
        name = inner.attr if isinstance(inner, ast.Attribute) else inner.id if isinstance(inner, ast.Name) else ""
        arg = ast.get_source_segment(code, node.args[0])
        return f"sorted({arg}, {NATURAL})" if name in _LISTERS and arg else None
    return _rewrite_calls(code, edit)


_NUMBERED = re.compile(r"(\D+)\d+")
MAX_LISTED = 2000  # files of a folder looked at for numbered names


def numbered_only(code: str) -> tuple[str, list[str]]:
    """Asked for numbered files in order, `Path("novel").glob("*.txt")` also took notes.txt (and the
    draft being written there): where a folder's matches are numbered files of one prefix (ch1.txt ...
    ch11.txt) and files with no number, the pattern is narrowed to that prefix ("ch*.txt")."""
    import fnmatch

    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Attribute) and node.func.attr == "glob" and len(node.args) == 1
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
                and node.func.value.func.id == "Path" and len(node.func.value.args) == 1
                and isinstance(node.func.value.args[0], ast.Constant) and isinstance(node.func.value.args[0].value, str)):
            return None
        pattern, folder = node.args[0].value, Path(node.func.value.args[0].value)
        if not re.fullmatch(r"\*(?:\.\w+)?", pattern) or not folder.is_dir():
            return None
        try:
            names = [e.name for e in folder.iterdir() if e.is_file() and fnmatch.fnmatch(e.name, pattern)][:MAX_LISTED]
        except OSError:
            return None
        stems = [Path(n).stem for n in names]
        numbered = [m.group(1) for st in stems if (m := _NUMBERED.fullmatch(st))]
        plain = [st for st in stems if not re.search(r"\d", st)]
        if len(numbered) < 2 or len(set(numbered)) != 1 or not plain or len(numbered) + len(plain) != len(stems):
            return None
        owner = ast.get_source_segment(code, node.func.value)
        return f"{owner}.glob({numbered[0] + pattern!r})" if owner else None
    new, changed = _rewrite_calls(code, edit)
    return new, ["the numbered files only are taken (not the other files in the folder)"] if changed else []


_SUBFOLDERS_ASKED = re.compile(r"\b(?:(?:every|all|any|each)\s+(?:the\s+|of\s+the\s+)?(?:sub-?folders?|sub-?dir\w*|nested\s+folders?)"
                               r"|recursive(?:ly)?|and\s+(?:in\s+)?(?:its|their)\s+sub-?(?:folders?|dir\w*)"
                               # "counting the subfolders too", "including subdirectories"
                               r"|(?:including|counting|with|plus|in|and)\s+(?:the\s+|its\s+|their\s+|all\s+(?:the\s+)?)?"
                               r"sub-?(?:folders?|dir\w*)|sub-?(?:folders?|dir\w*)\s+too)\b", re.I)
_SUBFOLDERS_LEFT = re.compile(r"\b(?:not|no|without|excluding|except|ignor\w*|skip\w*)\s+(?:in\s+|the\s+|its\s+|their\s+|any\s+)*"
                              r"sub-?(?:folders?|dir\w*)", re.I)


def recursive(code: str) -> tuple[str, bool]:
    """`Path(...).glob("*.x")` made `rglob`: asked to remove junk files "in every subfolder", the
    code globbed the top folder only, found one of eight, and said it was done."""
    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Attribute) and node.func.attr == "glob"
                and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and "/" not in node.args[0].value and "**" not in node.args[0].value
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "glob")):  # the glob module
            return None
        segment, owner = ast.get_source_segment(code, node), ast.get_source_segment(code, node.func.value)
        if segment and owner and segment.startswith(owner):
            return owner + segment[len(owner):].replace(".glob(", ".rglob(", 1)
        return None
    return _rewrite_calls(code, edit)


_LINES_ASKED = re.compile(r"\b(?:how\s+many|count|number\s+of)\b[^?.]*\blines?\b|\blines?\b[^?.]*\bcount\b", re.I)


def line_counts(code: str, lines_asked: bool) -> tuple[str, bool]:
    """`len(text.split("\\n"))` made `len(text.splitlines())` (a text ending in a newline has one line
    fewer than it has pieces: 54 said for 53 lines); asked for lines, `len(text.split())`, which
    counts words (273 said for 33 lines), is made `len(text.splitlines())` too."""
    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1):
            return None
        inner = node.args[0]
        if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "split"
                and not inner.keywords):
            return None
        newline = len(inner.args) == 1 and isinstance(inner.args[0], ast.Constant) and inner.args[0].value in ("\n", "\r\n")
        if not (newline or (lines_asked and not inner.args)):
            return None
        owner = ast.get_source_segment(code, inner.func.value)
        return f"len({owner}.splitlines())" if owner else None
    return _rewrite_calls(code, edit)


_BLANK_ASKED = re.compile(r"\b(?:blank|empty|non-?empty|comments?|code lines|lines of code)\b", re.I)


def _blank_test(test: ast.expr, name: str) -> bool:
    """`line.strip()`, `line.strip() != ""`, `line != "\\n"`, `not line.isspace()`: a test that skips blank lines."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
        return isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "isspace" \
            and isinstance(test.func.value, ast.Name) and test.func.value.id == name
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value in ("", "\n"):
        test = test.left
    if isinstance(test, ast.Name):
        return test.id == name
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr in ("strip", "rstrip") \
        and isinstance(test.func.value, ast.Name) and test.func.value.id == name


def blank_lines_kept(code: str) -> tuple[str, bool]:
    """Asked for a line count, `sum(1 for line in f if line.strip())` counted only the lines that are
    not blank (29 said for 41 lines): the test is dropped."""
    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Name) and node.func.id in ("sum", "len") and len(node.args) == 1):
            return None
        comp = node.args[0]
        if not (isinstance(comp, (ast.GeneratorExp, ast.ListComp)) and len(comp.generators) == 1):
            return None
        gen = comp.generators[0]
        if not (isinstance(gen.target, ast.Name) and len(gen.ifs) == 1 and _blank_test(gen.ifs[0], gen.target.id)):
            return None
        whole, test = ast.get_source_segment(code, node), ast.get_source_segment(code, gen.ifs[0])
        if not whole or not test or f" if {test}" not in whole:
            return None
        return whole.replace(f" if {test}", "", 1)
    return _rewrite_calls(code, edit)


_COPIERS = {"copy", "copy2", "move"}
_FOLDER_ASKED = re.compile(r"\b(?:folders?|director(?:y|ies)|dir)\b", re.I)


def copy_into_folder(code: str, folder_asked: bool) -> tuple[str, list[str]]:
    """Asked to copy into a new folder, `shutil.copy("items.csv", "backup_folder")` wrote a file named
    backup_folder (there was no such folder): a copy or move to a path with no extension that is not
    there gets that folder made first (`os.makedirs(..., exist_ok=True)` on the line before). So does a
    move to a folder that is not there, named before the file's own name (`"photos/pictures/" + p.name`:
    the move failed with FileNotFoundError), asked for a folder or not."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    inserts: dict[int, tuple[int, str]] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _COPIERS
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "shutil" and len(node.args) == 2):
            continue
        dst = node.args[1]
        if isinstance(dst, ast.Constant) and isinstance(dst.value, str):
            if not folder_asked:
                continue
            folder = dst.value.rstrip("/")
            if Path(folder).suffix:
                continue
        else:
            folder = _folder_of(dst) or ""
        if not folder or Path(folder).exists() or any(c in folder for c in "*?$~\n"):
            continue
        statement: ast.AST = node
        while not isinstance(statement, ast.stmt):
            statement = parents[id(statement)]
        inserts[statement.lineno] = (statement.col_offset, folder)
    if not inserts:
        return code, []
    lines = code.splitlines(keepends=True)
    inserts = {n: (col, f) for n, (col, f) in inserts.items() if not lines[n - 1][:col].strip()}  # not `if x: copy(...)`
    if not inserts:
        return code, []
    for line, (col, folder) in sorted(inserts.items(), reverse=True):
        lines.insert(line - 1, lines[line - 1][:col] + f"os.makedirs({folder!r}, exist_ok=True)\n")
    new = "".join(lines)
    if not re.search(r"^import os\b", new, re.M):
        new = "import os\n" + new
    return new, sorted({folder for _, folder in inserts.values()})


def _folder_of(dst: ast.expr) -> str | None:
    """The folder a destination built from a file's name puts it in: "photos/pictures/" + p.name,
    f"photos/pictures/{p.name}", os.path.join("photos/pictures", p.name), Path("photos/pictures") / p.name."""
    head: ast.expr | None = None
    if isinstance(dst, ast.BinOp) and isinstance(dst.op, (ast.Add, ast.Div)):
        head = dst.left
        if isinstance(dst.op, ast.Div) and isinstance(head, ast.Call) and isinstance(head.func, ast.Name) \
                and head.func.id == "Path" and len(head.args) == 1:
            head = head.args[0]
        if isinstance(head, ast.Constant) and isinstance(head.value, str):
            return head.value.rstrip("/") if isinstance(dst.op, ast.Div) else head.value.rpartition("/")[0] or None
        return None
    if isinstance(dst, ast.JoinedStr) and dst.values and isinstance(dst.values[0], ast.Constant):
        return str(dst.values[0].value).rpartition("/")[0] or None
    if isinstance(dst, ast.Call) and isinstance(dst.func, ast.Attribute) and dst.func.attr == "join" \
            and len(dst.args) >= 2 and isinstance(dst.args[0], ast.Constant) and isinstance(dst.args[0].value, str) \
            and not isinstance(dst.args[-1], ast.Constant):
        return dst.args[0].value.rstrip("/") or None
    return None


def _folder_const(tree: ast.AST, expr: ast.AST) -> str | None:
    """The string a folder expression is: "a/b", Path("a/b"), or a name bound once to either."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "Path" and len(expr.args) == 1:
        expr = expr.args[0]
    if isinstance(expr, ast.Name):
        given = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
        return _folder_const(tree, given[0]) if len(given) == 1 and not isinstance(given[0], ast.Name) else None
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, str) else None


def parents_made(code: str) -> tuple[str, list[str]]:
    """`Path("Documents/receipts").mkdir(exist_ok=True)` fails with FileNotFoundError when Documents is
    not there either (the run stopped and the next try moved files to a folder that was not made);
    `os.mkdir("a/b")` the same. Where the folder's parent is not there, the parents are made too
    (`parents=True`, `os.makedirs`)."""
    def missing_parent(folder: str | None) -> bool:
        if not folder or any(c in folder for c in "*?$\n{"):
            return False
        parent = Path(folder.rstrip("/")).expanduser().parent
        return str(parent) not in ("", ".") and not parent.exists()

    made: list[str] = []

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        if not isinstance(func, ast.Attribute) or any(k.arg == "parents" for k in node.keywords):
            return None
        if func.attr == "mkdir" and not node.args and isinstance(func.value, (ast.Call, ast.Name)) \
                and not (isinstance(func.value, ast.Name) and func.value.id == "os"):
            folder = _folder_const(tree, func.value)
            if missing_parent(folder):
                made.append(str(folder))
                return ast.unparse(ast.Call(func=func, args=[], keywords=[
                    ast.keyword(arg="parents", value=ast.Constant(True)), *node.keywords]))
        if func.attr == "mkdir" and isinstance(func.value, ast.Name) and func.value.id == "os" and len(node.args) == 1:
            folder = _folder_const(tree, node.args[0])
            if missing_parent(folder):
                made.append(str(folder))
                return ast.unparse(ast.Call(func=ast.Attribute(value=func.value, attr="makedirs", ctx=ast.Load()),
                                            args=node.args, keywords=node.keywords))
        return None

    new, changed = _rewrite_calls(code, edit)
    return (new, made) if changed else (code, [])


# "back up my photos", "copy the reports into archive/", unless it also says to move them ("move ... and
# keep a copy" still moves): a backup that moves the originals out loses them from where the person keeps them.
_COPY_ASKED = re.compile(r"\bback(?:ing|ed)?\s+(?:it\s+|them\s+|this\s+|these\s+|that\s+)?up\b|"
                         r"\bbackup\s+(?:my|the|all|these|this|them|it|everything|of)\b|\ba\s+backup\b|"
                         r"\bcop(?:y|ies|ying)\b|\bduplicat\w*", re.I)
_MOVE_ASKED = re.compile(r"\b(?:move|moving|relocate|rename|tidy|sort|organi[sz]e|put\s+away|clear\s+out|archive)\b", re.I)


def copy_not_move(code: str) -> tuple[str, bool]:
    """`shutil.move(a, b)` (or a rename) made `shutil.copy2(a, b)`: asked to back up a photos folder to
    the NAS, the 0.5B model moved every photo out of it. Not when `a` is a folder here (copy2 copies
    files only)."""
    # code that copies first (copytree, then a rename of each copy) renames the copies: left alone
    renames = not re.search(r"\bcopytree\(|\bshutil\.copy\w*\(", code)

    def edit(node: ast.Call, tree: ast.Module, parents: dict[int, ast.AST]) -> str | None:
        func = node.func
        segment = ast.get_source_segment(code, node) or ""
        if isinstance(func, ast.Attribute) and func.attr == "rename" and not node.keywords:
            if not renames:
                return None
            # `p.rename(new)` / `os.rename(a, b)`: asked to back up .ini files with .bak added, the
            # originals were renamed (a DataFrame's rename takes keywords)
            if isinstance(func.value, ast.Name) and func.value.id == "os" and len(node.args) == 2:
                return "shutil.copy2(" + segment[segment.index("(") + 1:]
            owner = ast.get_source_segment(code, func.value)
            if len(node.args) == 1 and owner and not (isinstance(func.value, ast.Name) and func.value.id == "os"):
                return f"shutil.copy2({owner}, {ast.get_source_segment(code, node.args[0])})"
            return None
        if not (isinstance(func, ast.Attribute) and func.attr == "move" and isinstance(func.value, ast.Name)
                and func.value.id == "shutil" and node.args):
            return None
        src = node.args[0]
        if isinstance(src, ast.Constant) and isinstance(src.value, str) and Path(src.value).is_dir():
            return None
        return segment.replace("shutil.move", "shutil.copy2", 1) if segment.startswith("shutil.move") else None

    code, changed = _rewrite_calls(code, edit)
    if changed and not re.search(r"^\s*import\s+(?:[\w, ]*\b)?shutil\b", code, re.M):
        code = "import shutil\n" + code
    return code, changed


_CASED = {"lower", "upper", "casefold", "title", "capitalize"}


def _cells(request: str) -> set[str]:
    """The values in the CSV files the request names (their first rows)."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import SUFFIXES, _table

    cells: set[str] = set()
    for p in mentioned_paths(request, Path.cwd()):
        if p.is_file() and p.suffix.lower() in SUFFIXES:
            for values in _table(p).values():
                cells.update(values)
    return cells


def value_case(code: str, cells: set[str]) -> tuple[str, list[tuple[str, str]]]:
    """`code` with a string it compares data with (`r["category"] == "takeaway"`) written as the data
    writes it ("Takeaway") when the data has it only in another case, and the pairs changed. The
    0.5B model's lower-case value picked no rows and it answered 0. Not where the data side is
    itself case-folded (`.lower() == "takeaway"`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    by_case: dict[str, set[str]] = {}
    for c in cells:
        by_case.setdefault(c.strip().casefold(), set()).add(c.strip())
    spots: list[tuple[ast.Constant, str]] = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Compare) or len(n.comparators) != 1 or not isinstance(n.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
            continue
        sides = [n.left, n.comparators[0]]
        if any(isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and x.func.attr in _CASED for x in sides):
            continue
        for side in sides:
            items: list[ast.expr] = [side] if isinstance(side, ast.Constant) else \
                list(side.elts) if isinstance(side, (ast.List, ast.Tuple, ast.Set)) else []
            for item in items:
                if isinstance(item, ast.Constant) and isinstance(item.value, str) and item.value and item.value not in cells:
                    seen = by_case.get(item.value.strip().casefold(), set())
                    if len(seen) == 1 and item.lineno == item.end_lineno:
                        spots.append((item, next(iter(seen))))
    if not spots:
        return code, []
    code = rewrite(code, [(s.lineno, s.col_offset, s.end_col_offset or s.col_offset, repr(new)) for s, new in spots])
    return code, list(dict.fromkeys((str(spot.value), new) for spot, new in spots))


def _appends(tree: ast.AST) -> list[tuple[str, ast.Constant]]:
    """(path, written text) of each `open(path, "a")`'s write of a string constant: `with open(...) as f:
    f.write("...")` and `open(...).write("...")`."""
    def opened(call: ast.expr) -> str | None:
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open"
                and len(call.args) >= 2 and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            return None
        mode = call.args[1]
        return call.args[0].value if isinstance(mode, ast.Constant) and mode.value in ("a", "at") else None

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.With):
            for item in node.items:
                path = opened(item.context_expr)
                if path and isinstance(item.optional_vars, ast.Name):
                    var = item.optional_vars.id
                    found += [(path, c.args[0]) for c in ast.walk(node) if isinstance(c, ast.Call)
                              and isinstance(c.func, ast.Attribute) and c.func.attr == "write"
                              and isinstance(c.func.value, ast.Name) and c.func.value.id == var
                              and len(c.args) == 1 and isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "write":
            path = opened(node.func.value)
            if path and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((path, node.args[0]))
    return found


def _written_again(path: str, texts: list[str]) -> int:
    """How many of the writes, from the first, say the file's lines again, all of them in order and
    nothing else (0 when they do not): `f.write("eggs\\n")`, `f.write("milk\\n")`, ... for the whole
    list, then the new items (ho27: the bake-sale list appended whole again, 12 items for 7)."""
    try:
        old = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 0
    had = [ln.strip() for ln in old.splitlines() if ln.strip()]
    said: list[str] = []
    for i, text in enumerate(texts):
        said += [ln.strip() for ln in text.splitlines() if ln.strip()]
        if said != had[:len(said)]:
            return 0
        if len(said) == len(had):
            return i + 1 if had and old.endswith("\n") else 0
    return 0


def appended(code: str) -> tuple[str, list[str]]:
    """`code` with text appended to a list file made to add only what is new: asked to add butter and
    caster sugar to shopping.txt, the 0.5B model appended the whole list again (eggs, milk ... twice);
    and started on a line of its own when the file does not end with one ("lemonsbutter"). What was
    changed, in words."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, paths = [], []
    found = _appends(tree)
    for path in dict.fromkeys(p for p, _ in found):
        consts = [c for p, c in found if p == path]
        if len(consts) > 1:  # one write a line: the writes that say the file's lines again are dropped
            again = _written_again(path, [str(c.value) for c in consts])
            if again:
                edits += [(c, "") for c in consts[:again]]
                paths.append(f"only the new lines are appended to {path} (the code wrote its old lines again)")
    firsts = {id(next(c for p, c in found if p == path)) for path in {p for p, _ in found}}
    for path, const in found if not edits else []:
        try:
            old = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        text = str(const.value)
        if id(const) in firsts and old.endswith("\n") and text.startswith("\n") and const.lineno == const.end_lineno:
            # f.write("\n") then f.write("46\n") to a log that ends with a line break left a blank line, and
            # the next turn's int(line) failed on it (ho5-multi-running-log)
            edits.append((const, text.lstrip("\n")))
            paths.append(f"the text appended to {path} starts right after its last line (no blank line)")
            continue
        had = [ln.strip() for ln in old.splitlines() if ln.strip()]
        new = text.splitlines(keepends=True)
        k = 0  # how many of the written lines say the file's lines again, in order, from its start
        while k < len(new) and k < len(had) and new[k].strip() == had[k]:
            k += 1
        rest = "".join(new[k:]) if k == len(had) and k > 0 else text
        if old and not old.endswith("\n") and rest and not rest.startswith("\n"):
            rest = "\n" + rest
        if rest != text and const.lineno == const.end_lineno:
            edits.append((const, rest))
            paths.append(f"only the new lines are appended to {path} (the code wrote its old lines again)" if k
                         else f"the text appended to {path} starts on a new line (the file does not end with one)")
    return rewrite(code, [(c.lineno, c.col_offset, c.end_col_offset or c.col_offset, repr(rest)) for c, rest in edits]), paths


MAX_SUFFIXES_LOOKED_AT = 2000  # files under the named folders whose extensions are looked at


def _suffixes_here(request: str, code: str = "") -> set[str]:
    """The file extensions under the folders the request names, or the code names as a literal path
    (~/Downloads, given its full path by the paths rule), as written (".PDF" and ".pdf")."""
    import os

    from oi_local.core.hints import mentioned_paths

    found: set[str] = set()
    seen = 0
    literal = [Path(m) for m in re.findall(r"""['"]([^'"\n*?]+)['"]""", code)]
    folders = [p for p in mentioned_paths(request, Path.cwd()) if p.is_dir()]
    folders += [p for p in literal if p.is_dir() and p.resolve() != Path.cwd().resolve() and p not in folders]
    for folder in folders:
        for _, _, files in os.walk(folder):
            found |= {os.path.splitext(f)[1] for f in files}
            seen += len(files)
            if seen >= MAX_SUFFIXES_LOOKED_AT:
                return found
    return found


def text_equals(code: str) -> tuple[str, bool]:
    """`r["kwh"] != 0` over csv rows, where every cell is text and so never equals a number, made
    `float(r["kwh"]) != 0`: asked to drop the days a meter logged 0, the code kept all 14 rows and said
    "14 rows saved" (ho44, read after session 45's end). Only in code that reads rows with the csv module,
    for a cell looked up by a quoted column name."""
    if "csv." not in code:
        return code, False

    def cell(node: ast.expr) -> bool:
        return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)

    def number(node: ast.expr) -> bool:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            node = node.operand
        return isinstance(node, ast.Constant) and type(node.value) in (int, float)

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    edits = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Eq, ast.NotEq))):
            continue
        left, right = n.left, n.comparators[0]
        side = left if cell(left) and number(right) else right if cell(right) and number(left) else None
        if side is None or side.lineno != side.end_lineno:
            continue
        text = ast.get_source_segment(code, side)
        if text:
            edits.append((side.lineno, side.col_offset, side.end_col_offset or side.col_offset, f"float({text})"))
    return (rewrite(code, edits), True) if edits else (code, False)


def stem_suffixes(code: str) -> tuple[str, bool]:
    """`p.stem.endswith(".pdf")`, never true (a stem has no extension), made `p.name.endswith(".pdf")`: asked to
    put the PDFs and pictures of downloads/ into folders, the code tested the stems, moved nothing and printed
    each file as "not a PDF or a picture" (ho44, read after session 45's end)."""
    def dotted(arg: ast.expr) -> bool:
        parts = arg.elts if isinstance(arg, ast.Tuple) else [arg]
        return all(isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.startswith(".") for e in parts)

    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Attribute) and node.func.attr == "endswith" and len(node.args) == 1
                and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "stem" and dotted(node.args[0])):
            return None
        owner, arg = ast.get_source_segment(code, node.func.value.value), ast.get_source_segment(code, node.args[0])
        return f"{owner}.name.endswith({arg})" if owner and arg else None
    return _rewrite_calls(code, edit)


def _folder_texts(request: str, code: str) -> list[str]:
    """The text of the files under the folders (and of the files) the request or the code names."""
    import os

    from oi_local.core.hints import mentioned_paths

    literal = [Path(m) for m in re.findall(r"""['"]([^'"\n*?]+)['"]""", code)]
    paths = mentioned_paths(request, Path.cwd()) + [p for p in literal if p.exists() and p.resolve() != Path.cwd().resolve()]
    texts: list[str] = []
    for path in dict.fromkeys(paths):
        files = [str(path)] if path.is_file() else [os.path.join(b, f) for b, _, fs in os.walk(path) for f in fs]
        for f in files[:MAX_SUFFIXES_LOOKED_AT]:
            try:
                if os.path.getsize(f) <= 1_000_000:
                    texts.append(Path(f).read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
    return texts


def word_case(code: str, texts: list[str]) -> tuple[str, list[str]]:
    """`"invoice" in content`, where the files the code reads write the word "Invoice" in some of them and
    never "invoice", found some of the emails and missed the rest (the speed set on the dateless prompt):
    a lower-case word looked for in a file's text is looked for in its lower-cased text (`content.lower()`)
    when some file has it only in another case. The words changed."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, words = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.In, ast.NotIn))):
            continue
        word, where = n.left, n.comparators[0]
        if not (isinstance(word, ast.Constant) and isinstance(word.value, str) and re.fullmatch(r"[a-z][a-z ]{2,40}", word.value)
                and isinstance(where, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) and where.lineno == where.end_lineno):
            continue
        if isinstance(where, ast.Call) and isinstance(where.func, ast.Attribute) and where.func.attr in _CASED:
            continue
        w = word.value
        pattern = re.compile(rf"\b{re.escape(w)}", re.I)
        if not any(pattern.search(t) and w not in t for t in texts):
            continue
        edits.append((where.end_lineno or where.lineno, where.end_col_offset or 0, where.end_col_offset or 0, ".lower()"))
        words.append(w)
    if not edits:
        return code, []
    return rewrite(code, edits), list(dict.fromkeys(words))


def file_lengths(code: str) -> tuple[str, bool]:
    """`len(open("runs.txt"))`, a TypeError (a file has no len()), made `len(open("runs.txt").read().splitlines())`:
    asked for the average run of a log, the 0.5B model divided by it three times over (ho5-multi-running-log)."""
    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1):
            return None
        arg = node.args[0]
        if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "open"):
            return None
        src = ast.get_source_segment(code, arg)
        return f"len({src}.read().splitlines())" if src else None
    return _rewrite_calls(code, edit)


def folder_sizes(code: str) -> tuple[str, bool]:
    """`os.path.getsize(d)` (or `d.stat().st_size`) of a folder the code tests with isdir()/is_dir() is the size of
    the folder's own entry (4096), not of what is in it: asked which folder inside ~/Music takes the most room, the
    0.5B model compared those and named no folder (ho45, a development run of session 47). It is the sum of the
    sizes of the files under it."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    folders = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if n.func.attr == "isdir" and ast.unparse(n.func.value) in ("os.path", "path") and len(n.args) == 1:
                folders.add(ast.unparse(n.args[0]))
            elif n.func.attr == "is_dir" and not n.args:
                folders.add(ast.unparse(n.func.value))
    edits = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "getsize" \
                and ast.unparse(n.func.value) in ("os.path", "path") and len(n.args) == 1 and ast.unparse(n.args[0]) in folders:
            inner = ast.get_source_segment(code, n.args[0])
        elif isinstance(n, ast.Attribute) and n.attr == "st_size" and isinstance(n.value, ast.Call) \
                and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "stat" and not n.value.args \
                and ast.unparse(n.value.func.value) in folders:
            inner = ast.get_source_segment(code, n.value.func.value)
        else:
            continue
        segment = ast.get_source_segment(code, n)
        if segment and inner:
            edits.append((segment, f"sum(f.stat().st_size for f in __import__('pathlib').Path({inner}).rglob('*') if f.is_file())"))
    for old, new in edits:
        code = code.replace(old, new, 1)
    return code, bool(edits)


# "how many times does the word harbour appear", "how often is X mentioned", "the number of occurrences"
_TIMES_ASKED = re.compile(r"\bhow\s+(?:many\s+times|often)\b|\bnumber\s+of\s+(?:times|occurrences|mentions)\b|"
                          r"\boccurrences?\b|\bcount\s+(?:every|each)\s+(?:time|mention)", re.I)


def occurrences(code: str) -> tuple[str, bool]:
    """`sum(1 for line in f if "harbour" in line)` counts the lines that hold the word, not the times it is
    there: asked how many times "harbour" is in a pasted story, the 0.5B model answered 19 for 23. Asked how
    many times, each line's matches of the word (whole word, any case) are counted."""
    def edit(node: ast.Call, *_: object) -> str | None:
        if not (isinstance(node.func, ast.Name) and node.func.id == "sum" and len(node.args) == 1
                and isinstance(node.args[0], ast.GeneratorExp)):
            return None
        gen = node.args[0]
        if not (isinstance(gen.elt, ast.Constant) and gen.elt.value == 1 and len(gen.generators) == 1):
            return None
        comp = gen.generators[0]
        if not (isinstance(comp.target, ast.Name) and len(comp.ifs) == 1):
            return None
        test = comp.ifs[0]
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In):
            word, where = test.left, test.comparators[0]
        else:
            return None
        base = where.func.value if (isinstance(where, ast.Call) and isinstance(where.func, ast.Attribute)
                                    and where.func.attr in ("lower", "casefold") and not where.args) else where
        if not (isinstance(word, ast.Constant) and isinstance(word.value, str) and re.fullmatch(r"\w[\w' -]*\w", word.value)
                and isinstance(base, ast.Name) and base.id == comp.target.id):
            return None
        source = ast.get_source_segment(code, comp.iter)
        if not source:
            return None
        pattern = r"\b" + re.escape(word.value) + r"\b"
        return f"sum(len(re.findall({pattern!r}, {base.id}, flags=re.I)) for {base.id} in {source})"
    new, changed = _rewrite_calls(code, edit)
    if changed and not re.search(r"^import re$|^import .*\bre\b", new, re.M):
        new = "import re\n" + new
    return new, changed


_HANDLE_USES = {"read", "readline", "readlines", "write", "writelines", "seek", "tell", "close"}


def shadowed_paths(code: str) -> tuple[str, bool]:
    """`for f in Path("inbox").iterdir(): with open(f) as f: ... print(f)` names the file handle as the
    path it opened, so `print(f)` printed "<_io.TextIOWrapper name='inbox/msg_02.txt' ...>" for each email
    (the speed set on the dateless prompt). The handle is named `fh`: its reads and writes (and a loop
    over its lines) use `fh`, every other use of the name is the path again."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.With):
            continue
        for item in node.items:
            call, var = item.context_expr, item.optional_vars
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open" and call.args
                    and isinstance(call.args[0], ast.Name) and isinstance(var, ast.Name) and var.id == call.args[0].id):
                continue
            name = var.id
            if any(isinstance(n, ast.Name) and n.id == "fh" for n in ast.walk(tree)):
                continue
            edits.append((var.lineno, var.col_offset, var.end_col_offset or var.col_offset, "fh"))
            for n in ast.walk(node):
                handle = None
                if isinstance(n, ast.Attribute) and n.attr in _HANDLE_USES and isinstance(n.value, ast.Name) and n.value.id == name:
                    handle = n.value
                elif isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.iter, ast.Name) and n.iter.id == name:
                    handle = n.iter
                if handle is not None:
                    edits.append((handle.lineno, handle.col_offset, handle.end_col_offset or handle.col_offset, "fh"))
    if not edits:
        return code, False
    return rewrite(code, edits), True


def bare_globs(code: str) -> tuple[str, bool]:
    """`Path.home().rglob("passport")` finds only a file named exactly "passport": asked to find a passport scan
    somewhere in the home folder, the code found nothing (ho45, read after session 46's end). A glob of a bare
    word (no wildcard, no dot, no slash) for a name that is not there is "*word*"."""
    def edit(node: ast.Call, *_: object) -> str | None:
        name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name not in ("glob", "rglob") or len(node.args) != 1:
            return None
        arg = node.args[0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str) and re.fullmatch(r"[A-Za-z][\w-]{2,}", arg.value)
                and not Path(arg.value).exists()):
            return None
        segment, old = ast.get_source_segment(code, node), ast.get_source_segment(code, arg)
        return segment.replace(old, repr(f"*{arg.value}*"), 1) if segment and old else None
    return _rewrite_calls(code, edit)


def hidden_globs(code: str) -> tuple[str, bool]:
    """`Path("desktop").glob(".*")` matches only hidden files (a regex's "anything" written as a glob): asked to
    sort a desktop folder's pictures and PDFs into subfolders, the code walked `.glob(".*")`, moved nothing and
    printed nothing (the speed set on the dateless prompt). ".*" (or "dir/.*") is made "*" ("dir/*")."""
    def edit(node: ast.Call, *_: object) -> str | None:
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id if isinstance(node.func, ast.Name) else ""
        if name not in ("glob", "rglob", "iglob") or not node.args:
            return None
        arg = node.args[0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                and (arg.value == ".*" or arg.value.endswith("/.*"))):
            return None
        segment = ast.get_source_segment(code, node)
        old = ast.get_source_segment(code, arg)
        return segment.replace(old, repr(arg.value[:-2] + "*"), 1) if segment and old else None
    return _rewrite_calls(code, edit)


def any_case(code: str, suffixes: set[str]) -> tuple[str, bool]:
    """`name.endswith(".pdf")` made `name.lower().endswith(".pdf")`, and `glob("*.pdf")` made
    `glob("*.[pP][dD][fF]")`, for an extension the folder also holds in another case: asked for
    the PDFs under invoices/, the code counted 22 of 24 (two were .PDF)."""
    mixed = {x.lower() for x in suffixes if x and x != x.lower()}

    def wanted(node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in mixed

    def edit(node: ast.Call, *_: object) -> str | None:
        if not isinstance(node.func, ast.Attribute) or len(node.args) != 1:
            return None
        arg, owner = node.args[0], ast.get_source_segment(code, node.func.value)
        if owner is None:
            return None
        lower = all(isinstance(e, ast.Constant) and str(e.value) == str(e.value).lower()
                    for e in (arg.elts if isinstance(arg, ast.Tuple) else [arg]))
        if node.func.attr == "endswith" and lower and (wanted(arg) or isinstance(arg, ast.Tuple) and any(map(wanted, arg.elts))):
            return f"{owner}.lower().endswith({ast.get_source_segment(code, arg)})"
        if (node.func.attr in ("glob", "rglob") and isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                and arg.value.startswith("*.") and "." + arg.value[2:] in mixed):
            pattern = "*." + "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in arg.value[2:])
            return f"{owner}.{node.func.attr}({pattern!r})"
        return None
    if not mixed:
        return code, False
    code, changed = _rewrite_calls(code, edit)
    code, compared = _suffix_any_case(code, wanted)
    return code, changed or compared


def _suffix_any_case(code: str, wanted: Callable[[ast.expr], bool]) -> tuple[str, bool]:
    """`p.suffix == ".pdf"` (or `in (".pdf", ".txt")`) made `p.suffix.lower() == ...` (it counted 10 of 11)."""
    from oi_local.core.pycheck import rewrite

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    edits = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Eq, ast.In))
                and isinstance(n.left, ast.Attribute) and n.left.attr == "suffix" and n.left.lineno == n.left.end_lineno):
            continue
        right = n.comparators[0]
        values = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
        lower = all(isinstance(e, ast.Constant) and str(e.value) == str(e.value).lower() for e in values)
        if lower and any(map(wanted, values)):
            end = n.left.end_col_offset or 0
            edits.append((n.left.lineno, end, end, ".lower()"))
    return (rewrite(code, edits), True) if edits else (code, False)


_READS = {"read", "readline", "readlines"}
_WRITES = {"write", "writelines", "truncate"}


def _handle_use(body: list[ast.stmt], name: str) -> tuple[bool, bool]:
    """(read, written): how the statements use the file handle `name`, leaving out nested `with`
    blocks that bind the same name again."""
    read = written = False
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.With) and any(isinstance(i.optional_vars, ast.Name) and i.optional_vars.id == name
                                              for i in node.items):
            todo += [i.context_expr for i in node.items]
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            read |= node.attr in _READS
            written |= node.attr in _WRITES
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name) and node.iter.id == name:
            read = True
        elif isinstance(node, ast.Call) and any(k.arg == "file" and isinstance(k.value, ast.Name) and k.value.id == name
                                                for k in node.keywords):
            written = True
        todo += list(ast.iter_child_nodes(node))
    return read, written


def read_not_write(code: str) -> tuple[str, list[str]]:
    """`code` with `with open(p, "w") as f:` blocks that only read f opened for reading, and the
    paths changed. Opened "w", the file is emptied before the read fails: asked how many lines a
    notes file had, the 0.5B model wrote `with open("garden/seed_notes.txt", "w") as f: text = f.read()`
    and then counted 0 lines in the emptied file."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    edits, paths = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.With):
            continue
        for item in node.items:
            call, var = item.context_expr, item.optional_vars
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open"
                    and isinstance(var, ast.Name) and len(call.args) >= 2):
                continue
            mode = call.args[1]
            if not (isinstance(mode, ast.Constant) and mode.value in ("w", "wt", "w+")):
                continue
            read, written = _handle_use(node.body, var.id)
            if read and not written and mode.lineno == mode.end_lineno:
                edits.append((mode.lineno, mode.col_offset, mode.end_col_offset or mode.col_offset))
                first = call.args[0]
                paths.append(ast.get_source_segment(code, first) or "the file")
    return rewrite(code, [(line, start, end, '"r"') for line, start, end in edits]), paths


_CELSIUS_ASKED = re.compile(r"\bcelsius\b|\bcentigrade\b|°\s?c\b", re.I)
_FAHRENHEIT = re.compile(r"fahrenheit|°\s?f\b|\bdeg_?f\b|_f\b|\btemp_?f\b", re.I)


def celsius_scaled(code: str) -> tuple[str, bool]:
    """`f - 32` that nothing scales, where Celsius is asked of Fahrenheit, is `(f - 32) * 5 / 9`: asked to add a
    celsius column, the 0.5B model wrote the formula in a comment and `round(float(r["fahrenheit"]) - 32, 1)`
    in the code (ho52)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, False
    parents = {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    edits = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) and isinstance(n.right, ast.Constant)
                and n.right.value == 32 and n.lineno == n.end_lineno):
            continue
        parent = parents.get(id(n))
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Mult, ast.Div)):
            continue  # scaled: (f - 32) * 5 / 9, (f - 32) / 1.8
        text = ast.get_source_segment(code, n)
        if text:
            edits.append((n.lineno, n.col_offset, n.end_col_offset or 0, f"({text}) * 5 / 9"))
    return (rewrite(code, edits), True) if edits else (code, False)


def _to_celsius(code: str, request: str) -> bool:
    return "32" in code and bool(_CELSIUS_ASKED.search(instruction(request))) and bool(
        _FAHRENHEIT.search(instruction(request)) or _FAHRENHEIT.search(code))


def _always(code: str, request: str) -> bool:
    return True


@dataclass(frozen=True)
class Slip:
    """One slip: a repair of the code, the words the person is told for each change it made, and a cheap look
    at the code and the request that decides whether it is tried at all."""
    repair: Callable[[str, str], tuple[str, Any]]  # (code, request) -> (code, changed: a bool or a list of items)
    said: str = ""  # each item put into it ({0}, {1} for a pair); "" when the repair's items are its own words
    when: Callable[[str, str], bool] = _always

    def run(self, code: str, request: str) -> tuple[str, list[str]]:
        if not self.when(code, request):
            return code, []
        code, got = self.repair(code, request)
        items = ([()] if got else []) if isinstance(got, bool) else got
        if not self.said:
            return code, list(items)
        return code, [self.said.format(*i) if isinstance(i, tuple) else self.said.format(i) for i in items]


def _has(*texts: str) -> Callable[[str, str], bool]:
    return lambda code, request: any(t in code for t in texts)


def _most(code: str, request: str) -> bool:
    asked = instruction(request)
    return ("sorted(" in code or "sort_values(" in code) and bool(_MOST_ASKED.search(asked)) and not _LEAST_ASKED.search(asked)


def _copy_asked(code: str, request: str) -> bool:
    asked = instruction(request)
    return ("shutil.move" in code or "rename(" in code) and bool(_COPY_ASKED.search(asked)) and not _MOVE_ASKED.search(asked)


# The slips, tried in this order, each on the code the ones before it left.
SLIPS: tuple[Slip, ...] = (
    Slip(lambda c, r: read_not_write(c), "{} is opened for reading (opened with \"w\", only read, it would have been emptied)"),
    Slip(lambda c, r: home_paths(c), "~ is written as your home folder's path (Python does not expand ~ in a path)", _has("~")),
    Slip(lambda c, r: json_as_csv(c), "{} is read with json.load (it is JSON; csv.DictReader read it as CSV)",
         lambda c, r: "DictReader" in c and ".json" in c),
    Slip(lambda c, r: json_tables(c), "the table is made of the list of records in {} (made of the whole object, it had one column)",
         lambda c, r: ("read_json(" in c or "DataFrame(" in c or "json_normalize(" in c) and ".json" in c),
    Slip(lambda c, r: json_walked(c), "the list of records in {} is walked (walked as it was, the object gave its keys, not "
                                      "its records)", lambda c, r: "json" in c and "for " in c),
    Slip(lambda c, r: named_readers(c), "the file {} is opened for the csv reader (given its name, the reader walked the "
                                        "letters of the name)", _has("reader(\"", "reader('")),
    Slip(lambda c, r: read_twice(c), "{} is read into a list first (it was walked twice; the second walk saw nothing)"),
    Slip(lambda c, r: file_read_twice(c), "the file {0} is read once, into {0}_text (read a second time, it gave nothing)",
         _has("with open(")),
    Slip(lambda c, r: archive_names(c)),
    Slip(lambda c, r: bare_files(c), "{} is written as the file's name (written bare, it was a name nothing defines)",
         lambda c, r: bool(re.search(r"\b[A-Za-z_]\w*\.(?:" + "|".join(_FILE_EXTS) + r")\b", c))),
    Slip(month_order, "the months keep the file's calendar order (sorted as text, April came first)",
         lambda c, r: "sorted(" in c or "groupby(" in c),
    Slip(lambda c, r: domain_ends(c), "the address's domain is looked for at its end (an address starts with its name, "
                                      "not with @)", _has(".startswith(\"@", ".startswith('@")),
    Slip(lambda c, r: text_lists(c), "the table goes into the .txt file without a header line (a text list has no column names)",
         lambda c, r: "to_csv(" in c and ".txt" in c),
    Slip(lambda c, r: day_names(c), "the day of the week is printed by name, not as weekday()'s number (Monday is 0)",
         lambda c, r: bool(_DAY_ASKED.search(r))),
    Slip(lambda c, r: natural_order(c), "the files are sorted by the numbers in their names (2 before 10)",
         lambda c, r: bool(_ORDER_ASKED.search(r))),
    Slip(lambda c, r: numbered_only(c), when=lambda c, r: bool(_ORDER_ASKED.search(r))),
    Slip(lambda c, r: top_first(c), "the sort runs from the highest down, so its first rows are the top asked for", _most),
    Slip(lambda c, r: recursive(c), "the folder is searched with its subfolders (rglob), as asked",
         lambda c, r: bool(_SUBFOLDERS_ASKED.search(r)) and not _SUBFOLDERS_LEFT.search(r)),
    Slip(lambda c, r: line_counts(c, bool(_LINES_ASKED.search(r))),
         "lines are counted with splitlines() (a final newline ends a line, it does not start one)"),
    Slip(lambda c, r: blank_lines_kept(c), "blank lines are counted too (a line count counts every line)",
         lambda c, r: bool(_LINES_ASKED.search(r)) and not _BLANK_ASKED.search(r)),
    Slip(lambda c, r: copy_into_folder(c, bool(_FOLDER_ASKED.search(r))),
         "the folder {} is made first (a copy or move to a folder that is not there fails, or makes a file of that name)"),
    Slip(lambda c, r: parents_made(c), "the folders above {} are made too (its parent is not there either)", _has("mkdir(")),
    Slip(lambda c, r: appended(c), when=_has('"a"', "'a'")),
    Slip(lambda c, r: value_case(c, _cells(r)), "{0!r} is written {1!r}, as the data writes it (compared as {0!r}, no row matched)",
         lambda c, r: bool(re.search(r"==|!=|\bin\b", c))),
    Slip(lambda c, r: copy_not_move(c), "the files are copied, not moved (the request asks for a copy; a move takes the "
                                        "originals away)", _copy_asked),
    Slip(lambda c, r: text_equals(c), "a CSV cell is compared with a number as a number (a cell is text, and text never "
                                      "equals 0)", _has("==", "!=")),
    Slip(lambda c, r: stem_suffixes(c), "the extension is tested on the file's name, not its stem (a stem has no extension)",
         _has(".stem.endswith(")),
    Slip(lambda c, r: hidden_globs(c), "the folder's files are matched with \"*\" (\".*\" matches only hidden files)",
         lambda c, r: "glob(" in c and ".*" in c),
    Slip(lambda c, r: bare_globs(c), "a name looked for with glob matches it anywhere in a file's name (a bare word matches "
                                     "only that exact name)", _has("glob(")),
    Slip(lambda c, r: shadowed_paths(c), "the opened file is named fh, so the name it had is the path again (it printed the "
                                         "file object)", _has("with open(")),
    Slip(lambda c, r: occurrences(c), "each time the word is there is counted, in any case (the code counted the lines that "
                                      "hold it)", lambda c, r: "sum(1 for" in c and bool(_TIMES_ASKED.search(instruction(r)))),
    Slip(lambda c, r: file_lengths(c), "a file's length is its number of lines (len() of an open file fails)", _has("len(open(")),
    Slip(lambda c, r: folder_sizes(c), "a folder's size is the sum of the sizes of the files in it (getsize of a folder is "
         "the size of its own entry)", lambda c, r: ("getsize(" in c or "st_size" in c) and ("isdir(" in c or "is_dir()" in c)),
    Slip(lambda c, r: word_case(c, _folder_texts(instruction(r), c)), "{!r} is looked for in any case (some files write it "
         "with capitals)", lambda c, r: bool(re.search(r"""['"][a-z][a-z ]{2,40}['"]\s+(?:not\s+)?in\b""", c))),
    # the only calls any_case changes: the folders are walked only then
    Slip(lambda c, r: any_case(c, _suffixes_here(r, c)), "file extensions are matched in any case (.pdf and .PDF), as the "
         "folder has both", lambda c, r: "endswith(" in c or "glob(" in c or ".suffix" in c),
    Slip(lambda c, r: characters_walked(c), "{} is walked line by line (walked as it was, it gave one character at a time)",
         _has(".read()")),
    Slip(lambda c, r: sorted_as_asked(c), "the lines are sorted, as asked (the code kept them in the order it found them)",
         lambda c, r: bool(ALPHABETICAL.search(instruction(r)))),
    Slip(lambda c, r: celsius_scaled(c), "Fahrenheit minus 32 is scaled by 5/9, as a Celsius value is (the code only "
                                         "took 32 off)", _to_celsius),
    Slip(lambda c, r: distinct_lowered(c), "the values are counted in one case (the request says case does not count)",
         lambda c, r: ("set" in c or "Counter" in c) and asks_case_free_distinct(instruction(r))),
)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python":
        return None
    code, changes = block.code, []
    for slip in SLIPS:
        code, told = slip.run(code, turn.request)
        changes += told
    if not changes or code == block.code:
        return None
    block.message["content"] = code
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="slips", setting="repair_slips", check=check,
    summary="Python slips with one repair that keeps the code's meaning are repaired before it runs: a file opened "
            "with \"w\" that the block only reads (which empties it) is opened for reading; a one-pass "
            "iterator (`csv.DictReader(f)`, map, zip, a generator) walked twice, which leaves the second walk empty, "
            "is read into a list first; `make_archive(\"x.zip\", \"zip\")`, which writes x.zip.zip, gets \"x\", and "
            "archives the folder x when there is one (not the whole working folder); asked for a day of the week, a "
            "`d.weekday()` that is only printed is printed by name (`d.strftime('%A')`); asked for an order, a sorted "
            "folder listing is sorted by the numbers in the names (chapter_2 before chapter_10), and a folder's "
            "`glob(\"*.txt\")` that takes numbered files of one prefix and unnumbered ones (notes.txt) takes the "
            "numbered ones only; asked about every "
            "subfolder, `Path(...).glob(\"*.x\")` searches them too (`rglob`); `len(text.split(\"\\n\"))`, and asked for lines "
            "`len(text.split())`, count with `splitlines()`; an extension the named folder also holds in "
            "another case (.PDF beside .pdf) is matched in any case; asked for a folder, `shutil.copy`/`move` to a path "
            "with no extension that is not there gets that folder made first; a folder made (`mkdir`) whose parent is not there either gets its parents made; asked to back up or copy (not to move), "
            "`shutil.move` of files is `shutil.copy2`; a string compared with the data (`== \"takeaway\"`) that the named CSV "
            "files hold only in another case (\"Takeaway\") is written as they do; text appended to a file that repeats "
            "its lines from the start appends only the new ones, on a line of their own; a path written with ~ "
            "given to a file call (`open(\"~/notes.txt\")`, which Python does not expand) is the home folder's path; "
            "asked for the top, an ascending sort whose head is taken (`sorted(...)[:3]`, `sort_values(...).head()`) "
            "runs from the highest down; a file read more than once in its `with` (`f.readlines()` twice) is read once "
            "into a name; `csv.DictReader` over a .json file of records reads it with `json.load`, and a table of, or a loop "
            "over, a JSON object holding one list of records takes that list; a table written to a .txt file with "
            "`to_csv` gets no header line; `p.stem.endswith(\".pdf\")` (never true) tests `p.name`; a CSV cell compared with a "
            "number by == or != (`r[\"kwh\"] != 0`, always true) is compared as a number; `os.path.getsize(d)` of a folder the "
            "code tests with isdir() is the sum of the sizes of the files under it; a loop over a whole read text (`f.read()`) that "
            "treats its item as a line walks `text.splitlines()`; asked for distinct values where case does not count (the "
            "request says so, or they are email addresses), what goes into a set or a Counter is lower-cased; asked for an alphabetical list, "
            "code that sorts nothing sorts what it joins into lines or writes line by line; a csv reader given a file's "
            "name (`csv.DictReader(\"invoices.csv\")`, which walks the name's letters) is given the opened file; asked for "
            "Celsius of Fahrenheit, `f - 32` that nothing scales is `(f - 32) * 5 / 9`; `x.startswith(\"@gmail.com\")` (an address "
            "never starts with its domain) is `x.endswith(...)`; a plot over a named CSV's month names, in calendar order in "
            "the file, keeps that order (`sorted(groups.items())` is `groups.items()`, `groupby(\"month\")` gets "
            "`sort=False`); a text file's name written bare as a name nothing defines (`for line in notes.txt:`) is the file, "
            "opened where it is walked, quoted elsewhere; the person is told")
