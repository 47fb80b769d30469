"""Prose blocks: when the loop asks for code it may start the reply with the fence already written
(`prefill_code`), and a small model with nothing to compute then writes its sentence inside it: asked
afresh after averaging an id column, the 0.5B model replied ```` ```python ```` "orders_export.csv does not
have it." and the SyntaxError that followed led it to count a made-up date instead (ho39). A Python
block of one to three lines that does not compile and reads as a sentence (words, no brackets,
operators or keywords of code) is not run: it is the model's answer, said as one, and the turn goes on
as after any answer.
A block that is the loop's own note written back ("Not run: the same code already answered the earlier
request; ..." in a ```python fence, ho44 on the dateless prompt) is not run either: it failed as a
SyntaxError and counted as a failed try. The model is told so and asked again."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, own_code

MAX_LINES = 3
_CODE_SIGNS = re.compile(r"[=(){}\[\]<>`$|;]|^\s*(?:import|from|def|class|for|while|if|print|return|with|try)\b|"
                         r"^\s*[#@]|\b(?:True|False|None)\b", re.M)
_WORD = re.compile(r"^[A-Za-z][\w'’.,:!?-]*$")


def is_prose(code: str) -> bool:
    from oi_local.core.pycheck import compiles

    text = code.strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines or len(lines) > MAX_LINES or _CODE_SIGNS.search(text) or compiles(text):
        return False
    tokens = text.split()
    words = [t for t in tokens if _WORD.match(t) or re.fullmatch(r"\d[\d,.]*%?[.,]?", t)]
    return len(tokens) >= 3 and len(words) == len(tokens)


ECHO = "Not run: that block is my note written back, not code. Reply with a ```python block that does what I asked."
_LOOP_WORDS = ("Not run:", "Changed before it ran:", "Output of the code:", "This is not done:", "Note:")


def echoed(turn: Turn, code: str) -> bool:
    """The block is a note the loop gave (or starts as one), not code."""
    text = code.strip()
    return text.startswith(_LOOP_WORDS) or any(len(n) >= 20 and n.strip()[:60] in text for n in turn.notes)


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang not in ("python", "shell", "bash", "sh"):
        return None
    if echoed(turn, block.code) and turn.counts["echoed"] < 1:
        from oi_local.core.pycheck import compiles

        if block.lang != "python" or not compiles(block.code):
            turn.counts["echoed"] += 1  # once a turn: written back again, it runs and fails as it would
            return Verdict(note=ECHO, again=True)
    quoted = quoted_file(turn, block.code) if block.lang == "python" and not turn.counts["quoted file"] else None
    if quoted is not None:
        turn.counts["quoted file"] += 1
        code = f"with open({quoted!r}, encoding='utf-8', errors='replace') as f:\n    print(f.read({MAX_PRINTED}))"
        return Verdict(note=QUOTED_SHOWN.format(file=quoted),
                       ask=own_code(turn.engine, QUOTED.format(file=quoted), code, QUOTED_HOW))
    if block.lang != "python" or not is_prose(block.code):
        return None
    return Verdict(answer=True)


# The lines of a named text file written as the code: asked what a pancake recipe in pancakes.txt needs and how
# many it serves, the 0.5B model put the file's lines in a ```python block three times, each a SyntaxError (ho48, a
# development run of session 51).
QUOTED = "(That block is the text of {file}, not code."
QUOTED_HOW = "This block prints it; reply with it, then answer my question from what it prints."
QUOTED_SHOWN = "Not run: the block is the text of {file}, not code; the loop's code prints the file instead."
MAX_PRINTED = 4000  # characters of the file printed
MIN_QUOTED = 0.8  # share of the block's lines that are lines of the file


def quoted_file(turn: Turn, code: str) -> str | None:
    """The named text file whose lines the block is, when it does not compile as Python, or None."""
    from pathlib import Path

    from oi_local.core.hints import mentioned_paths
    from oi_local.core.pycheck import compiles

    lines = [" ".join(ln.split()).lower() for ln in code.splitlines() if ln.strip()]
    if len(lines) < 2 or compiles(code):
        return None
    cwd = Path.cwd()
    for p in mentioned_paths(turn.request, cwd):
        if not (p.is_file() and p.suffix.lower() in (".txt", ".md", ".text") and p.stat().st_size < 200_000):
            continue
        held = {" ".join(ln.split()).lower() for ln in p.read_text(encoding="utf-8", errors="replace").splitlines()}
        if sum(ln in held for ln in lines) >= MIN_QUOTED * len(lines):
            base = cwd.resolve()
            return str(p.relative_to(base)) if p.is_relative_to(base) else str(p)
    return None


rule = Rule(
    name="prose blocks", setting="repair_slips", check=check,
    summary="a ```` ```python ```` block of one to three lines that does not compile and reads as a sentence "
            "(\"orders_export.csv does not have it.\") is not run: it is taken as the model's answer; a block that is the "
            "loop's own note written back (\"Not run: ...\") is not run and the model is asked again; a block that is the "
            "lines of a named text file is not run, and the loop's code prints the file")
