"""Named values: a request about some rows of a table ("how many hours did Priya work? it's all in
timesheet.csv", "what did we spend on takeaways in April?") names a value the named CSV holds (Priya in
its employee column, Takeaway in its category column). The 0.5B model's code often reads the file and
adds up every row: 73.5 hours for Priya's 36.75. In the development runs, the first code of all 5 such
requests that used none of the named values failed the task; all 3 that used one passed. Code that
reads the file and uses none of the values is not run; the request is asked afresh (sampled,
the try hidden; twice at most), naming the values and their columns. A JSON file of records is read as such a table
(asked what went on groceries, the model added up every transaction of a month's JSON).
Asked afresh, the model often still picked no rows (in `ho31`, "how many users are active and from
Canada?" got two tries that filtered on `active` alone, then a broken one), so where the request names
one value of a column and the code loads the file's rows in one plain statement (`json.load`,
`list(csv.DictReader(f))`, `pd.read_csv`) or walks them in a `for` loop, the rows are narrowed to that
value right after the load, before the code's own logic, and the code runs; the ask is the fallback. Not
for a request that compares or takes a share ("what percent of users are from Canada"), where the
other rows count too."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

NOTE = ("(Write one ```python block that does what I asked. I asked about {values} ({where}); the first try "
        "used every row. Pick the rows with {those} in the code.)")
SHOWN = "Not run: the code never uses {values}, which the request asks about ({where}); asked afresh."
SUFFIXES = {".csv", ".tsv"}
# Asked afresh, the model can again pick no rows, only now with the value in a printed label ("8
# users are active and from Canada." over every active user): a second ask, with another seed.
ASKS = 2
_WORDS = re.compile(r"[A-Za-z][A-Za-z '&-]{2,40}")  # a value of words only: not a date, an id or a number
_PATHISH = re.compile(r"\S*[/.]\S*")  # a path or file name in the request ("bank/statement_q2.csv")


def records(p: Path) -> dict[str, list[str]]:
    """The fields of a JSON file of records (a list of objects, at the top or under one key, as in
    {"month": "Nov", "transactions": [...]}) with their values as text, like a CSV's columns."""
    import json

    try:
        if p.stat().st_size > 2_000_000:
            return {}
        data = json.loads(p.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return {}
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)]
        data = lists[0] if len(lists) == 1 else None
    if not (isinstance(data, list) and data and all(isinstance(r, dict) for r in data)):
        return {}
    table: dict[str, list[str]] = {}
    for r in data[:200]:
        for k, v in r.items():
            if isinstance(v, (str, int, float)) and not isinstance(v, bool):
                table.setdefault(str(k), []).append(str(v))
    return table


# "Add a row for Omar with 11 points, then tell me the average points": Omar is added, not the rows asked about
# (session 44: the rows narrowed to Omar's, the average answered 11.0); "add up" is a sum
_ADDED = re.compile(r"\b(?:add(?!\s+(?:up|together|them|these|those)\b)|append|insert)\b[^.?!,;]*", re.I)


def named(request: str, cwd: Path, files_from: str | None = None) -> list[tuple[str, str, str]]:
    """(file, column, value) for each value of a text column of a named CSV file that the request
    names as words (case aside, "takeaways" for Takeaway), in the file's order; a JSON file of records
    counts as a table (its fields as columns). `files_from`: the text that names the files, when not
    the request itself (a follow-up's earlier request)."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.asked_column import _numeric, _table

    said = _ADDED.sub(" ", _PATHISH.sub(" ", request)).lower()
    found: list[tuple[str, str, str]] = []
    for p in mentioned_paths(request if files_from is None else files_from, cwd):
        if not (p.is_file() and p.suffix.lower() in SUFFIXES | {".json"}):
            continue
        table = records(p) if p.suffix.lower() == ".json" else _table(p)
        headers = {c.lower() for c in table}
        for column, values in table.items():
            if _numeric(values):
                continue
            for value in dict.fromkeys(v.strip() for v in values):
                if not _WORDS.fullmatch(value) or value.lower() in headers or value.lower() in p.name.lower():
                    continue
                if re.search(rf"(?<![\w-]){re.escape(value.lower())}(?:e?s)?(?![\w-])", said):
                    found.append((p.name, column, value))
    return found


def _names_data(request: str) -> bool:
    """The request names a data file of its own (there or not)."""
    return bool(re.search(r"\.(?:csv|tsv|json)\b", request, re.I))


def _uses(code: str, value: str) -> bool:
    """The code uses the value as data: in a string outside print() and not a file's name (a variable
    named `groceries`, a label "Spent on groceries:" or a file berlin_emails.txt over every row picks no rows)."""
    # a file name the code writes ("berlin_emails.txt") is not a value it tests
    low = "\n".join(_PATHISH.sub(" ", t) for t in _data_strings(code)).lower()
    v = value.lower()
    return v in low or (v.endswith("s") and v[:-1] in low)


def _data_strings(code: str) -> list[str]:
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return [code]
    labels = [a for call in ast.walk(tree) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
              and call.func.id == "print" for a in call.args if isinstance(a, (ast.Constant, ast.JoinedStr))]
    # a label printed, not a value the code tests (an f-string's own text, not what its braces compute)
    printed = {id(n) for a in labels for n in ([a] if isinstance(a, ast.Constant) else a.values)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in printed]


# words of a request for which the rows the value does not pick count too: a share, a comparison, a
# total over all, or a value left out
OTHER_ROWS = re.compile(
    r"%|\b(?:percent(?:age)?|share|fraction|proportion|ratio|compared?|versus|vs|each|every|per(?!\s+(?:line|row|page)\b)|by|"
    r"except|excluding|exclud\w*|leav\w*\s+out|left\s+out|ignor\w*|skip\w*|omit\w*|apart\s+from|minus|besides|"
    r"not|without|other|others|overall|altogether|everyone|everybody)\b", re.I)
_LOADS = ("json.load", "json.loads", "pd.read_csv", "pandas.read_csv", "pd.read_json", "pandas.read_json",
          "list(csv.DictReader")
REPAIRED = "the rows are narrowed to {picks} first, as the request asks (the code used every row)"


def picks(request: str, values: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The (file, column, value) to narrow the rows to: one named value per column, of one file, in a
    request that asks about those rows only; else none."""
    if OTHER_ROWS.search(_PATHISH.sub(" ", request)) or len({f for f, _, _ in values}) != 1:
        return []
    columns = [c for _, c, _ in values]
    said = [v.lower() for _, _, v in values]
    if len(set(columns)) != len(columns) or len(set(said)) != len(said):
        return []  # two values of one column ("Canada or Mexico"), or one value in two columns
    return values


def narrowed(code: str, chosen: list[tuple[str, str, str]], listed: bool = True, starts: bool = False,
             under: str | None = None) -> str | None:
    """The code with its rows narrowed to the chosen (file, column, value), right after the statement
    that loads them or as the first line of the loop that walks them; None when neither is plain to
    see. `listed`: a JSON file's records are the file's top level (a list), not under a key. `starts`:
    a row's value starts with the chosen one (a month "2024-03" of ISO dates), not equals it. `under`: the key
    of a JSON object under which its records are (`people = data["people"]` takes them out)."""
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    lines = code.splitlines()

    def test(cell: str, v: str, negate: bool = False) -> str:
        if starts:
            return f"{'not ' if negate else ''}{cell}.startswith({v!r})"
        return f"{cell} {'!=' if negate else '=='} {v!r}"

    for node in sorted(ast.walk(tree), key=lambda n: getattr(n, "lineno", 0)):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            src = ast.get_source_segment(code, node.value) or ""
            v = node.value
            # `groceries = [r for r in csv.DictReader(f) if ...]`: rows read and picked at once are rows too
            picked_rows = isinstance(v, ast.ListComp) and len(v.generators) == 1 and isinstance(v.elt, ast.Name) \
                and isinstance(v.generators[0].target, ast.Name) and v.elt.id == v.generators[0].target.id \
                and "csv.DictReader(" in (ast.get_source_segment(code, v.generators[0].iter) or "")
            taken = under is not None and isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) \
                and isinstance(v.slice, ast.Constant) and v.slice.value == under
            if not (src.replace(" ", "").startswith(_LOADS) or picked_rows or taken):
                continue
            name, pad = node.targets[0].id, " " * node.col_offset
            if src.startswith("json.") and not listed:
                if under is not None:
                    continue  # the records are taken out of it further on
                return None  # an object at the top: its rows are under some key
            if src.startswith(("pd.", "pandas.")):
                op = ".str.startswith({v!r})" if starts else " == {v!r}"
                picked = " & ".join(f"({name}[{c!r}].astype(str).str.strip(){op.format(v=v)})" for _, c, v in chosen)
                line = f"{pad}{name} = {name}[{picked}]"
            else:
                picked = " and ".join(test(f"str(r.get({c!r}, '')).strip()", v) for _, c, v in chosen)
                line = f"{pad}{name} = [r for r in {name} if isinstance(r, dict) and {picked}]"
            end = node.end_lineno or node.lineno
            return "\n".join(lines[:end] + [line] + lines[end:])
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.body:
            src = ast.get_source_segment(code, node.iter) or ""
            if "csv.DictReader(" not in src:
                continue
            var, first = node.target.id, node.body[0]
            skip = " or ".join(test(f"str({var}.get({c!r}, '')).strip()", v, negate=True) for _, c, v in chosen)
            line = f"{' ' * first.col_offset}if {skip}:\n{' ' * first.col_offset}    continue"
            return "\n".join(lines[:first.lineno - 1] + [line] + lines[first.lineno - 1:])
    # `[float(r["rating"]) for r in csv.DictReader(f)]`: the values are taken as the rows are read
    # (ho34-kettle-average, refused twice): the comprehension gets the test; so does one over `reader`, where
    # `reader = csv.DictReader(f)`
    readers = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and len(node.targets) == 1
               and isinstance(t := node.targets[0], ast.Name)
               and (ast.get_source_segment(code, node.value) or "").replace(" ", "").startswith("csv.DictReader(")}
    for node in ast.walk(tree):
        if not (isinstance(node, (ast.ListComp, ast.GeneratorExp)) and len(node.generators) == 1):
            continue
        gen = node.generators[0]
        tail = gen.ifs[-1] if gen.ifs else gen.iter
        if not isinstance(gen.target, ast.Name) or tail.end_col_offset is None \
                or "csv.DictReader(" not in (ast.get_source_segment(code, gen.iter) or "") \
                and not (isinstance(gen.iter, ast.Name) and gen.iter.id in readers):
            continue
        var = gen.target.id
        picked = " and ".join(test(f"str({var}.get({c!r}, '')).strip()", v) for _, c, v in chosen)
        row = (tail.end_lineno or tail.lineno) - 1
        col = len(lines[row].encode()[:tail.end_col_offset].decode(errors="replace"))
        lines[row] = lines[row][:col] + f" if {picked}" + lines[row][col:]
        return "\n".join(lines)
    return None


def records_key(request: str, name: str) -> str | None:
    """The one key of the named JSON file's top object whose value is a list of records, else None."""
    import json

    from oi_local.core.hints import mentioned_paths

    for p in mentioned_paths(request, Path.cwd()) if name.lower().endswith(".json") else []:
        if p.name == name:
            try:
                data = json.loads(p.read_text(encoding="utf-8", errors="replace"))
            except (OSError, ValueError):
                return None
            keys = [k for k, v in data.items() if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)] \
                if isinstance(data, dict) else []
            return keys[0] if len(keys) == 1 else None
    return None


def top_list(request: str, name: str) -> bool:
    """The named JSON file holds a list at its top (a CSV file: always)."""
    import json

    from oi_local.core.hints import mentioned_paths

    if not name.lower().endswith(".json"):
        return True
    for p in mentioned_paths(request, Path.cwd()):
        if p.name == name:
            try:
                return isinstance(json.loads(p.read_text(encoding="utf-8", errors="replace")), list)
            except (OSError, ValueError):
                return False
    return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["named values"] >= ASKS:
        return None
    values = named(turn.request, Path.cwd())
    if not values and not _names_data(turn.request) and turn.earlier_request:
        # "ok, put those Berlin people's emails into berlin_emails.txt" after a question about contacts.csv:
        # the model wrote all nine (ho34-mt-berlin-emails)
        values = named(turn.request, Path.cwd(), files_from=turn.earlier_request)
    if not values and not _names_data(turn.request):
        # "How many minutes of running is that in total now?" two requests after workouts.csv was made: the code
        # that reads it names it (ho57-multi-workout-log, session 58's start run: every row's minutes, 200 for 105)
        values = named(turn.request, Path.cwd(), files_from=block.code)
    if not values or not any(Path(f).stem in block.code for f, _, _ in values):
        return None  # nothing named, or the code does not read the file (other rules see to that)
    if any(_uses(block.code, v) for _, _, v in values):
        return None
    chosen = picks(turn.request, values)
    code = narrowed(block.code, chosen, top_list(turn.request, chosen[0][0]),
                    under=records_key(turn.request, chosen[0][0])) if chosen else None
    if code is not None:
        turn.counts["named values"] = ASKS  # narrowed once: no ask after it
        block.message["content"] = code
        said = ", ".join(f'{c} "{v}"' for _, c, v in chosen)
        return Verdict(warning=f"Changed before it ran: {REPAIRED.format(picks=said)}.")
    turn.counts["named values"] += 1
    shown = values[:3]
    names = ", ".join(f'"{v}"' for _, _, v in shown)
    where = "; ".join(f"the {c} column of {f}" for f, c in dict.fromkeys((f, c) for f, c, _ in shown))
    those = "those values" if len(shown) > 1 else "that value"
    return Verdict(note=SHOWN.format(values=names, where=where),
                   ask=Ask(NOTE.format(values=names, where=where, those=those),
                           code_retry(turn.engine, 16 + turn.counts["named values"]), hide=True))


rule = Rule(
    name="named values", setting="check_answers", check=check,
    summary="code that reads a named CSV file for a request that names values of its text columns (\"how many hours "
            "did Priya work? it's all in timesheet.csv\") and uses none of them (it added up every row) has its rows "
            "narrowed to the one value named per column right after the plain statement or loop that loads them (or in the comprehension that reads them; "
            "a request that names no data file reads the file the request before it named, or else the one the code reads), unless the request takes a share, compares or leaves a value out; otherwise it is not run and the "
            "request is asked afresh (twice at most), sampled, naming the values and their columns")
