"""Copied examples: code that uses a quoted word from a worked example (a recipe) that nothing in the
conversation or the named files has is the example copied, not code for this request. Asked to
convert frost_log.csv (columns date, low_f, notes) to Celsius, the 0.5B model kept the recipe's
`if r["department"] == "Sales"` in seven runs in a row, each a KeyError, the note listing the real
columns notwithstanding. Only words that pick data count (a key, a value compared, a file name or
pattern, a number of three digits or more); printed words and program names are the code's own.
Such code is not run; the request is asked afresh, twice a turn at most (sampled, the attempt hidden,
the picked recipes left out for the rest of the turn: with them still in view the retry copied the
same lines), with the request's files named; the copied words are shown to the person only."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

# The copied words are not said to the model: named in the ask ("the first try used "books.json" from an
# example"), the 0.5B model wrote open("books.json") again, twice in two runs. The request's own files are.
NOTE = "(Write one ```python block that does what I asked{files}. Use only names and values from my request and my files.)"
MAX_ASKS = 2  # a turn: the second fresh try copied another example's name as often as not
SHOWN = "Not run: the code uses {words} from a worked example, which nothing here has; asked afresh."
MAX_READ = 200_000  # bytes of each named file searched for the word
_QUOTED = re.compile(r"""(["'])([^"'\n]{3,40})\1""")
_FENCED = re.compile(r"```(?:python|py)?\n(.*?)```", re.S)
_WORDLIKE = re.compile(r"[*.]{0,2}[A-Za-z][\w .*-]*[A-Za-z0-9]")  # words, file names (no_email.txt), patterns (*.png)
_DATA_CALLS = {"glob", "rglob", "fnmatch", "endswith", "startswith", "get", "open", "Path", "read_csv", "read_json",
               "read_excel", "read_text", "exists", "is_file", "isfile", "join", "copy", "copy2", "copyfile", "move",
               "rename", "remove", "unlink", "mkdir", "makedirs", "to_csv", "to_json", "savefig", "groupby", "sort_values"}


# How a file is read, not what is picked from it: asked which log had the most ERROR lines about a
# timeout, the recipe's `open(p, errors="ignore")` was refused as a copied word and the retry lost the
# ERROR condition (ho38).
_OPTIONS = frozenset({"errors", "encoding", "newline", "mode", "orient", "how", "engine"})


def _literals(code: str) -> set[str]:
    """The code's quoted words where they pick data: a key (`r["department"]`), a value compared
    (`== "Sales"`), a name or pattern given to a file or data call (`glob("*.png")`). Printed words
    and program names ("python3") are the code's own."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    picked: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            picked.append(node.slice)
        elif isinstance(node, ast.Compare):
            picked += [node.left, *node.comparators]
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in _DATA_CALLS:
                picked += [*node.args, *(k.value for k in node.keywords if k.arg not in _OPTIONS)]
    found = set()
    for expr in picked:
        for n in ast.walk(expr):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and 3 <= len(n.value) <= 40 \
                    and _WORDLIKE.fullmatch(n.value):
                found.add(n.value)
    return found


_COMMON = {"10", "12", "24", "60", "100", "365", "1000", "1024", "3600"}  # units and percent, never copied


def _numbers(code: str, loose: bool = False) -> set[str]:
    """The code's numbers of three significant digits or more (`1234 * 5678`), as written; `loose`:
    of two digits or more, but for units (`500` of `500 * 1024`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    found = {repr(n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) in (int, float)}
    if loose:
        return {n for n in found if len(re.sub(r"\D", "", n)) >= 2 and n not in _COMMON}
    return {n for n in found if len(re.sub(r"\D", "", n).strip("0")) >= 3}


def _known(word: str, known: str, known_words: set[str]) -> bool:
    """The word is in the known text, or every word in it is ("*.png" for "move the png files")."""
    parts = [w for w in re.findall(r"[^\W_]+", word.lower()) if len(w) >= 2]
    # As a whole word: the recipe's r["age"] is not known from "on average" (the model kept it for a
    # file with no age column, three runs in a row).
    whole = re.search(rf"(?<![^\W_]){re.escape(word.lower())}(?![^\W_])", known)
    # A plural the request says is the word known too: "add up the amounts" knows r["amount"] (asked
    # about a file that was not there, the recipe's right column was refused and the retry split lines).
    return bool(whole) or bool(parts) and all(w in known_words or w + "s" in known_words or w + "es" in known_words
                                              for w in parts)


def _example_words(engine: Any) -> set[str]:
    """The quoted words of the worked examples' code (all of it: printed words too)."""
    shown = engine.shown_examples()
    found: set[str] = set()
    asked = ""
    for e in shown:
        if e.get("role") != "assistant":
            asked = str(e.get("content", ""))
            continue
        for code in _FENCED.findall(str(e.get("content", ""))):
            try:
                found |= {n.value for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Constant)
                          and isinstance(n.value, str)}
            except SyntaxError:
                found |= {m.group(2) for m in _QUOTED.finditer(code)}
            # Only the numbers the example's request gave (its 1234 and 5678, its "larger than 500 KB"),
            # not the constants its code knows (`1024` for KB is right for any request). Asked how many
            # .log files the inbox folder had, the 0.5B model kept the size example's `500 * 1024` limit
            # and answered 0 (ho33-count-logs).
            found |= {n for n in _numbers(code, loose=True) if re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", asked)}
    return found


def known_text(turn: Turn) -> str:
    """Everything the words may rightly come from: the requests, the outputs, the named files."""
    from oi_local.core.hints import mentioned_paths

    # Not the notes of code not run: they quote its words ("uses "1234", "5678" from a worked example"),
    # and the retry's same `print(1234 * 5678)` then ran and was answered (7006652 runners under 25 minutes).
    parts = [str(m.get("content", "")) for m in turn.engine.messages
             if m.get("role") in ("user", "computer") and isinstance(m.get("content"), str)
             and not (m.get("role") == "computer" and str(m.get("content")).startswith("Not run:"))]
    for m in turn.engine.messages:
        if m.get("role") != "user" or not isinstance(m.get("content"), str):
            continue
        for p in mentioned_paths(m["content"], Path.cwd()):
            try:
                if p.is_file():
                    with open(p, "rb") as f:
                        parts.append(f.read(MAX_READ).decode("utf-8", "replace"))
                elif p.is_dir():
                    parts.append(_folder_text(p))
            except OSError:
                continue
    return "\n".join(parts).lower()


MAX_ENTRIES = 500  # files and folders of a named folder looked at, at any depth
MAX_FOLDER_READ = 1_000_000  # bytes of its files read, in all


def _folder_text(folder: Path) -> str:
    """The names under a folder, at any depth, and its text files' contents, within bounds: asked to
    count the PDFs "in all the subfolders" of invoices/, the code's ".pdf" was taken for made up
    (the top level held only folders) and right code was not run; so was "TODO:" for the comments
    in the Python files under app/."""
    names: list[str] = []
    texts: list[str] = []
    budget = MAX_FOLDER_READ
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        names += dirs
        for name in sorted(files)[:max(0, MAX_ENTRIES - len(names))]:
            names.append(name)
            if budget <= 0:
                continue
            try:
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read(min(MAX_READ, budget))
            except OSError:
                continue
            budget -= len(data)
            if b"\0" not in data:
                texts.append(data.decode("utf-8", "replace"))
        if len(names) >= MAX_ENTRIES:
            break
    return " ".join(names) + "\n" + "\n".join(texts)


def copied(turn: Turn, block: Block) -> list[str]:
    """The example's quoted words the code uses that nothing here has, in the order written."""
    if block.lang != "python":
        return []
    # The example's numbers too: asked how many books were finished, the 0.5B model printed the
    # arithmetic example's `1234 * 5678` and answered 7006652.
    used = (_literals(block.code) | _numbers(block.code, loose=True)) & _example_words(turn.engine)
    if not used:
        return []
    known = known_text(turn)
    known_words = set(re.findall(r"[^\W_]+", known))
    return sorted(w for w in used if not _known(w, known, known_words))


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.hints import mentioned_paths

    if turn.counts["copied examples"] >= MAX_ASKS or not turn.steps_left:
        return None
    words = copied(turn, block)
    if not words:
        return None
    turn.counts["copied examples"] += 1
    named = ", ".join(f'"{w}"' for w in words[:4])
    cwd = Path.cwd().resolve()
    paths = [os.path.relpath(p, cwd) for p in mentioned_paths(turn.request, cwd) if p != cwd][:3]
    files = f" with {', '.join(paths)}" if paths else ""
    return Verdict(note=SHOWN.format(words=named),
                   ask=Ask(NOTE.format(files=files), code_retry(turn.engine, 7 + turn.counts["copied examples"]),
                           hide=True, drop_recipes=True))


rule = Rule(
    name="copied examples", setting="recipes", off=0, check=check,
    summary="code whose keys, compared values, file patterns or numbers (those its request gave, two digits or more) come from a worked example and appear nowhere in "
            "the conversation or the files it names (`r[\"department\"] == \"Sales\"` for a file with no such column) "
            "is not run; the request is asked afresh (twice a turn at most), sampled, without the picked examples, with the request's files named (not the copied words)")
