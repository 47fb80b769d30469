"""Unknown values: code that compares the data with a value that is nowhere in the files the request
names, nor in the conversation (`r["date"].startswith("2024-10")` for a statement of 2025, `== "yes"`
for a column of dates), picks no rows and prints a wrong 0. The 0.5B model takes such values from
worked examples or makes them up. Such code is not run; the request is asked afresh once (sampled,
the try hidden), naming the value and the file. Only when the request names a file or folder that
is there, or the code opens one: what is known is then what the data holds.
A regular expression that matches nothing the data holds is such a value too: asked how many nights
a pasted backup log failed, `re.findall` of a number before "nights" printed "Failed nights: []",
answered as none (ho19). So is a value compared with the text of a file the code opens (a pasted text's
file, which the request does not name): asked about a pasted NAS log, the retry counted the lines that
start with "backupd[4380]: nightly job 'family-photos' FAILED", a line the log never has, and printed 0."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

NOTE = ("(Write one ```python block that does what I asked. The first try compared the data with {values}, "
        "which {are} nowhere in {files}; use the values the data really has.)")
SHOWN = "Not run: the code looks for {values}, which {are} nowhere in {files}; asked afresh."


def compared(code: str) -> list[str]:
    """The strings the code compares data with (`==`, `in`, startswith/endswith), in order."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    exprs: list[ast.AST] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Compare):
            exprs += [n.left, *n.comparators]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("startswith", "endswith"):
            exprs += list(n.args)
    found = []
    for e in exprs:
        # the values themselves, or a literal tuple of them; not a path inside a call on one side
        # (`os.path.getmtime(os.path.join("notes/", f)) > t` compares no text with "notes/")
        for c in (e.elts if isinstance(e, (ast.Tuple, ast.List, ast.Set)) else [e]):
            if isinstance(c, ast.Constant) and isinstance(c.value, str) and 2 <= len(c.value.strip()) <= 80 \
                    and re.search(r"[^\W_]", c.value) and not re.fullmatch(r"__\w+__", c.value):  # "__main__"
                found.append(c.value)
    return list(dict.fromkeys(found))


_RE_CALLS = ("search", "findall", "finditer", "match", "fullmatch", "compile")
# open("x"), pd.read_csv("x"), pd.read_json("x"): a follow-up names no file, its code reads the earlier one
# (asked which of their books were not returned, the code looked for "Not Returned" in loans.csv; ho39)
_OPENS = re.compile(r"""\b(?:open|read_csv|read_json|read_table)\(\s*r?['"]([^'"\n]+)['"]""")


def patterns(code: str) -> list[str]:
    """The regular expressions the code searches the data with (`re.findall(r"...", text)`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    # a pattern named first (`pattern = r"FAIL\s+job..."; re.findall(pattern, text)`), when named once
    named: dict[str, list[str]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            value = n.value.value if isinstance(n.value, ast.Constant) and isinstance(n.value.value, str) else None
            named.setdefault(n.targets[0].id, []).append(value or "")
    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _RE_CALLS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "re" and n.args:
            arg = n.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append(arg.value)
            elif isinstance(arg, ast.Name) and len(named.get(arg.id, [])) == 1 and named[arg.id][0]:
                found.append(named[arg.id][0])
    return list(dict.fromkeys(found))


def _finds_nothing(pattern: str, known: str) -> bool:
    try:
        return re.search(pattern, known, re.I | re.M) is None
    except (re.error, RecursionError):
        return False


def _said_dates(turn: Turn) -> set[str]:
    """The dates the requests name, as code writes them: "due before 1 June 2024" is "2024-06-01" (and
    the month "2024-06"). A cutoff the person names need not be in the data."""
    from oi_local.core.dates import named_dates

    text = "\n".join(str(m.get("content", "")) for m in turn.engine.messages if m.get("role") == "user")
    days = {f"{n.year:04d}-{n.month:02d}-{n.day:02d}" for n in named_dates(text) if n.year}
    return days | {d[:7] for d in days}


def unknown(turn: Turn, block: Block) -> tuple[list[str], list[str]]:
    """(the compared values nothing here has, the named files and folders), or ([], [])."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.copied_examples import known_text

    if block.lang != "python":
        return [], []
    values, found = compared(block.code), patterns(block.code)
    named = mentioned_paths(turn.request, Path.cwd())
    opened = [Path(f) for f in _OPENS.findall(block.code) if Path(f).is_file()]  # a paste's file, too
    if not ((values or found) and (named or opened)):
        return [], []
    known = known_text(turn)
    if opened and not named:
        known += "\n".join(f"{p}\n" + p.read_text(encoding="utf-8", errors="replace")[:1_000_000] for p in opened).lower()
    said = _said_dates(turn)
    gone = [v for v in values if v.strip().lower() not in known and v.strip() not in said]
    gone += [p for p in found if _finds_nothing(p, known)]
    base = Path.cwd().resolve()
    paths = [p.resolve() for p in named or opened]
    return gone, [str(p.relative_to(base)) if p.is_relative_to(base) else str(p) for p in paths]


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["unknown values"] >= 1:
        return None
    gone, files = unknown(turn, block)
    if not gone:
        return None
    turn.counts["unknown values"] += 1
    values = ", ".join(f'"{v}"' for v in gone[:3])
    are = "is" if len(gone) == 1 else "are"
    where = " or ".join(files[:3])
    blank = _blank_column(block.code, gone, files)
    return Verdict(note=SHOWN.format(values=values, are=are, files=where),
                   ask=Ask(NOTE.format(values=values, are=are, files=where)[:-1] + blank + ")", code_retry(turn.engine, 13),
                           hide=True))


def _blank_column(code: str, gone: list[str], files: list[str]) -> str:
    """Where the column compared with a value the data lacks has empty cells: asked which books were not
    returned yet, the 0.5B model looked for "Not Returned" in a column left empty until a book comes back,
    twice (ho39). The note says how an empty cell reads."""
    from oi_local.core.rules.asked_column import _table

    for value in gone:
        m = re.search(r"""\[\s*['"]([^'"\n]+)['"]\s*\]\s*[!=]=\s*['"]""" + re.escape(value) + "['\"]", code)
        if m is None:
            continue
        column = m.group(1)
        for f in files:
            if Path(f).suffix.lower() not in (".csv", ".tsv"):
                continue
            cells = _table(Path(f)).get(column)
            empty = sum(1 for c in cells or [] if not c)
            if empty:
                return (f" In {f}, {column} is empty on {empty} of its first {len(cells or [])} rows: an empty cell is "
                        f"where there is no value (with pandas `df[{column!r}].isna()`, with csv `r[{column!r}] == ''`).")
    return ""


rule = Rule(
    name="unknown values", setting="check_answers", check=check,
    summary="code that compares the data with a value that is nowhere in the files or folders the request names (or "
            "the files it opens, such as a pasted text's) nor "
            "in the conversation (`startswith(\"2024-10\")` for a statement of 2025), or searches it with a regular "
            "expression that matches nothing they hold, is not run; the request is asked "
            "afresh once, sampled, naming the value")
