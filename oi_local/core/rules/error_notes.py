"""Error notes: a failed run's output ends with one line on what to do, for a few errors with one
likely cause (core/errors.py); shown and stored with the output.

When the note holds the model's code corrected and the model answers with an explanation only, it
is asked once to run that code: shown the block in the newest message, and with the reply starting
with it where the back end allows (left to itself, the 0.5B model explains the note back).
"""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import READY_BLOCK, Turn, block_prefix

OFFER_NOTE = "Run the corrected code: reply with this ```{lang} block.\n{block}"


def on_failure(turn: Turn, lang: str, code: str, output: str) -> str | None:
    if lang != "python":
        return None
    from oi_local.core.errors import note

    try:
        return note(output, turn.request, code=code)
    except OSError:
        return None


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
            "first), a `KeyError` (the record's real keys); shown and stored with the output. When the "
            "note holds the model's code corrected and the model answers with an explanation only, it is asked once "
            "to run that code (small set: on)")
