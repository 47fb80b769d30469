"""Run asked: asked to run a named script ("run monthly_report.py and tell me the october total",
"run the tests in test_calc.py"), the 0.5B model often runs a copy of the script's text that it wrote
into its own code, or part of it, and never the script; what the person's file does is not what
ran. The first code of such a turn that does not name the script is not run; the reply starts with
the script run (`python3 monthly_report.py`, `bash sync_photos.sh`) where the back end allows."""
from __future__ import annotations

import os
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, block_prefix

NOTE = "(Run {path} itself and show what it printed. If it fails, say that it failed and why.)"
SHOWN = "Not run: the request asks to run {path}, and this code does not run it; asked to run it."


def asked_script(request: str) -> tuple[str, str] | None:
    """(the script the request asks to run, the line that runs it), for one named .py or .sh file here."""
    from oi_local.core.errors import run_line
    from oi_local.core.hints import mentioned_paths

    here = Path.cwd().resolve()
    found = []
    for p in mentioned_paths(request, here):
        rel = os.path.relpath(p, here)
        line = run_line(rel, request, here) if p.is_file() else None
        if line:
            found.append((rel, line))
    return found[0] if len(found) == 1 else None


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.runs or turn.counts["run asked"] >= 1:
        return None  # the first code only: after a run the model may look at the script or its data
    asked = asked_script(turn.request)
    if asked is None or os.path.basename(asked[0]) in block.code:
        return None
    path, line = asked
    turn.counts["run asked"] += 1
    return Verdict(note=SHOWN.format(path=path),
                   ask=Ask(NOTE.format(path=path), block_prefix(turn.engine, f"```shell\n{line}\n```"), hide=True))


rule = Rule(
    name="run asked", setting="check_answers", check=check,
    summary="asked to run a named script (`run monthly_report.py and ...`), a first code block that does not run it "
            "(it ran a copy of the script's text) is not run; the reply starts with the script run (`python3 "
            "monthly_report.py`) where the back end allows")
