"""Named columns: a request that names the columns of the CSV to write ("books.csv with the columns
title, author and year. Leave the tags out.") is done when those are the columns. The 0.5B model
wrote a header of title, author, year and tags, and each book's tags with it (ho6-data-json-to-csv).
Where the request lists the columns and the code writes a header (`writer.writerow([...])` of names,
or `fieldnames=[...]`) that has those and others, the others are dropped before the code runs: from the
header, from the rows written beside it (`writerow([...])` lists of the same length), and a
`DictWriter` ignores the keys it was not given. The person is told.
So is a header held by a name (`columns = ["title", "author", "year", "tags"]`, then `writerow(columns)` and
`[r.get(c, "") for c in columns]`, ho6 again): the list it is bound to is cut. And a `DictWriter` whose
fieldnames are worked out from the records (`list(dict.fromkeys(k for b in items for k in b))`, ho40: every
field of each invoice written, asked for "Columns: number, client, amount") is given the listed columns,
when each is a key of the data file the code reads."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction

FIELDS = "Changed before it ran: the CSV's columns are {columns}, as asked (the records' other fields left out)."
NOTE = "Changed before it ran: the columns are {columns}, as asked ({dropped} left out)."
# "with the columns title, author and year", "columns: name, email", "the columns name and points, and these rows"
_LISTED = re.compile(r"\bcolumns?\s*(?::|\s(?:should\s+be|are|called|named)\b)?\s*([^.;:\n]+)", re.I)


def named(request: str) -> list[str]:
    """The column names the request lists after "columns" (two or more, one word each), in order."""
    m = _LISTED.search(instruction(request))
    if not m:
        return []
    names: list[str] = []
    listed = re.sub(r"\s*\([^)]*\)", "", m.group(1))  # "joined (in that order)" (ho24)
    for part in re.split(r",|\band\b", listed):
        words = part.split()
        if len(words) != 1:
            if words:
                break  # "these rows": the list has ended
            continue
        names.append(words[0].strip("'\"`"))
    return names if len(names) >= 2 else []


def _names_list(node: ast.expr) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [str(e.value) for e in node.elts if isinstance(e, ast.Constant)]
    return None


def kept_columns(code: str, wanted: list[str]) -> tuple[str, list[str]]:
    """`code` with header lists that hold every wanted column and more cut to the wanted ones (with the rows
    written beside them cut at the same places); and the columns dropped."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    low = [w.lower() for w in wanted]
    edits: list[tuple[ast.AST, str]] = []
    dropped: list[str] = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        func = n.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        lists = [k.value for k in n.keywords if k.arg == "fieldnames"] + (list(n.args[1:2]) if name == "DictWriter" else []) \
            if name == "DictWriter" else list(n.args[:1]) if name == "writerow" else []
        for header in lists:
            names = _names_list(header)
            if not names or not set(low) <= {x.lower() for x in names} or len(names) == len(low):
                continue
            keep = [i for i, x in enumerate(names) if x.lower() in low]
            dropped += [x for i, x in enumerate(names) if i not in keep]
            if name == "DictWriter":  # one edit of the whole call: the list, and the other keys ignored
                call, listed = ast.get_source_segment(code, n) or "", ast.get_source_segment(code, header) or ""
                new = call.replace(listed, repr([names[i] for i in keep]), 1)
                if not any(k.arg == "extrasaction" for k in n.keywords):
                    new = new[:-1].rstrip() + ', extrasaction="ignore")'
                edits.append((n, new))
                continue
            edits.append((header, repr([names[i] for i in keep])))
            if name == "writerow":
                for row in ast.walk(tree):  # the data rows: writerow([...]) lists of the header's length
                    if isinstance(row, ast.Call) and row is not n and isinstance(row.func, ast.Attribute) \
                            and row.func.attr == "writerow" and row.args and isinstance(row.args[0], (ast.List, ast.Tuple)) \
                            and len(row.args[0].elts) == len(names) and _names_list(row.args[0]) is None:
                        parts = [ast.get_source_segment(code, row.args[0].elts[i]) or "" for i in keep]
                        edits.append((row.args[0], "[" + ", ".join(parts) + "]"))
    held = _held_lists(tree)
    for n in ast.walk(tree):  # a header held by a name, used by a writer
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("writerow", "DictWriter") \
                or isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "DictWriter":
            for arg in [*n.args, *(k.value for k in n.keywords if k.arg == "fieldnames")]:
                if isinstance(arg, ast.Name) and arg.id in held:
                    bound, fields = held.pop(arg.id)
                    if set(low) <= {x.lower() for x in fields} and len(fields) > len(low):
                        edits.append((bound, repr([x for x in fields if x.lower() in low])))
                        dropped += [x for x in fields if x.lower() not in low]
    if not edits:
        return code, []
    segments = []
    for node, new in edits:
        text = ast.get_source_segment(code, node)
        if not text:
            return code, []
        segments.append((text, new))
    for old, new in segments:
        code = code.replace(old, new, 1)
    return code, list(dict.fromkeys(dropped))


def _held_lists(tree: ast.AST) -> dict[str, tuple[ast.expr, list[str]]]:
    """Names bound once to a list of strings, with the list."""
    bound: dict[str, list[ast.expr]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    bound.setdefault(t.id, []).append(n.value)
    held = {}
    for name, values in bound.items():
        names = _names_list(values[0]) if len(values) == 1 else None
        if names:
            held[name] = (values[0], names)
    return held


_KEYS = re.compile(r"""['"]([\w .-]+)['"]\s*:""")


def computed_fields(code: str, wanted: list[str], folder: Path) -> str | None:
    """`code` with a DictWriter's worked-out fieldnames made the wanted columns (the other keys ignored),
    when each wanted column is a key of a .json (or a column of a .csv) file the code reads."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    keys: set[str] = set()
    for name in re.findall(r"['\"]([^'\"\n]+\.(?:json|csv))['\"]", code):
        path = folder / name
        if path.is_file() and path.stat().st_size < 2_000_000:
            text = path.read_text(encoding="utf-8", errors="replace")
            keys |= set(_KEYS.findall(text)) if path.suffix == ".json" else {c.strip() for c in text.split("\n", 1)[0].split(",")}
    if not set(wanted) <= keys:
        return None
    held = _held_lists(tree)
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and (isinstance(n.func, ast.Attribute) and n.func.attr == "DictWriter"
                                              or isinstance(n.func, ast.Name) and n.func.id == "DictWriter")):
            continue
        fields = next((k.value for k in n.keywords if k.arg == "fieldnames"), n.args[1] if len(n.args) > 1 else None)
        if fields is None or _names_list(fields) is not None or (isinstance(fields, ast.Name) and fields.id in held):
            continue
        call, listed = ast.get_source_segment(code, n) or "", ast.get_source_segment(code, fields) or ""
        if not call or not listed:
            continue
        new = call.replace(listed, repr(wanted), 1)
        if not any(k.arg == "extrasaction" for k in n.keywords):
            new = new[:-1].rstrip() + ', extrasaction="ignore")'
        return code.replace(call, new, 1)
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "writ" not in block.code or "column" not in turn.request.lower():
        return None
    wanted = named(turn.request)
    if not wanted:
        return None
    code, dropped = kept_columns(block.code, wanted)
    if not dropped or code == block.code:
        fields = computed_fields(block.code, wanted, Path.cwd())
        if fields is None:
            return None
        block.message["content"] = fields
        return Verdict(warning=FIELDS.format(columns=", ".join(wanted)))
    block.message["content"] = code
    return Verdict(warning=NOTE.format(columns=", ".join(wanted), dropped=", ".join(dropped)))


rule = Rule(
    name="named columns", setting="repair_slips", check=check,
    summary="a request that lists the columns of the CSV to write (\"with the columns title, author and year\"), whose "
            "code writes a header with those and others (tags), has the others dropped from the header and the rows "
            "written beside it before it runs (a `DictWriter` ignores the other keys); the person is told")
