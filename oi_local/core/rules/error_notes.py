"""Error notes: a failed run's output ends with one line on what to do, for a few errors with one
likely cause (core/errors.py); shown and stored with the output.

When the note holds the model's code corrected and the model answers with an explanation only, it
is asked once to run that code: shown the block in the newest message, and with the reply starting
with it where the back end allows (left to itself, the 0.5B model explains the note back). A script
the request asks to fix that fails inside gets the note for its own error, its correction in a block
that saves the script and runs it.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import READY_BLOCK, Turn, block_prefix

OFFER_NOTE = "Run the corrected code: reply with this ```{lang} block.\n{block}"


def on_failure(turn: Turn, lang: str, code: str, output: str) -> str | None:
    from oi_local.core.errors import note

    try:
        return _script_note(turn, output) or (note(output, turn.request, code=code) if lang == "python" else None)
    except OSError:
        return None


_FRAME = re.compile(r'File "([^"<>\n]+\.py)", line (\d+)')
SCRIPT_NOTE = "This ```python block saves {name} corrected so and runs it; reply with it.\n```python\n{block}\n```"


def _script_note(turn: Turn, output: str) -> str | None:
    """A script the request asks to fix, run and failed inside (`python3 split_bills.py`: a TypeError at
    its line 14): the note for that error, with the script corrected and ready to save and run, when the
    note can correct it. Told only the error, the 0.5B model rewrote the script around it nine times."""
    from oi_local.core.errors import note
    from oi_local.core.fixes import save_code, targets

    scripts = {p.resolve(): text for p, text in targets(turn.request).items()} if "Traceback" in output else {}
    # the script's own frame: the last one of it (a cell that ran it with subprocess adds frames after)
    frame = next((f for f in reversed(_FRAME.findall(output)) if (Path.cwd() / f[0]).resolve() in scripts), None)
    if frame is None:
        return None
    path = Path(frame[0])
    text = scripts[(Path.cwd() / path).resolve()]
    # The cell's own frames (the subprocess.run line) are renamed first: the note reads the script's line.
    own = output.replace('File "<cell-', 'File "<outer-').replace(f'File "{frame[0]}"', 'File "<cell-1>"')
    found = note(own, turn.request, code=text)
    fixed = READY_BLOCK.search(found or "")
    if found is None or fixed is None:
        return found
    name = os.path.relpath(path, Path.cwd()) if path.is_absolute() else str(path)
    body = fixed.group(0)[fixed.group(0).index("\n") + 1:-4]
    advice = re.sub(r"\s*(?:With [^.]*?,\s*)?the code would be:\s*$", "", found[:fixed.start()])
    return f"{advice} {SCRIPT_NOTE.format(name=name, block=save_code(name, body))}"


def follow_up(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    found = READY_BLOCK.search(last.note or "") if last is not None and last.failed else None
    offered = found.group(0) if found else None
    offers = turn.state.setdefault("offered", set())  # each corrected block is offered once a turn
    # Past max_failed_runs too: the note's block is the failed code corrected, not the model's next guess
    # (the third failed try's note held `subscriptions = json.load(f)`, and the turn stopped there).
    if not offered or offered in offers or turn.steps >= turn.engine.max_code_steps:
        return None
    offers.add(offered)
    lang = offered[3:offered.index("\n")]
    return Ask(OFFER_NOTE.format(lang=lang, block=offered), block_prefix(turn.engine, offered), ready=True)


rule = Rule(
    name="error notes", setting="error_notes", on_failure=on_failure, follow_up=follow_up, at_failure=True,
    summary="a failed run's output ends with one line on what to do for a few errors with one likely cause: a "
            "made-up variable standing for a data file the request names (`sales` for sales.csv: how to read it), "
            "a stdlib module not imported, arithmetic on strings read from a CSV (with the model's code shown back "
            "with those values wrapped in `float()`), a file object where its text was meant, a missing file with a "
            "close name elsewhere, a write into a folder that does not exist (the code shown back with the folder made "
            "first), a `KeyError` (the record's real keys; `r[3]` of a csv.DictReader row: its column names), a number written with a sign, a unit or thousands commas "
            "(`float('£112.30')`: the code shown back keeping its digits), a `csv.DictWriter` with no column names (the "
            "rows' own keys, the header written first), a test that meets a record with no value (None: those records "
            "skipped where they are compared; a running best that starts as None takes the first value), a list of lines searched with a `re` function (joined first); for a script the request asks to fix that fails inside "
            "(`python3 split_bills.py`), the note's correction is made to the script, in a block that saves and runs "
            "it; shown and stored with the output. When the "
            "note holds the model's code corrected and the model answers with an explanation only, it is asked once "
            "to run that code (small set: on)")
