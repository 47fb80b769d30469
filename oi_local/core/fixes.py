"""Requests to fix a script: is the fix saved?

Asked to fix sum_to.py, the 0.5B model often writes the corrected script, runs it in the session,
sees the right output and says so, while sum_to.py still has the old code (7 of the 12 fix tasks in
scripts/eval ended that way). The loop notes which scripts a fixing request names, and when the
model stops with one unchanged, or changed but still with a problem that shows without running it,
asks once more: with the code that worked ready to save, when there is such code.
"""
from __future__ import annotations

import ast
import difflib
import json
import os
import re
from pathlib import Path

from oi_local.core.hints import mentioned_paths
from oi_local.core.pycheck import compiles

_FIXING = re.compile(r"\b(fix\w*|repair\w*|debug\w*|crash\w*|broken)\b|\b(?:does\s*n[o']?t|do\s*n[o']?t|won'?t)\s+work\b", re.I)
SCRIPT_SUFFIXES = {".py"}  # the ones whose problems pycheck can see
MAX_BYTES = 100_000
SIMILAR = 0.5  # how alike (difflib ratio) code must be to the script to count as a version of it
SHORT_SCRIPT = 4000  # characters: text compared character by character only up to this (it is quadratic)

SAVE_NOTE = (
    "That code works, but {name} still has the old code, so it is not fixed yet. "
    "Save the working code into {name} and run it: reply with this ```python block.\n{block}"
)
UNCHANGED_NOTE = (
    "{name} still has the old code, so it is not fixed yet. Find the mistake in it, then reply with one "
    "```python block that writes the whole corrected script into {name} and runs it with subprocess."
)
PROBLEMS_NOTE = "{name} still has a problem:\n{problems}\nReply with one ```python block that corrects {name} and runs it."
WRONG_OUTPUT_NOTE = (
    "{name} still prints the wrong thing. It printed:\n{got}\nbut it should print {want}. {name} now contains:\n{text}\n"
    "Find the line that gives the wrong result, then reply with one ```python block that writes the whole "
    "corrected script into {name} and runs it with subprocess."
)
PROBLEMS_FIXED_NOTE = "{name} still has a problem:\n{problems}\nSave the corrected script into {name} and run it: reply with this ```python block.\n{block}"


# "should print "75 pass" and "42 fail"", "should print the area, which is 12, but it prints 7":
# what the person expects to see, from the clause that says what the script should do.
_SHOULD = re.compile(
    r"\b(?:should|supposed to|expected to|is meant to|meant to|must|want it to|so (?:that )?it)\s+"
    r"(?:[\w'.-]+\s+){0,8}?(?:print|output|show|say|display|give|return)(?:s|es)?\b(.*?)"
    r"(?=\bbut\b|\binstead\b|\brather\b|\bright now\b|[.;!?](?:\s|$)|$)",
    re.I | re.S)
_QUOTED = re.compile(r'(?<!\()"([^"\n]{1,80})"|\u201c([^\u201d\n]{1,80})\u201d|`([^`\n]{1,80})`')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NAMED_VALUE = re.compile(r"\b(?:which is|that is|that's|i\.e\.|equal to|namely)\s*(-?\d+(?:\.\d+)?)\b|=\s*(-?\d+(?:\.\d+)?)\b", re.I)
MAX_OUTPUT_SHOWN = 400


def expected(request: str) -> list[str]:
    """What the request says the fixed script should print: quoted text, or a number named as the
    result ("which is 12", "should print 42"); [] when it does not say."""
    found: list[str] = []
    for m in _SHOULD.finditer(request):
        clause = m.group(1)
        quoted = [next(g for g in q.groups() if g is not None).strip() for q in _QUOTED.finditer(clause)]
        if quoted:
            found += [q for q in quoted if q and not q.endswith(".py")]
            continue
        named = _NAMED_VALUE.search(clause)
        if named:
            found.append(named.group(1) or named.group(2))
            continue
        lead = re.match(r"\s*(?:the (?:number|value|result)\s+)?(-?\d+(?:\.\d+)?)\b", clause)
        if lead:
            found.append(lead.group(1))
    return list(dict.fromkeys(found))


def _missing(want: list[str], output: str) -> list[str]:
    flat = " ".join(output.split()).lower()
    missing = []
    for w in want:
        if _NUMBER.fullmatch(w):  # 121 and 121.0 are the same answer
            if not any(abs(float(n) - float(w)) < 1e-9 for n in _NUMBER.findall(output)):
                missing.append(w)
        elif " ".join(w.split()).lower() not in flat:
            missing.append(w)
    return missing


def _last_output(name: str, runs: list[tuple[str, str]], text: str = "") -> str | None:
    """What the script printed the last time code in this turn ran it, or ran a copy of its `text`
    in the session (we never run it ourselves: that is the person's decision)."""
    base = os.path.basename(name)
    for code, output in reversed(runs):
        if base in code and re.search(r"subprocess|\bpython3?\b|\brunpy\b|\bexec\(", code):
            return output
        if text and code.strip() == text.strip():
            return output
    return None


def targets(request: str, cwd: str | os.PathLike[str] | None = None) -> dict[Path, str]:
    """The scripts a fixing request names, with their text now ({} for other requests)."""
    if not _FIXING.search(request):
        return {}
    base = Path(cwd or os.getcwd())
    found = {}
    for p in mentioned_paths(request, base):
        if p.suffix in SCRIPT_SUFFIXES and p.is_file():
            try:
                if p.stat().st_size <= MAX_BYTES:
                    found[p] = p.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
    return found


def _similar(code: str, original: str) -> bool:
    """Half its lines, or for a short script half its text, are the script's: the 0.5B model's
    working rewrite of average.py (sum() and len() for the loop) kept 2 of its 6 lines but 73% of
    its text, and was never offered for saving."""
    a = [ln.strip() for ln in original.splitlines() if ln.strip()]
    b = [ln.strip() for ln in code.splitlines() if ln.strip()]
    if difflib.SequenceMatcher(None, a, b).ratio() >= SIMILAR:
        return True
    if max(len(code), len(original)) > SHORT_SCRIPT:
        return False
    return difflib.SequenceMatcher(None, original, code, autojunk=False).ratio() >= SIMILAR


def _standalone(code: str, name: str) -> bool:
    """Code that runs on its own as a script: no syntax error, no name it does not define (code run
    in the session may use variables an earlier step left there)."""
    from oi_local.core.pycheck import problems

    return not problems(code, name)


def save_code(name: str, code: str, check: bool = True) -> str:
    """Python that writes `code` into the script `name` and runs it."""
    text = code.rstrip("\n") + "\n"
    literal = f'"""{text}"""' if '"""' not in text and "\\" not in text and not text.endswith('"\n') else repr(text)
    return (f"fixed = {literal}\nwith open({json.dumps(name)}, \"w\") as f:\n    f.write(fixed)\n"
            f"import subprocess\nsubprocess.run([\"python3\", {json.dumps(name)}]{', check=True' if check else ''})")


def _save_block(name: str, code: str) -> str:
    return f"```python\n{save_code(name, code)}\n```"




def same_code(now: str, old: str) -> bool:
    """The script has its old code: the same text, or the same Python with other blank lines or
    comments (the 0.5B model wrote grades.py back with one blank line fewer and said it was fixed)."""
    if now == old:
        return True
    try:
        return ast.dump(ast.parse(now)) == ast.dump(ast.parse(old))
    except (SyntaxError, ValueError):
        return False


def verified(path: Path, old: str, runs: list[tuple[str, str, bool]], want: list[str] | None = None,
             cwd: str | os.PathLike[str] | None = None) -> bool:
    """The script was changed, shows no problem pyflakes can see, and the last time this turn's code
    (`runs`: code, output, failed) ran it, it ran cleanly and printed what the request says it
    should (`want`)."""
    try:
        now = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    base = Path(cwd or os.getcwd()).resolve()
    name = os.path.relpath(path, base)
    if same_code(now, old):
        return False
    from oi_local.core.pycheck import problems

    if problems(now, name, base):
        return False
    last = next(((out, failed) for code, out, failed in reversed(runs)
                 if os.path.basename(name) in code and re.search(r"subprocess|\bpython3?\b", code) and compiles(code)),
                None)
    return last is not None and not last[1] and not _missing(want or [], last[0])


def follow_up(before: dict[Path, str], worked: list[str], cwd: str | os.PathLike[str] | None = None,
              want: list[str] | None = None, runs: list[tuple[str, str]] | None = None) -> str | None:
    """What to ask the model when it stops: None when every named script was changed, shows no
    problem and, when the request says what it should print (`want`), printed that the last time
    this turn's code (`runs`: code and output, oldest first) ran it. `worked` is the Python code
    that ran without error in this turn, oldest first."""
    base = Path(cwd or os.getcwd()).resolve()
    for path, old in before.items():
        name = os.path.relpath(path, base)
        try:
            now = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # deleted or moved: not ours to second-guess
        from oi_local.core.pycheck import review

        found, fixed = review(now, name, base)
        if fixed is not None:  # changed or not, a problem with one obvious correction: ready to save
            return PROBLEMS_FIXED_NOTE.format(name=name, problems="\n".join(found), block=_save_block(name, fixed))
        if same_code(now, old):
            printed = dict(runs or [])
            for code in reversed(worked):
                if want and code in printed and _missing(want, printed[code]):
                    continue  # it ran, but printed the wrong thing: not the fix
                if os.path.basename(name) not in code and _similar(code, old) and _standalone(code, name):
                    return SAVE_NOTE.format(name=name, block=_save_block(name, code))
        if found:
            return PROBLEMS_NOTE.format(name=name, problems="\n".join(found))
        got = _last_output(name, runs or [], now) if want else None
        wrong = got is not None and bool(_missing(want or [], got))
        if same_code(now, old) and not wrong:
            return UNCHANGED_NOTE.format(name=name)
        if wrong and got is not None:
            shown = got.strip()[-MAX_OUTPUT_SHOWN:] or "(nothing)"
            return WRONG_OUTPUT_NOTE.format(name=name, got=shown, want=" and ".join(f'"{w}"' for w in want or []),
                                            text=now.strip()[:MAX_BYTES // 20])
    return None
