"""A short note on what to do about a few Python errors that small models answer badly.

Shown `NameError: name 'sales' is not defined`, the 0.5B model explains that `sales` is not
defined, then types the data in by hand; shown `can't multiply sequence by non-int of type 'str'`
it converts one operand and not the other, three times in a row. One line naming the way out (read
sales.csv in the code; CSV values are strings) is what a person would tell it. Only errors with one
likely cause get a note; everything else gets none.
"""
from __future__ import annotations

import ast
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Callable

from oi_local.core.blank_lines import BLANK, blanks_skipped
from oi_local.core.csv_writes import MISSING as MISSING_FIELDNAMES
from oi_local.core.csv_writes import fieldnames_given
from oi_local.core.header_skip import skipped
from oi_local.core.none_values import none_skipped
from oi_local.core.number_signs import extra, ints_made_floats, signs_dropped
from oi_local.core.pycheck import folder_files, likely_file, rewrite

MAX_FILES = 200  # folder entries looked at
MAX_CODE = 1500  # longest code shown back corrected
MAX_JSON = 2_000_000  # bytes: a larger JSON file is not read for a note

_NAME = re.compile(r"NameError: name '(\w+)' is not defined")
_STR_MATH = re.compile(
    r"TypeError: (?:can't multiply sequence by non-int of type '\w+'|unsupported operand type\(s\) for .*'str'|"
    r"can only concatenate str \(not \"(?:int|float)\"\) to str|'[<>]=?' not supported between instances of 'str' and "
    r"'(?:int|float)'|'[<>]=?' not supported between instances of '(?:int|float)' and 'str')")
_INT_OF_DECIMAL = re.compile(r"ValueError: invalid literal for int\(\) with base 10: '-?\d*\.\d+'")
_FILE_OBJ = re.compile(r"TypeError: expected string or bytes-like object, got '_io\.\w+'")
_STR_INDEX = re.compile(r"TypeError: string indices must be integers")
_SHUTIL = {"copy": "copy", "copyfile": "copyfile", "copy2": "copy2", "copytree": "copytree", "move": "move", "copyfiles": "copy"}
_OS_COPY = re.compile(r"(?:AttributeError: module 'os' has no attribute '(?P<a>{0})'|ImportError: cannot import name '(?P<b>{0})' "
                      r"from 'os')".format("|".join(_SHUTIL)))
_NOT_A_NUMBER = re.compile(r"ValueError: (?:could not convert string to float: |invalid literal for int\(\) with base 10: |"
                           r"could not convert string )'([^'\n]{1,200})'")
_OPENED = re.compile(r"""\bopen\(\s*(?:r?['"])([^'"\n]+\.(?:csv|tsv|json))['"]"""
                     r"""(?:\s*,\s*(?:mode\s*=\s*)?['"]([rwaxbt+]+)['"])?""", re.I)
_KEY = re.compile(r"KeyError: '([^'\n]{1,60})'")
_PRINTED_KEY = re.compile(r"[{,]\s*'([^'\n]{1,40})':")
_MISSING = re.compile(r"No such file or directory: '([^']+)'")
_NO_FILE = re.compile(r"FileNotFoundError: \[Errno 2\] " + _MISSING.pattern)


def missing_paths(text: str) -> list[str]:
    """The paths that `text` says are not there ("No such file or directory: 'sales.csv'"), in order."""
    return _MISSING.findall(text)

_LOADERS = {
    ".csv": 'import csv\nwith open("{f}", newline="") as f:\n    {v} = list(csv.DictReader(f))',
    ".json": 'import json\nwith open("{f}") as f:\n    {v} = json.load(f)',
}
_TEXT_LOADER = 'with open("{f}") as f:\n    {v} = f.read().splitlines()'
_WHOLE_TEXT = 'with open("{f}") as f:\n    {v} = f.read()'
# `speech.replace("Jon", "John")`: code that uses the name as one string gets the whole text; read as
# lines, the note's own corrected code failed with "'list' object has no attribute 'replace'".
_STR_ONLY = ("replace", "split", "lower", "upper", "strip", "lstrip", "rstrip", "find", "startswith", "endswith",
             "splitlines", "encode", "title", "casefold", "partition", "format")


# A name that is a column of the CSV (`resting_bpm` of date,resting_bpm) is that column's values: read as rows
# (dicts), `sum(resting_bpm) / 30` failed again on a dict, and the follow-up's `bpm > 65` too (ho52).
_COLUMN_LOADER = ('import csv\nwith open("{f}", newline="") as f:\n'
                  '    {v} = [{cast}(r["{c}"]) for r in csv.DictReader(f) if (r["{c}"] or "").strip()]')


def _column_loader(name: str, f: str, base: Path) -> str | None:
    """The loader of a CSV's column `name` (its numbers as floats), when `name` is one of its columns."""
    import csv

    if Path(f).suffix.lower() != ".csv":
        return None
    try:
        with open(base / f, newline="", encoding="utf-8", errors="replace") as fh:
            reader = csv.DictReader(fh)
            column = next((c for c in reader.fieldnames or [] if c.strip().lower() == name.lower()), None)
            cells = [str(row.get(column) or "").strip() for _, row in zip(range(200), reader)] if column else []
    except (OSError, csv.Error):
        return None
    if column is None or column != column.strip() or '"' in column:
        return None
    cells = [c for c in cells if c]
    numeric = bool(cells) and all(re.fullmatch(r"-?\d+(?:\.\d+)?", c) for c in cells)
    return _COLUMN_LOADER.format(f=f, v=name, c=column, cast="float" if numeric else "str")


def _text_loader(name: str, code: str) -> str:
    as_string = re.search(rf"(?<![\w.]){re.escape(name)}\.(?:{'|'.join(_STR_ONLY)})\(", code) or \
        re.search(rf"""\bre\.\w+\((?:'[^'\n]*'|"[^"\n]*"|[^()'"\n])*,\s*{re.escape(name)}\b""", code)
    return _WHOLE_TEXT if as_string else _TEXT_LOADER


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) > 2}


def _data_file(name: str, files: list[str], request: str) -> str | None:
    """The file a made-up variable most likely stands for: `sales` for sales.csv, `access_log` for
    access.log; among several, the one the request names."""
    want = _words(name) | {name.lower()}
    matches = [f for f in files if _words(Path(f).stem) & want or _words(Path(f).name.replace(".", "_")) >= want]
    # `for row in signups.txt` that had written signups_clean.csv: the data is the file named just so
    exact = [f for f in matches if Path(f).stem.lower() == name.lower()]
    named = [f for f in exact or matches if f in request or Path(f).name in request]
    pick = named or exact or matches
    return pick[0] if len(pick) == 1 or named else None


_RUN_ASKED = re.compile(r"\b(?:run|rerun|execute|start|launch)\b", re.I)
_RUNNERS = {".sh": "bash", ".py": "python3"}


def run_line(path: str, request: str, cwd: Path | None = None) -> str | None:
    """`bash report.sh` / `python3 tool.py` when `path` is a script there that the request asks to run."""
    import shlex

    runner = _RUNNERS.get(Path(path).suffix)
    if runner is None or not (cwd or Path.cwd()).joinpath(path).is_file() or not _RUN_ASKED.search(request):
        return None
    return f"{runner} {shlex.quote(path)}"


_DATA_SUFFIXES = {".csv", ".json", ".txt", ".log", ".tsv"}


def _only_data_file(name: str, code: str, request: str, base: Path) -> str | None:
    """The one data file the request names, for a made-up name the code uses as data (`data["items"]`,
    `for s in data`, `len(rows)`) that fits no file's name: asked about money/subscriptions.json, the
    0.5B model wrote `for s in data["subscriptions"]` three times without reading the file."""
    from oi_local.core.hints import mentioned_paths

    n = re.escape(name)
    # `min(rows, key=...)` too: asked which item was lowest on stock, the 0.5B model's first code (ho51)
    if name == "df" or not re.search(rf"(?<![\w.]){n}\[|\bin\s+{n}\b|\b(?:len|sum|sorted|list|enumerate)\({n}\)|"
                                     rf"\b(?:min|max|sorted)\({n}\b|"
                                     rf"(?<![\w.]){n}\.(?:items|values|keys|get)\(", code):
        return None
    named = mentioned_paths(request, base)
    if any(p.is_dir() and p.name == name for p in named):
        return None  # `for p in draft` for "the draft folder": not a file's data
    files = [p for p in named if p.is_file() and p.suffix.lower() in _DATA_SUFFIXES]
    if len(files) != 1:
        return None
    f = files[0].relative_to(base.resolve()).as_posix()
    # a file the code writes is its output (book.txt, joined from draft/), not the data it meant
    return None if re.search(rf"""open\(\s*['"]{re.escape(f)}['"]\s*,\s*['"][wax]""", code) else f


def _in_script(name: str, request: str, base: Path) -> str | None:
    """A name the script the request names defines (`numbers` in average.py): asked to fix
    average.py, the 0.5B model ran the script's loop in the session, where no `numbers` exists, then
    wrote a string into average.py."""
    from oi_local.core.hints import mentioned_paths

    for p in mentioned_paths(request, base):
        if p.suffix != ".py" or not p.is_file():
            continue
        try:
            tree = ast.parse(p.read_text(encoding="utf-8", errors="replace")[:MAX_SCRIPT])
        except (OSError, SyntaxError, ValueError):
            continue
        if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name for n in ast.walk(tree)):
            f = p.relative_to(base.resolve()).as_posix()
            return (f"Note: {name} is defined in {f}, which runs on its own, not in this session. To fix {f}, write "
                    f"the whole corrected script into {f} and run it with subprocess.")
    return None


MAX_SCRIPT = 100_000  # characters of a named script read for the names it defines


def _unopened(name: str, code: str, request: str, base: Path) -> str | None:
    """Code that reads `name` as an open file (`csv.DictReader(f)`, `f.read()`) it never opened, with
    the one data file the request names open as it: the 0.5B model's `for r in csv.DictReader(f)`
    with no `open` got no note and its next tries made up other names."""
    from oi_local.core.hints import mentioned_paths

    n = re.escape(name)
    if not re.search(rf"\b(?:csv\.(?:DictReader|reader)|json\.load)\(\s*{n}\b|(?<![\w.]){n}\.(?:read|readlines|readline)\(", code):
        return None
    files = [p for p in mentioned_paths(request, base) if p.is_file() and p.suffix.lower() in _DATA_SUFFIXES]
    if len(files) != 1 or len(code) > MAX_CODE:
        return None
    f = files[0].relative_to(base.resolve()).as_posix()
    opener = f'with open("{f}"' + (', newline=""' if files[0].suffix.lower() in (".csv", ".tsv") else "") + f") as {name}:"
    reader = f"csv.DictReader({name})"
    if code.count(reader) > 1:  # a second reader over the same file reads nothing: read the rows once
        code = f"rows = list({reader})\n" + code.replace(reader, "rows")
    body = "\n".join("    " + ln if ln.strip() else ln for ln in code.strip("\n").splitlines())
    imports = "".join(f"import {m}\n" for m in ("csv", "json")
                      if re.search(rf"\b{m}\.", code) and not re.search(rf"^\s*import {m}\b", code, re.M))
    return f"Note: {name} is not an open file yet. Open {f} as {name} first; the code would be:\n```python\n{imports}{opener}\n{body}\n```"


def _file_assigned(name: str, code: str, request: str) -> str | None:
    """A file the request names, assigned to as a Python name (`latest.txt = most_recent`): asked to
    copy the newest report to latest.txt, the 0.5B model wrote that line and the run failed on
    `latest`. The file is made by a call: a copy, or text written."""
    m = re.search(rf"(?m)^\s*({re.escape(name)}\.[A-Za-z][A-Za-z0-9]{{0,4}})\s*=\s*([^=\n].*?)\s*$", code)
    if not m or not re.search(rf"(?<![\w/.-]){re.escape(m.group(1))}(?![\w-])", request):
        return None
    file, value = m.group(1), m.group(2)
    if re.search(r"\bcop(?:y|ies)\b|\bduplicate\b|\bback\s*up\b", request, re.I):
        return (f"Note: {file} is a file name, not a name in Python. To copy {value} to it: "
                f"`import shutil` and `shutil.copy({value}, \"{file}\")`.")
    return f"Note: {file} is a file name, not a name in Python. To write text to it: `Path(\"{file}\").write_text(text)`."


def _folder_name(name: str, code: str, base: Path) -> str | None:
    """A folder here written as a Python name (`reports["q_report.txt"]`, `reports/q_report.txt`): its
    files are read by path. Asked to copy reports/q_report.txt, the 0.5B model wrote both, three runs."""
    try:
        if not (base / name).is_dir():
            return None
    except OSError:
        return None
    n = re.escape(name)
    m = re.search(rf"(?<![\w.'\"]){n}\s*\[\s*['\"]([^'\"\n]+)['\"]\s*\]|(?<![\w.'\"/]){n}/([\w.-]+)", code)
    inner = (m.group(1) or m.group(2)) if m else None
    if inner is None or not (base / name / inner).is_file():  # only where it is used as that folder's file
        return None
    example = f' A file in it is read by its path: open("{name}/{inner}").read().'
    return f"Note: {name} is a folder here, not a name in Python.{example}"


def note(output: str, request: str = "", cwd: str | os.PathLike[str] | None = None, code: str = "") -> str | None:
    """Advice for the error in `output` (from running `code`), or None."""
    if "Error" not in output:
        return None
    base = Path(cwd or os.getcwd())
    m = _NAME.search(output)
    if m:
        name = m.group(1)
        if name in _SHUTIL and re.search(r"(?<![\w.])" + name + r"\(", code):
            # `copy("a.csv", "backup")`: the function is shutil's (told to `import copy`, the model
            # wrote the CSV out by hand instead).
            return f"Note: {name}() is in shutil: `import shutil` and call `shutil.{_SHUTIL[name]}(...)`."
        if name in sys.stdlib_module_names and (not code or re.search(rf"(?<![\w.]){re.escape(name)}\.\w", code)):
            return f"Note: the module {name} is not imported; add `import {name}` at the top of the code."
        handle = (_unopened(name, code, request, base) or _in_script(name, request, base) or _folder_name(name, code, base)
                  or _file_assigned(name, code, request))
        if handle:
            return handle
        f = _data_file(name, folder_files(base, MAX_FILES), request) or _only_data_file(name, code, request, base)
        run = run_line(f, request, base) if f and re.search(rf"(?<![\w/.]){re.escape(Path(f).name)}\b", code) else None
        if f and run:  # `sync_photos.sh` typed as Python: told to read it, the model printed the script's lines
            return f"Note: {f} is a script, not a name in Python. To run it:\n```shell\n{run}\n```"
        if f:
            loader = (_column_loader(name, f, base)
                      or _LOADERS.get(Path(f).suffix.lower(), _text_loader(name, code)).format(f=f, v=name))
            if code and len(code) <= MAX_CODE:  # shown the whole corrected code, a small model runs it
                # `for row in sales.csv`: the file name written as a variable is the data read into `name`
                code = re.sub(rf"(?<![\w'\"/.]){re.escape(f)}(?![\w'\"])", name, code)
                return (f"Note: nothing called {name} exists yet. The data is in the file {f}. With it read first, "
                        f"the code would be:\n```python\n{loader}\n{code.strip()}\n```")
            return (f"Note: nothing called {name} exists yet. The data is in the file {f}: read it at the top of "
                    f"the same code, for example:\n{loader}")
        return None
    m = _OS_COPY.search(output)
    if m:  # os.copy(...): the 0.5B model's first copy, then `from os import copy`, then a made-up home folder
        name = m.group("a") or m.group("b")
        return f"Note: os has no {name}(); copying and moving files is in shutil: `import shutil` and `shutil.{_SHUTIL[name]}(...)`."
    skipped_none = none_skipped(code, _failed_line(output), output) if code and len(code) <= MAX_CODE else None
    if skipped_none:
        return (f"Note: {skipped_none[0]}. With that, the code would be:\n```python\n{skipped_none[1]}\n```")
    if MISSING_FIELDNAMES in output:
        fixed = fieldnames_given(code) if code and len(code) <= MAX_CODE else None
        return ("Note: csv.DictWriter needs the column names: DictWriter(f, fieldnames=list(rows[0])), then "
                "writeheader() and writerows(rows)." + (f" With that, the code would be:\n```python\n{fixed}\n```" if fixed else ""))
    by_position = _row_by_position(output, code, request, base)
    if by_position:
        return by_position
    m = _KEY.search(output)
    if m and "+=" in (code + output):
        started = _totals_started(output, code, base)
        if started:
            return started
    if m:
        keys = _known_keys(output, request, base)
        if keys and m.group(1) not in keys:
            inner = _nested_key(m.group(1), request, base) or _other_file_key(m.group(1), keys, request, base)
            return f"Note: there is no key '{m.group(1)}'. The keys are: {', '.join(repr(k) for k in keys)}." + (
                f"\n{inner}" if inner else "")  # a line of its own: the honest end quotes the keys line alone
        return None
    ends = _line_ends_note(output, code)
    if ends:
        return ends
    if _STR_MATH.search(output):
        advice = ("Note: values read from a CSV or text file are strings. Convert each one with int() or float() "
                  "before doing arithmetic or comparing them with numbers.")
        script = _script_converted(output, base)
        if script:  # the error is in a script the code ran: its text is what to fix (ho32-fix-bills)
            name, text = script
            return advice + (f" The error is in {name}. With them converted, {name} would be:\n```python\n{text.strip()}\n```\n"
                             f"Write that into {name} and run it.")
        fixed = _numbers_converted(code, _failed_line(output)) if code and len(code) <= MAX_CODE else None
        return advice + (f" With them converted, the code would be:\n```python\n{fixed.strip()}\n```" if fixed else "")
    if _STR_INDEX.search(output):
        return _rows_note(code, base)
    if _DICTS_COMPARED.search(output):
        return _dicts_note(output, request, code, base)
    if _DATE_TEXT_COMPARED.search(output):
        dated = _date_text_note(code, base)
        if dated:
            return dated
    m = _IS_A_FOLDER.search(output)
    if m:  # open("inbox/"): a folder opened as a file, twice in a row by the 0.5B model (ho6-files-grep-invoice)
        folder = m.group(1).rstrip("/") or m.group(1)
        if re.search(r"shutil\.py\b.*\bin (?:copy|copy2|copyfile|move)\b", output, re.S):
            # A copy loop over rglob("*") met a subfolder: shown how to read files, the 0.5B model printed
            # their lengths and answered that for "copy this week's files into usb" (ho38).
            return (f"Note: {folder} is a folder: rglob('*') and listdir() list folders too, and shutil.copy copies "
                    f"one file. Skip the folders: make `if not p.is_file(): continue` (or `if os.path.isfile(path)`) the "
                    f"first line of the loop.")
        if re.search(r"\bin (?:unlink|remove)\b|os\.unlink\(|os\.remove\(|\.unlink\(", output):
            # `folder.unlink()` to delete some files of it: shown how to read its files, the 0.5B model printed
            # their lengths (ho44's rehearsal files, the weekend days to go).
            return (f"Note: {folder} is a folder: unlink() and os.remove() delete one file. Delete the files in it one by "
                    f"one, for example:\n```python\nfrom pathlib import Path\nfor p in sorted(Path({folder!r}).iterdir()):\n"
                    f"    if p.is_file():  # and the test for the ones to delete\n        p.unlink()\n        print('deleted', p.name)\n```")
        return f"Note: {folder} is a folder, not a file: open() reads one file. {_each_file(folder, request)}"
    m = _TIME_DATA.search(output)
    if m:
        return _date_format_note(m.group(1), m.group(2), output, code, base)
    if BLANK.search(output):
        blank = _blanks_note(output, code, base)
        if blank:
            return blank
    m = _NOT_A_NUMBER.search(output)
    header = (_header_note(m.group(1), code, base) or _date_note(m.group(1), code, output)
              or _text_added_note(m.group(1), code, base) or _label_note(m.group(1), code, output)
              or _signs_note(m.group(1), code, output)) if m else None
    if header:
        return header
    m = _STR_PATH.search(output)
    if m:
        return _str_path_note(m.group(1), output, code)
    if _INT_OF_DECIMAL.search(output):
        # Told only this, the 0.5B model had no try left for it (runs.txt's "13.1 mi", ho49): the fix is certain
        fixed = ints_made_floats(code, _failed_line(output)) if code and len(code) <= MAX_CODE else None
        return ("Note: int() cannot read a number with a decimal point. Use float() for it."
                + (f" With that, the code would be:\n```python\n{fixed}\n```" if fixed else ""))
    if "I/O operation on closed file" in output:  # ho3-multi-quiz-csv: a row appended, then read from the closed handle
        named = re.search(r"name='([^']+)' mode='[^']*'", output) or re.search(r"open\(\s*['\"]([^'\"]+)['\"]", code)
        path = named.group(1) if named else "the file"
        read = (f"with open({path!r}, newline='') as f:\n    rows = list(csv.DictReader(f))" if path.endswith(".csv")
                else f"with open({path!r}) as f:\n    text = f.read()")
        return (f"Note: {path} was closed when its `with` block ended, so it cannot be read from there. After writing, "
                f"open it again to read what it holds now:\n```python\n{read}\n```")
    if _LIST_SEARCHED in output:
        joined = _lines_joined(code, _failed_line(output)) if code and len(code) <= MAX_CODE else None
        return ("Note: re functions search one string, not a list of lines. Join the lines first: \"\\n\".join(lines)."
                + (f" With that, the code would be:\n```python\n{joined}\n```" if joined else ""))
    if _FILE_OBJ.search(output):
        return "Note: that is the file object, not its text. Use f.read() to get the text of the file."
    m = _NO_FILE.search(output)
    if m:
        missing = m.group(1)
        folder = os.path.dirname(missing)
        if _copied_from(code, _failed_line(output), missing):
            # The source of a copy is missing: a note to create it made the model copy an empty folder.
            there = _same_name(missing, base)
            return (f"Note: {missing} does not exist, so there is nothing to copy from it."
                    + (f" There is {there}." if there else ""))
        if folder and not os.path.isabs(folder) and not (base / folder).exists() and _writes(code, _failed_line(output)):
            made = _made_for(code, _failed_line(output)) or f"os.makedirs({folder!r}, exist_ok=True)"
            fixed = _folder_made(code, _failed_line(output), made) if len(code) <= MAX_CODE else None
            return (f"Note: the folder {folder} does not exist yet, so nothing can be written into it. Create it "
                    f"first with {made}." + (f" With that, the code would be:\n```python\n{fixed}\n```" if fixed else ""))
        target = _target_folder(missing, code, output, request, base)
        if target:
            return target
        if _to_make(missing, request):
            # Asked to start a shopping list in shopping.csv, the 0.5B model read it first for its header.
            return (f"Note: {missing} is not there yet: you are asked to make it, so do not read it. Write it with "
                    f"open({missing!r}, 'w') and put in what was asked.")
        close = likely_file(missing, base)
        if close and close != missing:
            return f"Note: there is no file {missing}, but there is {close}."
        files = sorted(p.name for p in (base / folder).iterdir() if p.is_file()) if folder and (base / folder).is_dir() else []
        if len(files) > 1:
            # A made-up file in a named folder (recipes/recipes.txt for "which of my recipes have peanuts"):
            # the answer is in its files, read one by one.
            shown = ", ".join(files[:8]) + (", ..." if len(files) > 8 else "")
            return (f"Note: there is no file {missing}. {folder} is a folder of {len(files)} files ({shown}). "
                    + _each_file(folder, request))
    return None


_NOT_IN_LIST = re.compile(r"ValueError: (?:list\.remove\(x\): x not in list|.{1,80} is not in list)")
_ENDED_LINES = re.compile(r"Values on that line:.*\[(?:'[^'\n]*\\n', )+")
_READ_LINES = re.compile(r"\.readlines\(\)|\blist\((\w+)\)")


def _line_ends_note(output: str, code: str) -> str | None:
    """Lines read with readlines() keep their line ends, so `guests.remove("Ben")` finds no "Ben" among "Ben\\n"
    (ho56's guest list, session 57): read as `f.read().splitlines()`, they have none."""
    if not (_NOT_IN_LIST.search(output) and _ENDED_LINES.search(output)):
        return None
    text = "Note: lines read with readlines() keep their line ends ('Ben\\n', not 'Ben'); read them with f.read().splitlines()."
    handles = set(re.findall(r"open\([^()\n]*\)\s+as\s+(\w+)", code)) | set(re.findall(r"(\w+)\s*=\s*open\(", code))
    fixed = _READ_LINES.sub(lambda m: ".read().splitlines()" if m.group(1) is None
                            else f"{m.group(1)}.read().splitlines()" if m.group(1) in handles else m.group(0), code)
    if fixed != code and len(code) <= MAX_CODE:
        return text + f" With that, the code would be:\n```python\n{fixed.strip()}\n```"
    return text


def _each_file(folder: str, request: str) -> str:
    """How to go over a folder's files, searching them for the request's word when it names one."""
    word = _SEARCHED.search(request or "")
    # Searching the files: the example searches them (run as it was, "print(p.name, len(text))" answered
    # "msg_01.txt has 104 bytes" to which emails talk about an invoice).
    said = (word.group(1) or word.group(2)).lower() if word else ""
    said = said[:-1] if len(said) > 4 and said.endswith("s") and not said.endswith("ss") else said  # "peanut butter"
    use = (f"        if {said!r} in text.lower():\n            print(p.name)\n" if said
           else "        print(p.name, len(text))\n")
    return (f"Go over its files and read each one, for example:\n```python\nfrom pathlib import Path\n"
            f"for p in sorted(Path({folder!r}).iterdir()):\n"
            f"    if p.is_file():\n        text = p.read_text(errors='replace')\n{use}```")


_MAKE = re.compile(r"\b(?:start\w*|creat\w*|make|making|new|begin\w*|set\s+up)\b", re.I)


def _to_make(missing: str, request: str) -> bool:
    """The request asks to make the missing file ("Start a shopping list in shopping.csv")."""
    name = os.path.basename(missing)
    said = re.search(rf"(?<![\w/.-]){re.escape(name)}(?![\w-])", request)
    return bool(said and "." in name and _MAKE.search(request))


# The word a request looks for in files: "talk about an invoice", "mention 'refund'", "contain the word TODO"
_SEARCHED = re.compile(r"\b(?:talks?|talking|mentions?|mentioning|contains?|containing|says?|saying)\s+(?:about\s+)?"
                       r"(?:the\s+word\s+|an?\s+|the\s+)?['\"`]?(?!about\b|the\b|an?\b)([A-Za-z][\w-]{2,30})"
                       # "every file that has a TODO in it"
                       r"|\b(?:has|have|with)\s+(?:an?\s+|the\s+word\s+)?['\"`]?([A-Za-z][\w-]{2,30})['\"`]?\s+in\s+(?:it|them)\b", re.I)
_DICTS_COMPARED = re.compile(r"TypeError: '[<>]=?' not supported between instances of 'dict' and 'dict'")
_ROWS_SHOWN = re.compile(r"Values on that line:.*?\b(\w+) = \[\{")


_DATE_TEXT_COMPARED = re.compile(r"TypeError: '[<>]=?' not supported between instances of "
                                 r"'(?:str|datetime\.date(?:time)?)' and '(?:str|datetime\.date(?:time)?)'")
_ISO_DAY = re.compile(r"\b\d{4}-\d\d-\d\d\b")


def _date_text_note(code: str, base: Path) -> str | None:
    """A date (`today = datetime(2025, 3, 10)`) compared with a file's text dates ("2025-03-01"): asked which
    tasks were overdue, the 0.5B model met the TypeError three times (ho39). Where the files the code opens
    write their dates as YYYY-MM-DD, text compares in date order: the date side becomes its text."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    def is_date(v: ast.expr) -> bool:
        f = v.func if isinstance(v, ast.Call) else None
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in ("datetime", "date", "now", "today")
    dates = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and is_date(n.value)
             for t in n.targets if isinstance(t, ast.Name)}
    edits = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Lt, ast.Gt, ast.LtE, ast.GtE)):
            sides = [n.left, n.comparators[0]]
            named = [x for x in sides if isinstance(x, ast.Name) and x.id in dates]
            if len(named) == 1:
                x = named[0]
                edits.append((x.lineno, x.col_offset, x.end_col_offset or 0, f'{x.id}.strftime("%Y-%m-%d")'))
    files = [m.group(1) for m in _QUOTED_TABLE.finditer(code)] + re.findall(r"""['"]([^'"\n]+\.json)['"]""", code)
    iso = next((f for f in files if (base / f).is_file() and _ISO_DAY.search((base / f).read_text(errors="replace")[:100_000])), None)
    if not edits or iso is None or len(code) > MAX_CODE:
        return None
    fixed = rewrite(code, edits)
    return (f"Note: the dates in {iso} are text (YYYY-MM-DD) and cannot be compared with a date; text dates of that "
            f"form compare in date order, so compare text with text. The code would be:\n```python\n{fixed.strip()}\n```")


def _dicts_note(output: str, request: str, code: str, base: Path) -> str:
    """max() over rows read as dicts: `max([temp_max_c for temp_max_c in rows])` compared whole rows
    (the 0.5B model wrote a column's name as the loop variable, then tried three other broken ways)."""
    keys = _known_keys(output, request, base)
    named = [k for k in keys if re.search(rf"(?<![\w]){re.escape(k)}(?!\w)", code)]
    rows = _ROWS_SHOWN.search(output)
    rows_name = rows.group(1) if rows else "rows"
    column = named[0] if named else (keys[0] if keys else "column")
    return (f"Note: each row is a dict, and dicts cannot be compared with each other. To take the row with the "
            f"largest value of a column: `best = max({rows_name}, key=lambda r: float(r[{column!r}]))`, then print "
            f"the fields you need from best" + (f" (the keys are: {', '.join(repr(k) for k in keys)})." if keys else "."))


_QUOTED_TABLE = re.compile(r"""['"]([^'"\n]+\.(?:csv|tsv|txt))['"]""", re.I)


def _header_note(value: str, code: str, base: Path) -> str | None:
    """A header cell (or the whole header line) of a CSV the code opens, read as a number: the
    0.5B model summed `rows[0]` with the data, or loaded the file with np.loadtxt."""
    for m in _QUOTED_TABLE.finditer(code):  # open(), np.loadtxt(), pd.read_csv(): any of them
        f = m.group(1)
        try:
            with open(base / f, encoding="utf-8", errors="replace") as fh:
                header = fh.readline().strip()
        except OSError:
            continue
        cells = [c.strip() for c in re.split(r"[,;\t]", header)]
        plain = re.sub(r"\\[nrt]", "", value).strip()  # the error quotes 'pages\n' with its newline escaped
        if plain == header or plain in cells:
            said = f"Note: {plain!r} is from the first line of {f}, its header ({', '.join(cells)}), not a value. "
            fixed = skipped(code, f)
            if fixed is not None and len(code) <= MAX_CODE:  # the walk started at the second line
                return said + f"Skip that line; the code would be:\n```python\n{fixed.strip()}\n```"
            return (said + f"Skip that line: read the rows with csv.DictReader and use the column names, for example:\n"
                    f"import csv\nwith open({f!r}, newline='') as f:\n    rows = list(csv.DictReader(f))\n"
                    f"values = [float(r[{cells[-1]!r}]) for r in rows]")
    return None


def _text_added_note(value: str, code: str, base: Path) -> str | None:
    """A text column added up as numbers (`books[r["member"]] += int(r["book"])`): asked who borrowed the most
    books, the 0.5B model met int('The Hobbit') (ho39). Each row is one of them: counting adds 1."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    edits, column = [], None
    for n in ast.walk(tree):
        if not (isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and isinstance(n.value, ast.Call)
                and isinstance(n.value.func, ast.Name) and n.value.func.id in ("int", "float") and len(n.value.args) == 1):
            continue
        arg = n.value.args[0]
        if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Constant) and isinstance(arg.slice.value, str):
            column = arg.slice.value
            edits.append((n.value.lineno, n.value.col_offset, n.value.end_col_offset or 0, "1"))
    if len(edits) != 1 or column is None or len(code) > MAX_CODE:
        return None
    for m in _QUOTED_TABLE.finditer(code):
        try:
            with open(base / m.group(1), encoding="utf-8", errors="replace", newline="") as f:
                import csv

                rows = [r for _, r in zip(range(200), csv.DictReader(f))]
        except OSError:
            continue
        if rows and value in {str(r.get(column, "")).strip() for r in rows}:
            fixed = rewrite(code, edits)
            return (f"Note: {value!r} is a {column} from {m.group(1)}, text, not a number. Each row is one {column}: "
                    f"to count them, add 1 for each row. The code would be:\n```python\n{fixed.strip()}\n```")
    return None


_LABEL = re.compile(r"[^\W\d_]*\d+:")  # "2023:" of "January 2023: £112.30", "3:" of "Week 3: 41 km"
_FIELD = re.compile(r"\.split\(\)\[\s*-?\d+\s*\]")


def _label_note(value: str, code: str, output: str) -> str | None:
    """A number that ends a label ("2023:" of "January 2023: £112.30") taken as the line's value: the amount is after
    the colon. Told to keep the digits of '2023:', the 0.5B model averaged the years (a development run, ho48)."""
    line = _failed_line(output)
    if not _LABEL.fullmatch(value.strip()) or line is None or len(code) > MAX_CODE:
        return None
    lines = code.splitlines()
    if not 0 < line <= len(lines) or not _FIELD.search(lines[line - 1]):
        return None
    lines[line - 1] = _FIELD.sub('.split(":")[-1]', lines[line - 1])
    fixed = signs_dropped("£1", "\n".join(lines), line)
    return (f"Note: {value!r} ends with a colon: it is part of the line's label, not its amount, which comes after the "
            f"colon. Take the text after the last colon and keep only its digits, point and minus sign"
            + (f". The code would be:\n```python\n{fixed}\n```" if fixed else "."))


def _signs_note(value: str, code: str, output: str) -> str | None:
    """One number with a sign, a unit or thousands commas around it (float('£112.30')): the code with
    what is converted kept to its digits (core/number_signs.py)."""
    value = re.sub(r"^(?:\\[nrt]|\s)+|(?:\\[nrt]|\s)+$", "", value)  # the error's repr: a line's '\\n' is not a sign
    what = extra(value)
    if what is None:
        return None
    fn = "int" if "invalid literal for int()" in output else "float"
    fixed = signs_dropped(value, code, _failed_line(output)) if len(code) <= MAX_CODE else None
    return (f"Note: {value!r} has {what} around the number, and {fn}() reads a number alone. Keep only its digits, "
            f"point and minus sign before converting" + (f". With that, the code would be:\n```python\n{fixed}\n```"
                                                       if fixed else ': re.sub(r"[^0-9.-]", "", text).'))


_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}(?:[ T][\d:.]+)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?")


def _date_note(value: str, code: str, output: str) -> str | None:
    """A date (or a time of day) read as a number: int('2025-06-30') for a plot's x axis. The column
    is kept as text wherever the code converts it (the 0.5B model, told only why, tried int() again)."""
    if not _DATE.fullmatch(value.strip()):
        return None
    keys = set(re.findall(r"""['"](\w+)['"]: ['"]""" + re.escape(value) + "['\"]", output))
    fixed = code
    for key in keys:
        fixed = re.sub(r"""\b(?:int|float)\((\w+\[['"]""" + key + r"""['"]\])\)""", r"\1", fixed)
    kind = "a time of day" if ":" in value and "-" not in value else "a date"
    text = (f"Note: {value!r} is {kind}, not a number. Keep it as text (text dates sort in order and work as a "
            f"plot's x values), or read it with datetime.strptime for date arithmetic.")
    if fixed != code and len(code) <= MAX_CODE:
        text += f" Kept as text, the code would be:\n```python\n{fixed.strip()}\n```"
    return text


def _records_looped(code: str, key: str) -> str | None:
    """`code` with each loop over a name json.load() filled (`for loan in loans`) going over the one
    list of records in it (`loans['loans']`): told the key in words, the 0.5B model looped over the
    object again in its next try (ho23, ho24, ho27 transcripts) and ran out of tries."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    stored = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    loaded = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and _json_load(n.value)
              for t in n.targets if isinstance(t, ast.Name) and stored[t.id] == 1}
    loops = [n.iter for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension))]
    edits = [(it.lineno, it.col_offset, it.end_col_offset or it.col_offset, f"{it.id}[{key!r}]")
             for it in loops if isinstance(it, ast.Name) and it.id in loaded]
    return rewrite(code, edits) if edits else None


def _json_load(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("load", "loads") \
        and isinstance(node.func.value, ast.Name) and node.func.value.id == "json"


def _rows_note(code: str, base: Path) -> str | None:
    """`row["finished"]` on a line of a CSV file, or on a key of a JSON object: what the rows are."""
    # the file the code reads: not one it writes (a note that named signups_clean.csv, opened to be
    # written, for lines read from signups.txt sent the model to read its own empty output)
    read = [m.group(1) for m in _OPENED.finditer(code) if not set(m.group(2) or "r") & set("wax")
            and (base / m.group(1)).is_file()]
    if not read:
        return None
    f = read[0]
    if f.lower().endswith(".json"):
        try:
            if (base / f).stat().st_size > MAX_JSON:
                return None
            data = json.loads((base / f).read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError):
            return None
        lists = [k for k, v in data.items() if isinstance(v, list)] if isinstance(data, dict) else []
        if len(lists) != 1:
            return None
        text = (f"Note: {f} holds an object, and a loop over it goes over its keys (strings). The records are "
                f"the list data[{lists[0]!r}]: `for r in data[{lists[0]!r}]:`.")
        fixed = _records_looped(code, lists[0]) if len(code) <= MAX_CODE else None
        return text + (f" Looping over the records, the code would be:\n```python\n{fixed.strip()}\n```" if fixed else "")
    delim = ", delimiter='\\t'" if f.lower().endswith(".tsv") else ""
    return (f"Note: each line read from {f} is a string, not a row with named columns. Read the rows with "
            f"csv.DictReader, for example:\nimport csv\nwith open({f!r}, newline='') as f:\n"
            f"    rows = list(csv.DictReader(f{delim}))\nfor r in rows:\n    ...")


# A call on the failing line that writes to a path: a copy, a move, a file opened to write, a save.
_WRITES = re.compile(r"\b(?:copy|copy2|copyfile|copytree|move|rename|replace|write_text|write_bytes|to_csv|to_excel|"
                     r"to_json|savefig|save|touch)\s*\(|\bopen\([^)]*['\"](?:[wax]|[wax]b|[wax]\+|[wax]b\+|[wax]t)['\"]")


def _writes(code: str, line: int | None) -> bool:
    """The failing line of `code` writes to a path (a FileNotFoundError there is a missing folder)."""
    lines = code.splitlines()
    return line is not None and 0 < line <= len(lines) and bool(_WRITES.search(lines[line - 1]))


_COPY_CALL = re.compile(r"\b(?:copy|copy2|copyfile|copytree|move|rename|replace)\s*\(\s*[rfb]?['\"]([^'\"]+)['\"]")


def _copied_from(code: str, line: int | None, missing: str) -> bool:
    """The failing line copies or moves from `missing` (the first argument of the call)."""
    lines = code.splitlines()
    if line is None or not 0 < line <= len(lines):
        return False
    return any(os.path.normpath(m) == os.path.normpath(missing) for m in _COPY_CALL.findall(lines[line - 1]))


def _same_name(missing: str, base: Path) -> str | None:
    """A file or folder under `base` with the missing path's name (e.g. essays/drafts for drafts/)."""
    name = Path(missing.rstrip("/")).name
    for n, (root, dirs, names) in enumerate(os.walk(base)):
        if n > 500:  # folders: a home folder is not walked whole for a note
            return None
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        if name in dirs or name in names:
            return (Path(root).relative_to(base) / name).as_posix()
    return None


_DEST_FIRST = {"open", "to_csv", "to_json", "to_excel", "savefig"}  # the path written is the first argument
_DEST_SECOND = {"copy", "copy2", "copyfile", "copytree", "move", "rename", "replace"}  # the second


def _made_for(code: str, line: int | None) -> str | None:
    """For a write inside a loop or function (an indented failing line) to a path the code builds
    (`dst`, `os.path.join(out, name)`), the line that makes that path's folder each time. The note's
    literal folder (`os.makedirs('backup/2024')`) made only the first one: the next file, in another
    folder, failed the same way (session 37)."""
    lines = code.splitlines()
    if line is None or not 0 < line <= len(lines) or not lines[line - 1][:1].isspace():
        return None
    try:
        text = lines[line - 1].strip()
        tree = ast.parse(text + ("\n    pass" if text.endswith(":") else ""))  # `with open(...) as f:` alone
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        index = 0 if name in _DEST_FIRST else 1 if name in _DEST_SECOND else None
        if index is None or len(node.args) <= index or isinstance(node.args[index], ast.Constant):
            continue
        mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
        if name == "open" and not (isinstance(mode, ast.Constant) and str(mode.value)[:1] in "wax"):
            continue  # read: the missing path is not one the code writes
        dest = ast.unparse(node.args[index])
        return f"os.makedirs(os.path.dirname({dest}) or '.', exist_ok=True)"
    return None


def _folder_made(code: str, line: int | None, made: str) -> str | None:
    """`code` with `made` (the folder created) just before the failing line, at its indentation."""
    lines = code.splitlines()
    if line is None or not 0 < line <= len(lines):
        return None
    target = lines[line - 1]
    indent = target[:len(target) - len(target.lstrip())]
    lines.insert(line - 1, indent + made)
    fixed = "\n".join(lines).strip()
    return fixed if re.search(r"^import os\b|^import .*\bos\b", fixed, re.M) else "import os\n" + fixed


def _known_keys(output: str, request: str, base: Path) -> list[str]:
    """Field names the code could have meant: those of a record it printed before failing, else
    the header of a CSV or the first record of a JSON list the request names."""
    printed = _PRINTED_KEY.findall(output.split("Traceback")[0])
    if printed:
        return list(dict.fromkeys(printed))[:20]
    import csv
    import json

    from oi_local.core.hints import mentioned_paths

    for p in mentioned_paths(request, base):
        try:
            if not p.is_file() or p.stat().st_size > 1_000_000:
                continue
            if p.suffix.lower() == ".csv":
                with p.open(newline="", encoding="utf-8", errors="replace") as f:
                    return [h.strip() for h in next(csv.reader(f), [])][:20]
            if p.suffix.lower() == ".json":
                data = json.loads(p.read_text(encoding="utf-8"))
                if isinstance(data, dict):
                    data = next((v for v in data.values() if isinstance(v, list)), data)
                first = data[0] if isinstance(data, list) and data else data
                if isinstance(first, dict):
                    return [str(k) for k in first][:20]
        except (OSError, ValueError, UnicodeDecodeError):
            continue
    return []


def _nested_key(key: str, request: str, base: Path) -> str | None:
    """Where a missing key is, one level down in the named JSON file's records: "'unit_price' is in
    each record's 'items' list". Asked what the pending orders are worth (qty times unit price of every
    item), the 0.5B model looked up unit_price on each order three times, told only the orders' keys."""
    import json

    from oi_local.core.hints import mentioned_paths

    for p in mentioned_paths(request, base):
        if p.suffix.lower() != ".json" or not p.is_file() or p.stat().st_size > 1_000_000:
            continue
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        if isinstance(data, dict):
            data = next((v for v in data.values() if isinstance(v, list)), data)
        first = data[0] if isinstance(data, list) and data else data
        if not isinstance(first, dict):
            continue
        for field, value in first.items():
            if isinstance(value, list) and value and isinstance(value[0], dict) and key in value[0]:
                return (f"'{key}' is in the '{field}' list of each record (its keys: {', '.join(map(repr, value[0]))}): "
                        f"walk it too, for example `for record in records: for one in record[{field!r}]: one[{key!r}]`.")
    return None


def _other_file_key(key: str, keys: list[str], request: str, base: Path) -> str | None:
    """Where a missing key is when the request names two CSV files: "'qty' is a column of stock.csv".
    Asked the value of all stock from products.csv (unit cost per SKU) and stock.csv (quantity per
    warehouse), the 0.5B model read qty from products.csv three times, told only its columns (ho43)."""
    import csv

    from oi_local.core.hints import mentioned_paths

    for p in mentioned_paths(request, base):
        if p.suffix.lower() not in (".csv", ".tsv") or not p.is_file():
            continue
        try:
            with p.open(encoding="utf-8-sig", errors="replace", newline="") as f:
                header = next(csv.reader(f, delimiter="\t" if p.suffix.lower() == ".tsv" else ","), [])
        except OSError:
            continue
        header = [h.strip() for h in header]
        if key in header and set(header) != set(keys):
            shared = [h for h in header if h in keys]
            match = f"; match its rows to these on {shared[0]!r}" if shared else ""
            return f"'{key}' is a column of {p.name} (its columns: {', '.join(map(repr, header))}): read that file too{match}."
    return None


_CELL_LINE = re.compile(r'File "<cell-\d+>", line (\d+)')
_MATH_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


_IS_A_FOLDER = re.compile(r"IsADirectoryError: \[Errno 21\] Is a directory: '([^'\n]+)'")
_TIME_DATA = re.compile(r"ValueError: time data '([^'\n]{1,60})' does not match format '([^'\n]{1,40})'")
_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y", "%Y/%m/%d", "%d.%m.%Y", "%d-%m-%Y", "%Y-%m-%d %H:%M:%S",
            "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%d %B %Y", "%B %d, %Y", "%d %b %Y", "%b %d, %Y", "%b %d %Y",
            "%H:%M:%S", "%H:%M", "%Y%m%d", "%d/%m/%y", "%m/%d/%y")


def _date_format_note(data: str, old: str, output: str, code: str, base: Path) -> str | None:
    """The format a date that did not match is written in, and the code (or the script it ran) with
    it: the 0.5B model sent `strptime("2025-07-16", "%d/%m/%Y")` back unchanged three times (ho5)."""
    from datetime import datetime

    fits = []
    for fmt in _FORMATS:
        try:
            datetime.strptime(data, fmt)
        except ValueError:
            continue
        fits.append(fmt)
    if not fits:
        return None
    fmt = fits[0]
    either = f" (or {fits[1]!r}: the day and month could be either way)" if len(fits) > 1 else ""
    note = f"Note: {data!r} is written {fmt!r}{either}, not {old!r}: read it with datetime.strptime(value, {fmt!r})."
    for path, _ in _SCRIPT_LINE.findall(output):  # the script the error came from, else this code
        p = Path(path)
        try:
            rel = p.resolve().relative_to(base.resolve()).as_posix()
            text = p.read_text(encoding="utf-8") if p.stat().st_size <= MAX_CODE else ""
        except (OSError, ValueError):
            continue
        if text.count(repr(old)[1:-1]) == 1:
            fixed = text.replace(repr(old)[1:-1], fmt)
            return note + f" With it, {rel} would be:\n```python\n{fixed.strip()}\n```\nWrite that into {rel} and run it."
    if code and len(code) <= MAX_CODE and code.count(old) == 1:
        return note + f" With it, the code would be:\n```python\n{code.replace(old, fmt).strip()}\n```"
    return note


_SCRIPT_LINE = re.compile(r'File "([^"<>\n]+\.py)", line (\d+)')


_LISTS = re.compile(r"\b(?:iterdir|listdir|scandir|glob|rglob|walk)\(")
_QUOTED_WORD = re.compile(r"""(['"])([\w.-]+)\1""")


def _target_folder(missing: str, code: str, output: str, request: str, base: Path) -> str | None:
    """A listing of the new folder the request asks to make, as if it held the files: asked to copy
    logs/*.log into "a new folder named recent_logs", the 0.5B model walked recent_logs and copied into
    a made-up new_logs (ho34-copy-recent-logs). Told where the files are; when the code has one other
    made-up folder name, the two are put right (the source becomes the named folder, the target the new one)."""
    from oi_local.core.hints import mentioned_paths

    if os.path.isabs(missing) or "/" in missing.strip("/") or Path(missing).suffix or (base / missing).exists():
        return None
    name = missing.strip("/")
    if not re.search(rf"""\b(?:into|to|named|called|as)\s+(?:(?:a|an|the|new|empty|folder|directory)\s+){{0,4}}['"`]?"""
                     rf"{re.escape(name)}(?![\w.-])", request, re.I):
        return None
    if not (_LISTS.search(output) or _LISTS.search(code)):
        return None
    sources = [p for p in mentioned_paths(request, base) if p.is_dir() and p.name != name]
    if len(sources) != 1:
        return None
    src = sources[0].relative_to(base.resolve()).as_posix()
    said = (f"Note: {name} does not exist yet: it is the new folder the request asks for, where the files go. "
            f"The files to go over are in {src}/. List those, and make {name} with "
            f"os.makedirs({name!r}, exist_ok=True) before writing into it.")
    if not code or len(code) > MAX_CODE:
        return said
    words = {m.group(2) for m in _QUOTED_WORD.finditer(code)}
    # a made-up folder: not there, or made empty by the failed run itself (mkdir before the listing)
    others = [w for w in words - {name, src} if "." not in w and w not in request
              and (not (base / w).exists() or (base / w).is_dir() and not any((base / w).iterdir()))
              and re.search(rf"""(?:Path|makedirs|mkdir|join)\(\s*['"]{re.escape(w)}['"]""", code)]
    if len(others) != 1:
        return said
    made = others[0]
    fixed = _QUOTED_WORD.sub(lambda m: m.group(1) + {name: src, made: name}.get(m.group(2), m.group(2)) + m.group(1), code)
    return said + f" With that, the code would be:\n```python\n{fixed.strip()}\n```"


def _totals_started(output: str, code: str, base: Path) -> str | None:
    """A KeyError at `totals[name] += x`: the dict has no entry for the name yet. Asked to fix trip_costs.py,
    which crashed so, the 0.5B model wrote the same line back (ho40, a development run). The code (or the
    script it ran) with `totals[name] = totals.get(name, 0) + x` there."""
    said = "Note: the dictionary has no entry for that key yet, so += cannot add to it. Start it at 0 with .get()."
    script = _script_fixed(output, base, _dict_started)
    if script:
        rel, text = script
        return said + f" With that, {rel} would be:\n```python\n{text.strip()}\n```\nWrite that into {rel} and run it."
    fixed = _dict_started(code, _failed_line(output) or 0, _missing_key(output)) if code and len(code) <= MAX_CODE else None
    return said + f" With that, the code would be:\n```python\n{fixed.strip()}\n```" if fixed else None


def _missing_key(output: str) -> str | None:
    m = _KEY.search(output)
    return m.group(1) if m else None


def _reads_key(node: ast.AST, key: str | None) -> bool:
    """`node` looks up the literal key `key` (`r["qty"]`): a KeyError for it came from there."""
    return key is not None and any(isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant)
                                   and n.slice.value == key for n in ast.walk(node))


def _dict_started(code: str, line: int, missing: str | None = None) -> str | None:
    """`code` with each `d[k] += v` on `line` written `d[k] = d.get(k, 0) + v`, or None when there is none
    (nor when the missing key is one the line reads, `totals[r["sku"]] += int(r["qty"])`: no .get() mends that)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    edits = []
    for n in ast.walk(tree):
        if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and isinstance(n.target, ast.Subscript) \
                and n.lineno == n.end_lineno == line:
            if _reads_key(n.value, missing) or _reads_key(n.target.slice, missing):
                return None
            d, k, v = (ast.get_source_segment(code, x) for x in (n.target.value, n.target.slice, n.value))
            if d and k and v:
                edits.append((n.lineno, n.col_offset, n.end_col_offset or 0, f"{d}[{k}] = {d}.get({k}, 0) + {v}"))
    return rewrite(code, edits) if edits else None


def _blanks_note(output: str, code: str, base: Path) -> str | None:
    """A blank line read as a number: the code (or the script it ran) with blank lines skipped."""
    said = "Note: the file has blank lines, and a blank line is not a number. Skip them where the lines are read."
    script = _script_fixed(output, base, lambda text, _: blanks_skipped(text))
    if script:
        rel, fixed = script
        return said + f" With that, {rel} would be:\n```python\n{fixed.strip()}\n```\nWrite that into {rel} and run it."
    corrected = blanks_skipped(code) if code and len(code) <= MAX_CODE else None
    return said + (f" With that, the code would be:\n```python\n{corrected.strip()}\n```" if corrected else "")


def _script_fixed(output: str, base: Path, fix: Callable[[str, int], str | None]) -> tuple[str, str] | None:
    """(name, fixed text) of the first script here in the traceback that `fix(text, line)` corrects."""
    for path, line in _SCRIPT_LINE.findall(output):
        p = Path(path)
        try:
            rel = p.resolve().relative_to(base.resolve())
            text = p.read_text(encoding="utf-8") if p.stat().st_size <= MAX_CODE else None
        except (OSError, ValueError):
            continue
        fixed = fix(text, int(line)) if text else None
        if fixed:
            return rel.as_posix(), fixed
    return None


def _script_converted(output: str, base: Path) -> tuple[str, str] | None:
    """(name, text) of a script here whose line the error came from, with its values converted."""
    return _script_fixed(output, base, _numbers_converted)


_PATH_ATTRS = ("stat|name|stem|suffix|parent|read_text|read_bytes|write_text|is_file|is_dir|exists|iterdir|glob|rglob|"
               "with_suffix|with_name|rename|unlink|mkdir|relative_to|resolve")
_STR_PATH = re.compile(rf"AttributeError: 'str' object has no attribute '({_PATH_ATTRS})'")


def _str_path_note(attr: str, output: str, code: str) -> str:
    """`p.stat()` for a path held as text (glob.glob and os.listdir give strings): asked which file was the
    largest, the 0.5B model wrote `max(glob.glob("data/*"), key=lambda p: p.stat().st_size)` (files-largest)."""
    advice = f"Note: that path is text (a str), not a Path: .{attr} is a Path's. Wrap it in Path() first."
    line = _failed_line(output)
    lines = code.splitlines()
    if not code or len(code) > MAX_CODE or line is None or not 0 < line <= len(lines):
        return advice
    used = rf"(?<![\w.)\]])([A-Za-z_]\w*)\.(?:{_PATH_ATTRS})\b"
    # The failing line's names, and any other name used with an attribute only a path has (`biggest.stat()` after
    # `biggest = max(glob.glob(...), ...)` fails next); not a file handle (`f.name`) nor a module.
    only = rf"(?<![\w.)\]])([A-Za-z_]\w*)\.(?!name\b|parent\b|rename\b)(?:{_PATH_ATTRS})\b"
    handles = {h for pair in re.findall(r"\bas\s+(\w+)\s*:|(?<![\w.])(\w+)\s*=\s*open\(", code) for h in pair if h}
    names = [n for n in dict.fromkeys(re.findall(used, lines[line - 1]) + re.findall(only, code))
             if n not in ("Path", "os", "self", "shutil", "glob", "pathlib") and n not in handles]
    if not names:
        return advice
    fixed = code
    for n in names:
        fixed = re.sub(rf"(?<![\w.]){n}\.(?=(?:{_PATH_ATTRS})\b)", f"Path({n}).", fixed)
    if not re.search(r"^from pathlib import .*\bPath\b", fixed, re.M):
        fixed = "from pathlib import Path\n" + fixed
    return advice + f" With that, the code would be:\n```python\n{fixed.strip()}\n```"


_LIST_SEARCHED = "TypeError: expected string or bytes-like object, got 'list'"


def _lines_joined(code: str, line: int | None) -> str | None:
    """The code with each list of lines a re function on `line` searches joined into one text (ho41's auth.log:
    `re.findall(pattern, auth)` of `auth = f.read().splitlines()`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    edits = [(a.lineno, a.col_offset, a.end_col_offset or 0, f'"\\n".join({a.id})') for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
             and n.func.value.id == "re" and n.lineno == line and len(n.args) >= 2
             for a in [n.args[1]] if isinstance(a, ast.Name)]
    return rewrite(code, edits).strip() if edits else None


_INT_KEY = re.compile(r"KeyError: (\d+)\s*$", re.M)


def _row_by_position(output: str, code: str, request: str = "", base: Path | None = None) -> str | None:
    """`r[3]` of a row read by csv.DictReader, a dict keyed by column name: "KeyError: 3". The 0.5B model then typed
    the file's rows into its code (ho59, session 60's start)."""
    m = _INT_KEY.search(output)
    line = _failed_line(output)
    if not m or line is None or not code:
        return None
    lines = code.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    var = next((v for v in re.findall(rf"\b([A-Za-z_]\w*)\[\s*{m.group(1)}\s*\]", text)), None)
    if var is None:
        return None
    shown = re.search(rf"\b{re.escape(var)} = \{{(.*?)\}}(?:;|$)", output, re.M)
    keys = re.findall(r"'([^'\n]{1,40})':", shown.group(1)) if shown else []
    if not keys:
        return None
    if base is not None:  # the values are shown sorted; the file's own order reads better
        from oi_local.core.hints import mentioned_paths

        for p in mentioned_paths(request, base):
            try:
                header = [c.strip() for c in p.open(encoding="utf-8", errors="replace").readline().split(",")]
            except OSError:
                continue
            if set(header) == set(keys):
                keys = header
                break
    return (f"Note: {var} is a dict keyed by column name (a csv.DictReader row), not a list, so {var}[{m.group(1)}] "
            f"does not exist. Its keys are: {', '.join(repr(k) for k in keys)}; write {var}[{keys[0]!r}] and so on.")


def _failed_line(output: str) -> int | None:
    lines = _CELL_LINE.findall(output)
    return int(lines[-1]) if lines else None


def _numbers_converted(code: str, line: int | None) -> str | None:
    """`code` with the values used in arithmetic or comparisons on the failing line (`row["qty"]`,
    `parts[2]`) wrapped in float() there and wherever else the code reads them (`low = row["qty"]`
    would bring the string back), the fix a small model shown the note still gets half wrong;
    None when there is nothing certain to wrap."""
    if line is None:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    lines = code.splitlines()
    raw = [ln.encode() for ln in lines]  # ast offsets count UTF-8 bytes

    def text_of(node: ast.AST) -> bytes:
        return raw[node.lineno - 1][node.col_offset:node.end_col_offset]  # type: ignore[attr-defined]

    wanted: set[bytes] = set()
    mapped: list[tuple[int, int]] = []  # a list passed whole to sum()/max()/min(): map(float, ...) over it

    def value(node: ast.AST) -> None:
        if isinstance(node, ast.Subscript) and node.lineno == node.end_lineno == line:
            wanted.add(text_of(node))

    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) != line and getattr(node, "end_lineno", None) != line:
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, _MATH_OPS):
            sides = (node.left, node.right)
            if not any(isinstance(s, ast.Constant) and isinstance(s.value, str) or isinstance(s, ast.JoinedStr) for s in sides):
                for side in sides:
                    value(side)
        elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.Lt, ast.Gt, ast.LtE, ast.GtE)) for op in node.ops):
            for side in (node.left, *node.comparators):
                value(side)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, _MATH_OPS):
            value(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("sum", "max", "min") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Name) and arg.lineno == line:  # sum(groceries) of a list of strings (ho47)
                mapped.append((arg.col_offset, arg.end_col_offset or arg.col_offset))
            value(arg.elt if isinstance(arg, (ast.GeneratorExp, ast.ListComp)) else arg)
    if not wanted and not mapped:
        return None
    spots: dict[int, list[tuple[int, int]]] = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and node.lineno == node.end_lineno
                and text_of(node) in wanted):
            up = parents.get(node)
            if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id in ("float", "int"):
                continue  # converted already
            spots.setdefault(node.lineno, []).append((node.col_offset, node.end_col_offset))  # type: ignore[arg-type]
    for n, found in spots.items():
        kept: list[tuple[int, int]] = []  # outermost only: r[k[0]] inside r[...] is not wrapped twice
        for a, b in sorted(found, key=lambda s: (s[0], -s[1])):
            if not any(ka <= a and b <= kb for ka, kb in kept):
                kept.append((a, b))
        edits = [(a, b, b"float(") for a, b in kept] + [(a, b, b"map(float, ") for a, b in mapped if n == line]
        text = raw[n - 1]
        for a, b, wrap in sorted(edits, reverse=True):
            text = text[:a] + wrap + text[a:b] + b")" + text[b:]
        lines[n - 1] = text.decode()
    if mapped and line not in spots:
        text = raw[line - 1]
        for a, b in sorted(mapped, reverse=True):
            text = text[:a] + b"map(float, " + text[a:b] + b")" + text[b:]
        lines[line - 1] = text.decode()
    return "\n".join(lines)
