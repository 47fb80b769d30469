"""Made-up results: code that only prints typed-in values (`print("Marlow Farm Shop")`, or a name given one first,
`print("The plumber's number is 800-555-1234")`) computes nothing, so for a request about the
person's files its output is a guess dressed as a result. The 0.5B model writes such code when asked
for code after answering from memory, and after a run failed on a file that is not there, where the
honest answer was that it is not there. Such code is not run; the request is asked afresh once
(sampled, the try hidden), naming the file the code must read. Values the conversation's outputs
already showed are not made up (the model printing back a result it saw). Nor is data typed into
the code from a file's preview: asked which games in games.json suit six players, the model wrote
`games = [{"name": "Catan", ...}]`, the preview's first record, and answered from that one game.
Where the file is JSON holding such records, the code is changed to load them from it (asked afresh,
the model typed the same record in again); otherwise it is asked afresh."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from oi_local.core.errors import run_line
from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import SHELLS, Block, Turn, block_prefix, code_retry

NOTE = ("(Write one ```python block that does what I asked: it must read {path} and compute the answer from "
        "what is in it. A first try only printed a typed-in answer. If {path} is not there, print that.)")
SHOWN = "Not run: the code only prints a typed-in answer; asked afresh to compute it from {path}."
LOADED = "Changed before it ran: {name} is loaded from {path} (the code had typed in {count} of its records)."
NOTE_RUN = ("(Run {path} and show what it printed: a first try only printed a typed-in answer. If {path} fails, "
            "say that it failed and why.)")
SHOWN_RUN = "Not run: the code only prints a typed-in answer; asked afresh to run {path}."
TYPED = "Not run: the code types in data from {path} instead of reading it; asked afresh to read the file."
# A file named in a request, there or not: "contacts/trades.csv", "notes.txt" (the honest answer may
# be that it is missing, which only reading it shows).
_FILE_WORD = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/-])")
_WORDS = re.compile(r"[^\W_]+")


def _unwrapped(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements, with a `with open(...) as f:` whose handle is never used replaced by its body: asked
    where a cabin's key is, the 0.5B model opened cabin_info.txt and printed the file's text typed in
    (ho45, read after session 46's end): a file opened and not read is not read."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.With) and all(
                isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Name)
                and i.context_expr.func.id == "open" and isinstance(i.optional_vars, (ast.Name, type(None)))
                for i in stmt.items):
            handles = {i.optional_vars.id for i in stmt.items if isinstance(i.optional_vars, ast.Name)}
            if not any(isinstance(n, ast.Name) and n.id in handles for b in stmt.body for n in ast.walk(b)):
                out += stmt.body
                continue
        out.append(stmt)
    return out


def typed_in(code: str) -> list[str] | None:
    """The values a Python block prints when all it does is print constants (strings, numbers,
    f-strings of constants), else None: no name is read, nothing is called but print."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    values: list[str] = []
    named: dict[str, str] = {}  # `customer = "Marlow Farm Shop"` then `print(customer)`: typed in all the same
    for stmt in _unwrapped(tree.body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, (str, int, float)) \
                and not isinstance(stmt.value.value, bool):
            named[stmt.targets[0].id] = str(stmt.value.value)
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"):
            return None
        for node in ast.walk(call):
            if node is call or node is call.func:
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in named:
                values.append(named[node.id])
                continue
            if isinstance(node, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)):
                return None
            if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) and not isinstance(node.value, bool):
                values.append(str(node.value))
    return values if values else None


def typed_in_shell(code: str) -> list[str] | None:
    """The text a shell block prints when all it does is `echo`/`printf` fixed words (no `$`, no
    backquotes, pipes or redirections), else None. Asked to run monthly_report.sh and say what it
    printed, the 0.5B model wrote `echo "Total spent in 2025-10: £123.45"`."""
    import shlex

    values: list[str] = []
    for line in code.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if any(c in line for c in "$`|><;&"):
            return None
        try:
            words = shlex.split(line)
        except ValueError:
            return None
        if not words or words[0] not in ("echo", "printf"):
            return None
        values += [w for w in words[1:] if not w.startswith("-")]
    return values if values else None


# Calls that read data from somewhere: code making any of them is not typing its data in.
_READERS = {"open", "read", "read_text", "read_bytes", "load", "loads", "glob", "rglob", "iterdir", "listdir",
            "scandir", "walk", "run", "Popen", "check_output", "input", "urlopen", "get", "connect", "getoutput"}
_SCRIPTS = {".py", ".sh", ".js", ".ipynb", ".r", ".R"}  # a script to fix may be rewritten with its own data


# Copied from a JSON preview, a record keeps JSON's words (`"lent_to": null`), which Python reads as names.
_JSON_WORDS = {"null", "true", "false"}


def typed_data(code: str) -> list[str]:
    """The string values of a literal collection of records the code binds to a name (`games = [{"name":
    "Catan", ...}]`) when it reads nothing (no file, folder, program or input); [] otherwise."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return _typed_strings(code)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if (name in _READERS or name.startswith("read_")) and not _writes_only(node, name):
                return []
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.Dict, ast.Tuple, ast.Set)):
            parts = list(ast.walk(node.value))
            if all(isinstance(n, (ast.List, ast.Dict, ast.Tuple, ast.Set, ast.Constant, ast.Load, ast.UnaryOp, ast.USub))
                   or (isinstance(n, ast.Name) and n.id in _JSON_WORDS) for n in parts):
                keys = {id(k) for n in parts if isinstance(n, ast.Dict) for k in n.keys}  # column names prove nothing
                found += [n.value for n in parts
                          if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in keys]
    return found


def _writes_only(call: ast.Call, name: str) -> bool:
    """`open(path, "w")` or `path.open("w")`: a file opened to write reads nothing. The 0.5B model typed the
    14 recipes of recipes.csv into its code and wrote vegetarian.csv from them (ho59, session 60's start)."""
    if name != "open":
        return False
    at = 0 if isinstance(call.func, ast.Attribute) else 1
    mode = call.args[at] if len(call.args) > at else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and bool(set(mode.value) & set("wax")) \
        and "+" not in mode.value


def _typed_strings(code: str) -> list[str]:
    """Of code that does not parse, the strings of a literal list it binds to a name (`orders = [{...}, ...]`), keys
    aside, when it calls no reader: the 0.5B model typed 18 rows of orders.csv in from its preview, one row lost a key,
    and the SyntaxError's retry printed `220,120.10` (ho52)."""
    import io
    import tokenize

    if not re.search(r"(?m)^\s*\w+\s*=\s*[\[{(]", code) or re.search(
            rf"\b(?:{'|'.join(sorted(_READERS))}|read_\w+)\s*\(", code):
        return []
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type not in (tokenize.NL, tokenize.COMMENT)]
    except (tokenize.TokenError, SyntaxError):
        return []
    found = []
    for before, t, after in zip(tokens, tokens[1:], tokens[2:]):
        key = after.string == ":" or (before.string == "[" and after.string == "]")  # a key, or `o["country"]`
        if t.type == tokenize.STRING and not key and not t.string.lower().startswith(("f", "rf", "fr", "b")):
            found.append(t.string[1:-1])
    return found


def copied_from_file(turn: Turn, code: str) -> str | None:
    """The data file the request names whose contents the code typed in instead of reading it."""
    from oi_local.core.hints import mentioned_paths

    strings = [s for s in typed_data(code) if len(s) >= 3]
    if not strings:
        return None
    for p in mentioned_paths(turn.request, Path.cwd()):
        if not p.is_file() or p.suffix in _SCRIPTS or p.name in code:
            continue
        try:
            text = p.read_text(encoding="utf-8", errors="replace")[:200_000]
        except OSError:
            continue
        if any(s in text for s in strings):
            return os.path.relpath(p, Path.cwd().resolve())
    return None


def _records_literal(node: ast.AST) -> set[str] | None:
    """The keys of a list of dicts with string keys and constant values, else None."""
    if not (isinstance(node, ast.List) and node.elts and all(isinstance(e, ast.Dict) for e in node.elts)):
        return None
    keys: set[str] = set()
    for e in node.elts:
        assert isinstance(e, ast.Dict)
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in e.keys):
            return None
        keys |= {str(k.value) for k in e.keys if isinstance(k, ast.Constant)}
    return keys


def _where_in_json(data: object, keys: set[str]) -> str | None:
    """"" when `data` is a list of records with `keys`, '["k"]' when its key k holds one, else None."""
    def records(value: object) -> bool:
        return isinstance(value, list) and bool(value) and isinstance(value[0], dict) and keys <= set(value[0])
    if records(data):
        return ""
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(k, str) and records(v):
                return f"[{k!r}]"
    return None


def loaded_instead(code: str, path: str) -> tuple[str, str, int] | None:
    """`code` with the records it typed in from the JSON file `path` loaded from it: (code, name,
    how many records were typed), or None when no such repair fits."""
    import json

    if not path.endswith(".json"):
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        tree = ast.parse(code)
    except (OSError, ValueError, SyntaxError):
        return None
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        keys = _records_literal(node.value)
        where = _where_in_json(data, keys) if keys else None
        value = node.value
        end = value.end_lineno
        if where is None or end is None or not isinstance(value, ast.List):
            continue
        lines = code.splitlines(keepends=True)
        load = f"json.load(open({path!r}, encoding='utf-8')){where}"
        first = lines[value.lineno - 1].encode()[:value.col_offset].decode()
        last = lines[end - 1].encode()[value.end_col_offset or 0:].decode()
        new = lines[:value.lineno - 1] + [first + load + last] + lines[end:]
        return "import json\n" + "".join(new), node.targets[0].id, len(value.elts)
    return None


def named_file(turn: Turn) -> str | None:
    """The first file (else folder) the conversation's requests name (newest request first)."""
    from oi_local.core.hints import mentioned_paths

    requests = [str(m.get("content", "")) for m in turn.engine.messages
                if m.get("role") == "user" and m.get("type") == "message" and isinstance(m.get("content"), str)]
    here = Path.cwd().resolve()
    for text in reversed(requests):
        paths = mentioned_paths(text, Path.cwd())
        found = [p for p in paths if p.is_file()]
        if found:
            return os.path.relpath(found[0], here)
        m = _FILE_WORD.search(text)
        if m:
            return m.group(1)
        # A named folder ("the python files of my weather_bot project"): the 0.5B model gave up on it
        # with `print(0)  # TODO: write the code` and answered "0 TODO comments are left".
        folders = [p for p in paths if p.is_dir() and p != here]
        if folders:
            return os.path.relpath(folders[0], here) + "/"
    return None


def _seen(values: list[str], turn: Turn) -> bool:
    """Every word of the printed values was in an output already (a result printed back)."""
    outputs = " ".join(str(m.get("content", "")) for m in turn.engine.messages
                       if m.get("role") == "computer" and isinstance(m.get("content"), str)).lower()
    words = [w for v in values for w in _WORDS.findall(v.lower())]
    return bool(words) and set(words) <= set(_WORDS.findall(outputs))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang not in ("python", *SHELLS) or turn.counts["made up"] >= 1 or not turn.steps_left:
        return None
    copied = copied_from_file(turn, block.code) if block.lang == "python" else None
    if copied:
        loaded = loaded_instead(block.code, copied)
        if loaded is not None:
            code, name, count = loaded
            block.message["content"] = code
            return Verdict(warning=LOADED.format(name=name, path=copied, count=count))
        turn.counts["made up"] += 1
        return Verdict(note=TYPED.format(path=copied),
                       ask=Ask(NOTE.format(path=copied).replace("only printed a typed-in answer", "typed the data in"),
                               code_retry(turn.engine, 13), hide=True))
    values = typed_in(block.code) if block.lang == "python" else typed_in_shell(block.code)
    if values is None or _seen(values, turn):
        return None
    path = named_file(turn)
    if path is None:
        return None
    turn.counts["made up"] += 1
    run = run_line(path, turn.request)
    if run:  # a script the request asks to run: the retry starts by running it
        return Verdict(note=SHOWN_RUN.format(path=path),
                       ask=Ask(NOTE_RUN.format(path=path), block_prefix(turn.engine, f"```shell\n{run}\n```"), hide=True))
    return Verdict(note=SHOWN.format(path=path),
                   ask=Ask(NOTE.format(path=path), code_retry(turn.engine, 13), hide=True))


rule = Rule(
    name="made-up results", setting="computed_answers", check=check,
    summary="code that only prints typed-in values (`print(\"Marlow Farm Shop\")`, `echo \"Total: £123.45\"`) for a "
            "request that names a file is not run (asked to run a named script, the retry starts by running it), unless an earlier output showed those values, nor is code that types in records copied from a "
            "named data file (`games = [{\"name\": \"Catan\", ...}]`) instead of reading it (from a JSON file of such records, the "
            "code is changed to load them from it, and the person told); the request is asked afresh once (sampled, "
            "the try hidden), told to read that file and compute the answer, or print that it is not there "
            "(small set: on)")
