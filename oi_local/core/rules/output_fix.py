"""Output fix: "rect.py should print the area of a 3 by 4 rectangle, which is 12, but it prints 7. Fix it."
The 0.5B model wrote the script back with `width + height` twice and ran it (ho2); asked to make grade.py
print "75 pass", "42 fail" and "60 pass", it printed the grades from its own copy of the function, still
backwards (ho4). Such a bug is most often one operator or one number. When the request names a Python
script that is there and says what it should print (quoted text, or one number: "which is 12"), and
two of the model's runs end cleanly without printing it (the first is told what it printed, core/fixes.py;
a crash is the error notes': the whole suite's fix-key-error lost its pass to a search that could not
mend a key's case), the model is given code that looks for the one change that makes it so: each comparison, arithmetic or
and/or operator swapped for its likely others and each whole number moved by one, tried in turn (a
copy of the script run in the sandbox, 5 s each, at most 300), the first that prints what was asked
written into the script and run. It says plainly when no one change does it."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: fix {script} so that it prints {want}."
HOW = "This block looks for the one change that does it, writes it into {script} and runs it; reply with it."
TRIES = 2  # clean runs of the model's that printed something else, before the search is offered
_SHOULD = re.compile(r"\b(?:should|supposed\s+to|meant\s+to|expected\s+to|needs?\s+to|has\s+to|must|want\s+it\s+to)\s+"
                     r"(?:print|output|say|show|display|give|return)\b([^.!?\n]*(?:\.\d[^.!?\n]*)*)", re.I)
_QUOTED = re.compile(r"\"([^\"\n]+)\"|“([^”\n]+)”|'([^'\n]{2,})'")
_BUT = re.compile(r"\b(?:but|instead|yet|however|whereas)\b", re.I)
_IS = re.compile(r"\b(?:which\s+is|that\s+is|i\.e\.|namely|equals?|so)\s*:?\s*(-?\d+(?:\.\d+)?)|=\s*(-?\d+(?:\.\d+)?)", re.I)
_SCRIPT = re.compile(r"(?<![\w/.-])([\w./-]*\w\.py)\b")


def expected(request: str) -> list[str]:
    """What the request says the script should print: its quoted texts, else the one number it gives."""
    m = _SHOULD.search(request)
    if m is None:
        return []
    clause = _BUT.split(m.group(1), 1)[0]
    quoted = [next(g for g in q.groups() if g) for q in _QUOTED.finditer(clause)]
    if quoted:
        return quoted
    named = [a or b for a, b in _IS.findall(clause)]
    if len(named) == 1:
        return named
    bare = re.match(r"\s*(-?\d+(?:\.\d+)?)\s*(?:[,;]|$)", clause)  # "should print 12, but ..."
    return [bare.group(1)] if bare else []  # not "the 3 most common words" nor "8.5% sales tax"


def asked(request: str, cwd: Path) -> tuple[str, list[str]] | None:
    """(the script, what it should print) when the request asks to fix a script there that prints wrong."""
    words = instruction(request)
    scripts = list(dict.fromkeys(s for s in _SCRIPT.findall(words) if (cwd / s).is_file()))
    want = expected(words)
    if len(scripts) != 1 or not want:
        return None
    return os.path.normpath(scripts[0]), want


SEARCH = '''import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

script = Path({script!r})
want = {want!r}
source = script.read_text(encoding="utf-8")
SWAPS = {{"<": [">=", "<=", ">"], ">": ["<=", ">=", "<"], "<=": [">", "<"], ">=": ["<", ">"], "==": ["!="],
         "!=": ["=="], "+": ["*", "-"], "-": ["+"], "*": ["+", "/", "**"], "/": ["*", "//"], "//": ["/"],
         "and": ["or"], "or": ["and"], "min": ["max"], "max": ["min"], "True": ["False"], "False": ["True"]}}


def prints(text):
    try:
        run = subprocess.run([sys.executable, "-c", text], capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        return ""
    return run.stdout


def right(out):
    at = 0
    for w in want:
        pattern = r"(?<![\\d.])" + re.escape(w) + r"(?:\\.0+)?(?![\\d])" if re.fullmatch(r"-?\\d+(\\.\\d+)?", w) else re.escape(w)
        m = re.compile(pattern).search(out, at)
        if m is None:
            return False
        at = m.end()
    return True


lines = source.splitlines(keepends=True)
tries = []
for tok in tokenize.generate_tokens(io.StringIO(source).readline):
    (row, col), (_, end) = tok.start, tok.end
    others = SWAPS.get(tok.string, []) if tok.type in (tokenize.OP, tokenize.NAME) else []
    if tok.type == tokenize.NUMBER and tok.string.isdigit():
        others = [str(int(tok.string) + 1), str(max(int(tok.string) - 1, 0))]
    for other in others:
        line = lines[row - 1]
        tries.append((row, tok.string, other, "".join(lines[:row - 1]) + line[:col] + other + line[end:] + "".join(lines[row:])))
tries.sort(key=lambda t: t[1].isdigit())  # operators first: the likelier slip
before = prints(source)
print("now it prints:", before.strip()[:300] or "(nothing)")
if right(before):
    print(script, "already prints", want)
else:
    for row, old, new, text in tries[:300]:
        if right(prints(text)):
            script.write_text(text, encoding="utf-8")
            print(f"fixed line {{row}} of {{script}}: {{old}} -> {{new}}")
            print(lines[row - 1].strip(), "->", text.splitlines()[row - 1].strip())
            print("now it prints:", prints(text).strip()[:300])
            break
    else:
        print(f"no one change to {{script}} makes it print {{want}}; it is not fixed")'''


def ready_code(script: str, want: list[str]) -> str:
    return SEARCH.format(script=script, want=want)


def _prints(output: str, want: list[str]) -> bool:
    """`output` has each wanted text in order (a number as a whole number, "12" also as "12.0")."""
    at = 0
    for w in want:
        number = re.fullmatch(r"-?\d+(\.\d+)?", w)
        m = re.compile(rf"(?<![\d.]){re.escape(w)}(?:\.0+)?(?!\d)" if number else re.escape(w)).search(output, at)
        if m is None:
            return False
        at = m.end()
    return True


def after_run(turn: Turn) -> Ask | None:
    if turn.counts["output fix"] or not turn.runs or turn.runs[-1].failed or turn.runs[-1].interrupted \
            or not turn.steps_left:
        return None  # a crash is the error notes' to mend (fix-key-error: the key's case, not an operator)
    found = asked(turn.request, Path.cwd())
    if found is None or _prints(turn.runs[-1].output, found[1]):
        return None
    script, want = found
    if sum(not r.failed and not r.interrupted and not _prints(r.output, want) for r in turn.runs) < TRIES:
        return None  # the model's own next try, told what it printed (core/fixes.py), comes first
    turn.counts["output fix"] += 1
    said = ", ".join(repr(w) for w in want)
    return own_code(turn.engine, NOTE.format(script=script, want=said), ready_code(script, want), HOW.format(script=script))


rule = Rule(
    name="output fix", setting="repair_slips", after_run=after_run,
    summary="asked to fix a Python script that is there and told what it should print (quoted text, or one number: "
            "\"which is 12\") that two of the model's clean runs do not print, the model is given code that tries each one-change "
            "fix in turn (a comparison, arithmetic or and/or operator swapped, min/max, True/False, a whole number moved by one; each run in the sandbox), "
            "writes the first that prints what was asked into the script and runs it, and says so when none does")
