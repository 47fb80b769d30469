"""Typed copies: asked to put the text of named files into another (join them, copy a part, gather lines),
the 0.5B model often types what the prompt showed of them into `out.write("...")`: the previews' own titles
("part2.txt contains:") end up in the new file, and whatever the preview cut off is lost. Python code that
writes a file with typed-in text holding a line of a text file the request names, and reads no file before
that write, is not run; the request is asked afresh once (sampled, the try hidden): read the files in the
code and write what was read. A change to the named file itself is *unread writes*' (it runs first)."""
from __future__ import annotations

from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction
from oi_local.core.rules.unread_writes import (
    LIMIT,
    MIN_LINE,
    TEXT_SUFFIXES,
    typed_lines,
    writes_unread,
)

NOTE = ("(Write one ```python block that does what I asked. Read {sources} in the code and write what it reads: "
        "the first try typed their text in from what it was shown, which is not all of it.)")
SHOWN = "Not run: the code types the text of {sources} into {target} instead of reading it; asked afresh."
MAX_NAMED = 12


def _named_texts(request: str) -> list[Path]:
    """Text files here whose names the request gives."""
    low = request.lower()
    found = []
    for p in sorted(Path.cwd().iterdir())[:2000]:
        if p.suffix.lower() in TEXT_SUFFIXES and p.name.lower() in low and p.is_file():
            found.append(p)
    return found[:MAX_NAMED]


def _lines(p: Path) -> set[str]:
    try:
        if p.stat().st_size == 0 or p.stat().st_size > LIMIT:
            return set()
        return {ln.strip() for ln in p.read_text(encoding="utf-8", errors="replace").splitlines() if len(ln.strip()) >= MIN_LINE}
    except OSError:
        return set()


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["typed copies"] or turn.counts["unread writes"] or not turn.steps_left:
        return None
    targets = [t for t in writes_unread(block.code) if Path(t).suffix.lower() != ".py"]
    if not targets:
        return None
    typed = typed_lines(block.code)
    if not typed:
        return None
    request = instruction(turn.request)
    sources = [p.name for p in _named_texts(request)
               if p.name not in {Path(t).name for t in targets} and _lines(p) & typed]
    if not sources:
        return None
    turn.counts["typed copies"] += 1
    names = ", ".join(sources)
    return Verdict(note=SHOWN.format(sources=names, target=targets[0]),
                   ask=Ask(NOTE.format(sources=names), code_retry(turn.engine, 61), hide=True))


rule = Rule(
    name="typed copies", setting="check_answers", check=check,
    summary="code that writes a file with typed-in text holding a line of a text file the request names, and reads "
            "no file first, is not run; the request is asked afresh once (sampled, the try hidden): read the files, "
            "write what was read")
