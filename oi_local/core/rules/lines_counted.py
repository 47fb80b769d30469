"""Lines counted: "how many lines r in server.log?" asks for every line of one file. Issue 18 quoted
the 0.5B model counting the characters of notes.txt; on ho49 (read after that set's end) it counted
the digit groups of server.log and answered 10144. The question names one text file that is there
and nothing that picks lines (no word is left once the file's name and the words that say how to
count are taken out: "ERROR", "blank" and "of code" are left); when a run for it fails, or prints
no number equal to the file's line count, the loop offers its own code that counts them, once a turn.
A file that does not end in a newline has one line more than it has newlines: either count is taken."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not print how many lines {file} has."
HOW = "This block prints it; reply with it, then answer with the number it prints."
MAX_BYTES = 50_000_000  # a bigger file is the code's to read
_ASKED = re.compile(r"\b(?:how\s+many|number\s+of|count\s+(?:the\s+|all\s+(?:the\s+)?)?)\s*lines?\b|\bline\s+count\b", re.I)
_PATHISH = re.compile(r"\S*[/\\.]\w\S*")  # the file's name ("server.log", "./logs/app.log")
_WORD = re.compile(r"[A-Za-z][\w'-]*|\d+")
# Words that say how to count, not which lines: all else ("ERROR", "blank", "code", "python") picks some.
_SAYS_NOTHING = frozenset("""how many number of count counted counting lines line are r is was there in inside into
on the a an my our your this that it its does do did has have got contain contains file files text total altogether
please pls plz can could would will you u tell me show give say find out what's whats hey hi quick question so far
exactly just all entire whole long now""".split())


def asked(request: str, cwd: Path) -> str | None:
    """The one file whose every line a short question asks to count, as named, or None."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    if "\n" in words.strip() or not _ASKED.search(words):
        return None
    files = [p for p in mentioned_paths(words, cwd) if p.is_file()]
    if len(files) != 1 or files[0].stat().st_size > MAX_BYTES:
        return None
    left = [w for w in _WORD.findall(_PATHISH.sub(" ", words)) if w.lower() not in _SAYS_NOTHING]
    if left:
        return None  # "how many lines contain ERROR", "how many blank lines", "lines of code"
    with open(files[0], "rb") as f:
        if b"\0" in f.read(8192):
            return None  # not text
    base = cwd.resolve()
    return str(files[0].relative_to(base)) if files[0].is_relative_to(base) else str(files[0])


def counts(file: str) -> set[int]:
    """The file's line count: its lines, and its newlines (one fewer when the last line has none)."""
    with open(file, "rb") as f:
        data = f.read()
    return {len(data.splitlines()), data.count(b"\n")}


def ready_code(file: str) -> str:
    return (f"with open({file!r}, 'rb') as f:\n    lines = f.read().splitlines()\n"
            f"blank = sum(1 for line in lines if not line.strip())\n"
            f"print({file!r}, 'has', len(lines), 'lines' + (f' ({{blank}} of them blank)' if blank else ''))")


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["lines counted"]:
        return None
    try:
        file = asked(turn.request, Path.cwd())
        want = counts(file) if file else set()
    except OSError:
        return None
    if file is None:
        return None
    printed = {int(n.replace(",", "")) for n in re.findall(r"(?<![\w.])\d[\d,]*(?![\w]|\.\d)", last.output[:5000])}
    if not last.failed and printed & want:
        return None
    turn.counts["lines counted"] += 1
    return own_code(turn.engine, NOTE.format(file=file), ready_code(file), HOW)


rule = Rule(
    name="lines counted", setting="check_answers", after_run=after_run,
    summary="a short question that asks how many lines one named text file has (nothing that picks lines: no "
            "\"ERROR\", \"blank\" or \"of code\"), whose run failed or printed no number equal to the file's line "
            "count: the loop offers its own code that counts them, blank lines too (once a turn)")
