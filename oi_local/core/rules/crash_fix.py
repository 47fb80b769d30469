"""Crash fix: "sensors.py should print the average temperature for each room, but it crashes when I run
it. Could you fix it and run it?" The script read data["sensor"] where the file has "sensors", and an
empty room divided by zero. Given the error note (the keys there are 'unit', 'sensors'), the 0.5B model
ran the same line three times, then wrote a copy of the script that rewrote itself (ho41). Most such
crashes are one name off (a key, a file, an attribute, a variable), a missing import, a text value used
as a number, or a division by an empty count. When the request asks to fix one Python script that is
there and the model's tries are used up (or it stops after two failed or refused), it is given code that repairs it by running it: it
reads the error, tries the changes that error suggests (the close names that exist, float() around the
values on the failing line, skipping an empty count, an import), keeps the one that gets furthest (runs
cleanly, or prints more before a later error), and repeats, at most four changes, each candidate run in
the sandbox on a copy of the script's folder (a script that appends or moves does it to the copy). It starts from the script as the turn found it (the model may have overwritten it), writes
the first version that runs cleanly, runs it, and says plainly when none does."""
from __future__ import annotations

import os
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Run, Turn, careful, own_code

NOTE = "(Write one ```python block that does what I asked: fix {script} so that it runs without the error, and run it."
HOW = "This block finds the changes that stop the crash, runs each one first, writes the fix into {script} and runs it; reply with it."
TRIES = 2  # failed or refused tries before the repair is offered to a model that stopped trying
FAILED_OUT = 3  # failed runs before it is offered to one still trying, when max_failed_runs sets no limit
MAX_BYTES = 20_000  # a longer script is not small-slip territory, and is not copied into the code

SEARCH = r'''import ast, builtins, difflib, io, json, os, re, shutil, subprocess, sys, tempfile, tokenize
from pathlib import Path

script = Path(__SCRIPT__)
original = __ORIGINAL__
want = __WANT__  # what the request says it should print: a clean run that prints something else is not a fix
scratch = tempfile.TemporaryDirectory()
base = script.resolve().parent
# Each try runs in a copy of the script's folder, its files put back before each: a script that appends, moves
# or deletes does it to the copy (tried twenty times over the real files, an append would be made twenty times).
# Too big to copy: not tried.
kept = [p for p in base.rglob("*") if not any(part in (".git", "__pycache__", "node_modules", ".venv") for part in p.parts)]
small = len(kept) <= 2000 and sum(p.stat().st_size for p in kept if p.is_file()) <= 50_000_000


def run(text, real=False):
    box = base if real else Path(scratch.name) / "copy"
    if not real:  # the folder's files as they are, over what an earlier try left
        shutil.copytree(base, box, ignore=shutil.ignore_patterns(".git", "__pycache__", "node_modules", ".venv"), symlinks=True,
                        dirs_exist_ok=True)
    probe = box / script.name
    probe.write_text(text if real else PROBES.get(text, text), encoding="utf-8")
    try:
        r = subprocess.run([sys.executable, script.name], cwd=str(box), capture_output=True, text=True,
                           timeout=10, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", "timed out"
    err = r.stderr
    if not real and text in PROBES:  # a skip that skipped every item fixed nothing ("Total: 0.00", ho40, ho42)
        kept, skipped = err.count("\x00kept"), err.count("\x00skipped")
        err = "".join(ln for ln in err.splitlines(keepends=True) if not ln.startswith("\x00"))
        if skipped and not kept:
            return None, "", "every item was skipped"
    return r.returncode, r.stdout, err


PROBES = {}  # a skipping try's text: the same text telling (on stderr) each item kept or skipped


def right(out):
    at = 0
    for w in want:
        number = re.fullmatch(r"-?\d+(\.\d+)?", w)
        m = re.compile(r"(?<![\d.])" + re.escape(w) + r"(?:\.0+)?(?!\d)" if number else re.escape(w)).search(out, at)
        if m is None:
            return False
        at = m.end()
    return True


def frames(err):
    """The script's lines in the traceback, the failing one last."""
    return [int(n) for n in re.findall(r'File "(?:[^"]*/)?' + re.escape(script.name) + r'", line (\d+)', err)]


def where(err):
    """(line in the script, the error's last line)."""
    rows = frames(err)
    last = [ln for ln in err.strip().splitlines() if ln.strip()]
    return (rows[-1] if rows else 0), (last[-1].strip() if last else "")


def score(outcome, text):
    """How far a try got: cleanly; else the lines it printed, then how near the end it failed (counted from
    the end: a try that adds lines above the failing one has not got further)."""
    code, out, err = outcome
    if code == 0:  # the first clean one: candidates come likeliest first; "Average: 0" for "Average: 5.0" is not one
        return (2, 0, 0) if right(out) else (0, 0, 0)
    if code is None:
        return (0, 0, 0)
    return (1, len(out.splitlines()), where(err)[0] - len(text.splitlines()))


def names_there():
    """Keys of the JSON files and headers of the CSV files near the script, and the files themselves."""
    keys, files = set(), []
    base = script.parent
    for p in sorted(base.rglob("*"))[:500]:
        if not p.is_file():
            continue
        files.append(str(p.relative_to(base)))
        try:
            if p.suffix.lower() == ".json" and p.stat().st_size < 2_000_000:
                todo = [json.loads(p.read_text(encoding="utf-8"))]
                while todo and len(keys) < 5000:
                    v = todo.pop()
                    if isinstance(v, dict):
                        keys.update(k for k in v if isinstance(k, str))
                        todo.extend(v.values())
                    elif isinstance(v, list):
                        todo.extend(v[:50])
            elif p.suffix.lower() in (".csv", ".tsv"):
                with open(p, newline="", encoding="utf-8", errors="replace") as f:
                    first = f.readline()
                keys.update(c.strip() for c in re.split(r"[,;\t]", first) if c.strip())
        except (OSError, ValueError, RecursionError):
            continue
    return keys, files


def close(word, pool):
    same = [p for p in pool if p != word and p.lower().strip() == word.lower().strip()]
    return list(dict.fromkeys(same + difflib.get_close_matches(word, [p for p in pool if p != word], n=4, cutoff=0.6)))


def swap_literal(text, row, old, new):
    """`old` as a quoted string on line `row` (else everywhere) made `new`."""
    lines = text.splitlines(keepends=True)
    pat = re.compile(r"""(['"])""" + re.escape(old) + r"\1")
    rep = lambda m: m.group(1) + new.replace("\\", "\\\\") + m.group(1)
    if 0 < row <= len(lines) and pat.search(lines[row - 1]):
        lines[row - 1] = pat.sub(rep, lines[row - 1])
        return "".join(lines)
    return pat.sub(rep, text) if pat.search(text) else None


def swap_name(text, row, old, new, dotted=False):
    out, done = [], False
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = text.splitlines(keepends=True)
    for i, t in enumerate(toks):
        if t.type == tokenize.NAME and t.string == old and (row == 0 or t.start[0] == row) \
                and (not dotted or (i and toks[i - 1].string == ".")):
            out.append(t)
    if not out:
        return None
    for t in reversed(out):
        r, c = t.start
        line = lines[r - 1]
        lines[r - 1] = line[:c] + new + line[t.end[1]:]
        done = True
    return "".join(lines) if done else None


def on_line(text, row):
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None, []
    return tree, [n for n in ast.walk(tree) if getattr(n, "lineno", None) == row and getattr(n, "end_lineno", None) == row]


def put(text, row, node, new):
    """`text` with `node` (on line `row`) written as `new`."""
    lines = text.splitlines(keepends=True)
    line = lines[row - 1].encode()
    lines[row - 1] = line[:node.col_offset].decode() + new + line[node.end_col_offset:].decode()
    return "".join(lines)


def wrap(text, row, node, fn):
    return put(text, row, node, fn + "(" + ast.get_source_segment(text, node) + ")")


def operands(nodes, text_side=""):
    """The values an operator or sum() on the failing line works on (not one already made a number or text),
    the side the error names as text first."""
    found = []
    for n in nodes:
        if isinstance(n, ast.BinOp):
            found += [n.right, n.left] if text_side == "right" else [n.left, n.right]
        elif isinstance(n, ast.Compare):
            found += [n.left, *n.comparators]
        elif isinstance(n, ast.AugAssign):
            found += [n.value]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("sum", "max", "min", "round"):
            found += n.args[:1]
    made = lambda o: isinstance(o, ast.Call) and isinstance(o.func, ast.Name) and o.func.id in ("float", "int", "str")
    return [o for o in found if isinstance(o, (ast.Subscript, ast.Name, ast.Call, ast.Attribute)) and not made(o)]


def candidates(text, err):
    row, last = where(err)
    kind, _, msg = last.partition(":")
    kind, msg = kind.strip().split(".")[-1], msg.strip()
    keys, files = names_there()
    found, zero = [], []
    if kind == "KeyError":
        try:
            key = ast.literal_eval(msg)
        except (ValueError, SyntaxError):
            key = None
        if isinstance(key, str):
            pool = keys | {s for s in re.findall(r"""['"]([^'"\n]{1,60})['"]""", text)}
            found += [(f"{key!r} -> {k!r}", swap_literal(text, row, key, k)) for k in close(key, pool)]
        _, nodes = on_line(text, row)
        lines = text.splitlines(keepends=True)
        for n in nodes:  # totals[name] += x on a name not seen yet: totals[name] = totals.get(name, 0) + x
            if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and isinstance(n.target, ast.Subscript):
                d, k, v = (ast.get_source_segment(text, x) for x in (n.target.value, n.target.slice, n.value))
                indent = re.match(r"\s*", lines[row - 1]).group(0)
                if d and k and v:
                    found.append((f"{d}[{k}] starts at 0", "".join(lines[:row - 1]) + f"{indent}{d}[{k}] = {d}.get({k}, 0) + {v}\n" + "".join(lines[row:])))
    elif kind == "NameError":
        m = re.search(r"name '(\w+)' is not defined", msg)
        if m:
            name = m.group(1)
            if name in sys.stdlib_module_names:
                found.append((f"import {name}", f"import {name}\n" + text))
            pool = set(re.findall(r"\b[A-Za-z_]\w*\b", text)) | set(dir(builtins))
            found += [(f"{name} -> {k}", swap_name(text, row, name, k)) for k in close(name, pool)]
    elif kind == "AttributeError":
        m = re.search(r"'(\w+)' object has no attribute '(\w+)'|module '([\w.]+)' has no attribute '(\w+)'", msg)
        if m:
            owner = getattr(builtins, m.group(1), None) if m.group(1) else None
            if m.group(3):
                try:
                    owner = __import__(m.group(3), fromlist=["_"])
                except ImportError:
                    owner = None
            attr = m.group(2) or m.group(4)
            if owner is not None:
                # another type's word for it (a list's add is append), then the names that look alike
                said = {"add": ["append"], "push": ["append"], "insert": ["append"]} if owner is list else \
                    {"append": ["add"], "push": ["add"]} if owner is set else {}
                near = said.get(attr, []) + close(attr, [a for a in dir(owner) if not a.startswith("_")])
                found += [(f".{attr} -> .{k}", swap_name(text, row, attr, k, dotted=True)) for k in dict.fromkeys(near)]
    elif kind in ("FileNotFoundError", "IsADirectoryError"):
        m = re.search(r"No such file or directory: '([^']+)'", msg)
        if m:
            gone = m.group(1)
            by_name = {os.path.basename(f): f for f in files}
            near = close(os.path.basename(gone), list(by_name))
            found += [(f"{gone!r} -> {by_name[k]!r}", swap_literal(text, row, gone, by_name[k])) for k in near]
    elif kind == "ZeroDivisionError":
        tree, nodes = on_line(text, row)
        divs = [n for n in nodes if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.FloorDiv, ast.Mod))]
        lines = text.splitlines(keepends=True)
        loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno < row <= (n.end_lineno or 0)] if tree else []
        for d in divs[:2]:
            den = ast.get_source_segment(text, d.right)
            if den and loops:
                indent = re.match(r"\s*", lines[row - 1]).group(0)
                found.append((f"skip when {den} is 0", "".join(lines[:row - 1]) + f"{indent}if not ({den}):\n{indent}    continue\n" + "".join(lines[row - 1:])))
        for d in divs[:2]:  # after the skips: an empty count is more often "none yet" than a zero
            den, whole = ast.get_source_segment(text, d.right), ast.get_source_segment(text, d)
            if den and whole and "\n" not in whole:
                zero.append((f"{whole} -> 0 when {den} is 0", "".join(lines[:row - 1]) + lines[row - 1].replace(whole, f"({whole} if {den} else 0)", 1) + "".join(lines[row:])))
    if kind == "IndexError":  # an index one past the end: one less, or the last
        _, nodes = on_line(text, row)
        for n in nodes:
            if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and type(n.slice.value) is int and n.slice.value > 0:
                for k in (n.slice.value - 1, -1):
                    found.append((f"[{n.slice.value}] -> [{k}]", put(text, row, n.slice, str(k))))
    if kind == "ValueError" and "invalid literal for int()" in msg:
        lines = text.splitlines(keepends=True)
        if "int(" in lines[row - 1]:
            found.append(("int( -> float(", "".join(lines[:row - 1]) + re.sub(r"\bint\(", "float(", lines[row - 1]) + "".join(lines[row:])))
    bad = re.search(r"(?:invalid literal for \w+\(\) with base 10|could not convert string to float): '([^'\n]*)'", msg)
    if kind == "ValueError" and bad and bad.group(1) in keys and re.search(r"\bcsv\.reader\(", text):
        # a CSV's header read as a number (ho42: int('amount')): the rows after it, with the change its values then need
        header = re.sub(r"\bcsv\.reader\(([^()\n]*)\)", r"list(csv.reader(\1))[1:]", text, count=1)
        lines = header.splitlines(keepends=True)
        found.append(("the header row skipped", header))
        if row and "int(" in lines[row - 1]:
            found.append(("the header row skipped; int( -> float(",
                          "".join(lines[:row - 1]) + re.sub(r"\bint\(", "float(", lines[row - 1]) + "".join(lines[row:])))
    if kind in ("TypeError", "ValueError"):
        _, nodes = on_line(text, row)
        # a number is likelier meant than text, unless the error says text is being joined
        fns = ("str", "float", "int") if "concatenate str" in msg else ("float", "int", "str")
        sides = re.search(r"for \S+: '(\w+)' and '(\w+)'", msg)  # "for /: 'int' and 'str'": the text side first
        ops = operands(nodes, "left" if sides and sides.group(1) == "str" else "right" if sides and sides.group(2) == "str" else "")
        for fn in fns:
            # sum(amounts) over text: each value made a number, not the list (float(amounts) is another TypeError)
            for n in nodes:
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("sum", "max", "min") \
                        and n.args and n.args[0] in ops and fn != "str":
                    arg = ast.get_source_segment(text, n.args[0])
                    found.append((f"map({fn}, {arg})", put(text, row, n.args[0], f"map({fn}, {arg})")))
            for o in ops[:6]:
                found.append((f"{fn}() around {ast.unparse(o)}", wrap(text, row, o, fn)))
    if not found and row:  # no clue in the message: one operator or number on the failing line
        lines = text.splitlines(keepends=True)
        for old, new in (("<=", "<"), ("<", "<="), (">=", ">"), (">", ">="), ("+ 1", ""), ("- 1", "")):
            if old in lines[row - 1]:
                found.append((f"{old} -> {new or 'nothing'}", "".join(lines[:row - 1]) + lines[row - 1].replace(old, new, 1) + "".join(lines[row:])))
    late = skips(text, err, kind) if kind in ("ZeroDivisionError", "ValueError", "KeyError", "IndexError", "TypeError") else []
    return [(what, t) for what, t in found + late + zero if t and t != text]


def skips(text, err, kind):
    """A one-line statement in a loop, at any of the traceback's lines in the script, made to skip the item
    it fails on ("a student with no scores yet can be skipped"): try/except that error, continue."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.splitlines(keepends=True)
    found = []
    for row in reversed(frames(err)):
        stmts = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == row == n.end_lineno
                 and not isinstance(n, (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef))]
        loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno < row <= (n.end_lineno or 0)]
        inner = [f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.Lambda)) and f.lineno <= row <= (f.end_lineno or 0)]
        if not stmts or not loops or any(f.lineno > max(lp.lineno for lp in loops) for f in inner):
            continue
        indent = re.match(r"\s*", lines[row - 1]).group(0)
        body = lines[row - 1].strip()
        new = f"{indent}try:\n{indent}    {body}\n{indent}except {kind}:\n{indent}    continue\n"
        # the same lines, so the probe's errors name the same rows
        told = (f"{indent}try:\n{indent}    {body}; __import__('sys').stderr.write('\\x00kept\\n')\n{indent}except {kind}:\n"
                f"{indent}    __import__('sys').stderr.write('\\x00skipped\\n'); continue\n")
        text_new = "".join(lines[:row - 1]) + new + "".join(lines[row:])
        PROBES[text_new] = "".join(lines[:row - 1]) + told + "".join(lines[row:])
        found.append((f"line {row} skips the item it fails on ({kind})", text_new))
    return found


def repair(text):
    now = run(text)
    changes = []
    for _ in range(4):
        if now[0] == 0 or now[0] is None:
            break  # clean (right, or wrong with no error left to go by), or it hangs
        tried = [(what, t, run(t)) for what, t in candidates(text, now[2])[:24]]
        better = [c for c in tried if score(c[2], c[1]) > score(now, text)]
        # else a change that gets as far with another kind of error (the key mended, then `.uper()` on the
        # same line; not float() then int() then float() around one value, each a TypeError)
        kind_now = where(now[2])[1].split(":")[0]
        better = better or [c for c in tried if score(c[2], c[1]) == score(now, text) and where(c[2][2])[1].split(":")[0] != kind_now][:1]
        if not better:
            break
        what, text, now = max(better, key=lambda c: score(c[2], c[1]))
        changes.append(what)
    return text, now, changes


current = script.read_text(encoding="utf-8")
starts = [original] if original is not None else []
if current not in starts:
    starts.append(current)
results = [repair(s) for s in starts] if small else []
if not small:
    print(f"{script} is not fixed: its folder is too big to try changes on a copy of it")
fixed = [r for r in results if r[1][0] == 0 and right(r[1][1])]
if fixed:
    text, (code, out, err), changes = fixed[0]
    if text != current:
        script.write_text(text, encoding="utf-8")
    code, out, err = run(text, real=True)  # once, on the real files
    # what it prints now on the first line: a small model's answer is often that line alone (ho42: the total left out)
    shown = " | ".join(ln.strip() for ln in out.strip().splitlines()[-3:])[:200]
    done = (f"fixed {script}: " + "; ".join(changes) if changes else f"{script} put back as it was: that version runs"
            if text != current else f"{script} runs without an error as it is")
    print(f"{done}. It now prints: {shown}" if code == 0 and shown else done)
    print(f"$ python {script}")
    print(out.rstrip() or "(it printed nothing)")
    if code != 0:
        print(f"but run here it failed: {where(err)[1] or 'a time-out'}")
elif results:
    text, (code, out, err), changes = results[0]
    if code == 0:
        print(f"{script} is not fixed: it runs, but prints {out.strip()[-200:]!r}, not {want}")
    else:
        print(f"{script} is not fixed: it still fails with " + (where(err)[1] or "a time-out"))
    if changes:
        print("(tried: " + "; ".join(changes) + ")")'''


def start(turn: Turn) -> None:
    """The one Python script the request asks to fix, with its text as the turn found it."""
    turn.state["crash fix"] = None
    if careful(turn.request):
        return
    from oi_local.core.fixes import targets

    try:
        scripts = {p: t for p, t in targets(turn.request).items() if p.suffix == ".py" and len(t) <= MAX_BYTES}
    except OSError:
        return
    if len(scripts) == 1:
        turn.state["crash fix"] = next(iter(scripts.items()))


def ready_code(script: str, original: str | None, want: list[str] | None = None) -> str:
    return SEARCH.replace("__SCRIPT__", repr(script)).replace("__ORIGINAL__", repr(original)).replace("__WANT__", repr(want or []))


def after_run(turn: Turn) -> Ask | None:
    """The model's own tries used up (max_failed_runs, else three): the 0.5B model, told the error, fixed
    ho-fix-counter and ho2-fix-index on its third try, which an earlier search took from it."""
    if not turn.runs or not turn.runs[-1].failed:
        return None
    if not turn.failed_out and sum(r.failed for r in turn.runs) < FAILED_OUT:
        return None
    return offer(turn)


def follow_up(turn: Turn) -> Ask | None:
    """The model stops without code after its tries failed or were refused: a copy of the script that rewrote
    a data file, then the same again, and "not done" ended the turn (ho40)."""
    refused = sum(n.startswith("Not run") for n in turn.notes)
    script_run = _last_run_of_script(turn)
    if script_run is not None and not script_run.failed:
        return None  # the script's own last run was clean: the model's fix stands (ho25: a search wrote over it)
    if sum(r.failed for r in turn.runs) + refused < TRIES or (turn.runs and not turn.runs[-1].failed and not refused):
        # a clean last run is the model's own fix run inline: writing it into the script is asked first (fix_asks;
        # offered here, the search wrote over such a fix in session 44's end run)
        return None
    return offer(turn)


def _last_run_of_script(turn: Turn) -> Run | None:
    """The turn's last run whose code names the script to fix (None: none did)."""
    found = turn.state.get("crash fix")
    if not found:
        return None
    return next((r for r in reversed(turn.runs) if found[0].name in r.code), None)


def offer(turn: Turn) -> Ask | None:
    """The repair, once a turn, when the request asks to fix one Python script that is there."""
    found = turn.state.get("crash fix")
    if not found or turn.counts["crash fix"]:
        return None
    path, original = found
    turn.counts["crash fix"] += 1
    script = os.path.relpath(path, Path.cwd()) if path.is_absolute() else str(path)
    from oi_local.core.fixes import expected

    code = ready_code(script, original, expected(turn.request))
    return own_code(turn.engine, NOTE.format(script=script), code, HOW.format(script=script))


rule = Rule(
    name="crash fix", setting="repair_slips", start=start, after_run=after_run, follow_up=follow_up,
    summary="asked to fix one Python script that is there, when the model's tries are used up (or it stops after two failed or "
            "refused) it is given code that repairs it "
            "by running it: from the error it tries the close names that exist (a key, a file, an attribute, a variable), "
            "an import, float()/str() around the failing line's values, skipping an empty count; keeps the change that gets "
            "furthest, at most four, each run in the sandbox; writes the first version that runs cleanly and runs it, and "
            "says so when none does")
