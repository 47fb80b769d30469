"""Fix asks: a request to fix a named script ends with the script changed (core/fixes.py). If the
model stops while the file still has its old code, a fault pyflakes can see, or (when the request
says what it should print) printed something else, it is asked again. A note without a block to
copy is answered sampled: at temperature 0 the 0.5B model sends the same wrong fix back each time."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import (
    READY_BLOCK,
    RETRY_TEMPERATURE,
    Block,
    Turn,
    asks_back,
    block_prefix,
    careful,
    code_prefix,
)

_WRITES = re.compile(r"\bopen\([^)]*['\"][wa]|write_text|>\s*\S+\.py\b")
MAX_ASKS = 3  # "not fixed yet" at most three times a turn: more only repeats itself


def start(turn: Turn) -> None:
    """The scripts the request asks to fix, with their text before the turn."""
    fixing = {}
    if not careful(turn.request):
        from oi_local.core.fixes import targets

        try:
            fixing = targets(turn.request)
        except OSError:
            pass
    turn.state["fixing"] = fixing


def follow_up(turn: Turn) -> Ask | None:
    fixing = turn.state.get("fixing")
    if not turn.repeated and asks_back(turn.engine):  # "Shall I save it?": the user's to answer
        return None
    if not (fixing and turn.counts["fix ask"] < MAX_ASKS and turn.steps and turn.steps_left):
        return None
    turn.counts["fix ask"] += 1
    from oi_local.core.fixes import expected
    from oi_local.core.fixes import follow_up as unfixed

    worked = [r.code for r in turn.runs if r.lang == "python" and r.exit_code in (None, 0) and not r.interrupted]
    text = unfixed(fixing, worked, want=expected(turn.request), runs=[(r.code, r.output) for r in turn.runs])
    if not text:
        return None
    ready = READY_BLOCK.search(text)
    if ready:  # a block to send back: the reply starts with it where the back end allows
        return Ask(text, block_prefix(turn.engine, ready.group(0)))
    sampling = code_prefix(turn.engine) | {"temperature": RETRY_TEMPERATURE, "seed": turn.counts["fix ask"]}
    return Ask(text, sampling)


def check(turn: Turn, block: Block) -> Verdict | None:
    """Code that writes a script this turn has already fixed (changed, run cleanly, printing what it
    should) is not run: the turn ends with an answer. The 0.5B model, its fix of prices.py saved and
    run, sent a broken copy of the saving code, then wrote the dict's repr into prices.py."""
    fixing = turn.state.get("fixing")
    if not fixing or turn.approve is not None or not _WRITES.search(block.code):
        return None
    from oi_local.core.fixes import expected, verified

    runs = [(r.code, r.output, r.failed) for r in turn.runs]
    for path, old in fixing.items():
        if path.name in block.code and verified(path, old, runs, expected(turn.request)):
            return Verdict(repeated=True)
    return None


def finish(turn: Turn) -> str | None:
    """A turn that ends with the script still not fixed says so: asked to make rect.py print 12, the
    0.5B model saved the same script twice and answered "The output is 7." (ho2-fix-operator). A failed
    or refused last run is the honest end's to say (core/rules/honest_end.py)."""
    fixing = turn.state.get("fixing")
    last = turn.runs[-1] if turn.runs else None
    if not fixing or last is None or last.failed or last.interrupted or turn.not_run:
        return None
    from oi_local.core.fixes import expected
    from oi_local.core.fixes import follow_up as unfixed

    worked = [r.code for r in turn.runs if r.lang == "python" and r.exit_code in (None, 0) and not r.interrupted]
    text = unfixed(fixing, worked, want=expected(turn.request), runs=[(r.code, r.output) for r in turn.runs])
    if not text:
        return None
    wrong = re.match(r"(\S+) still prints the wrong thing\. It printed:\n(.*?)\nbut it should print (.+?)\. ", text, re.S)
    if wrong:
        got = " ".join(wrong.group(2).split())[-80:]
        return f"This is not done: {wrong.group(1)} still prints {got}, but it should print {wrong.group(3)}."
    first = re.split(r"(?<=[.:])\s", text, maxsplit=1)[0].rstrip(":.")
    return f"This is not done: {first[0].lower() + first[1:] if first.startswith('That') else first}."


rule = Rule(
    name="fix asks", setting="check_fixes", start=start, check=check, follow_up=follow_up, after_repeat=True, finish=finish,
    summary=f"a request to fix a named Python script ends with the script changed: if the model stops while the file "
            f"still has its old code or a fault pyflakes can see, or the script's last run printed something other "
            f"than the request says it should, it is asked again (at most {MAX_ASKS} times a turn); code that writes a "
            f"script already fixed this turn (changed, run cleanly, printing what it should) is not run, where no one "
            f"confirms: the turn ends with an answer; a turn that ends with the script still not fixed (unchanged, or "
            f"printing what it should not) says so")
