"""Fix asks: a request to fix a named script ends with the script changed (core/fixes.py). If the
model stops while the file still has its old code, a fault pyflakes can see, or (when the request
says what it should print) printed something else, it is asked again. A note without a block to
copy is answered sampled: at temperature 0 the 0.5B model sends the same wrong fix back each time."""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import (
    RETRY_TEMPERATURE,
    Turn,
    asks_back,
    careful,
    code_prefix,
)

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
    sampling = code_prefix(turn.engine)
    if "```python\n" not in text:  # no ready block to copy
        sampling |= {"temperature": RETRY_TEMPERATURE, "seed": turn.counts["fix ask"]}
    return Ask(text, sampling)


rule = Rule(
    name="fix asks", setting="check_fixes", start=start, follow_up=follow_up, after_repeat=True,
    summary=f"a request to fix a named Python script ends with the script changed: if the model stops while the file "
            f"still has its old code or a fault pyflakes can see, or the script's last run printed something other "
            f"than the request says it should, it is asked again (at most {MAX_ASKS} times a turn)")
