"""Second opinions: a question answered cleanly only after a failed run is asked again, afresh and
sampled, and the answer stands when two runs agree. After its first code failed, the 0.5B model's
next try often runs cleanly and prints a wrong value (asked for an average resting heart rate, it
divided the sum of the rates by the sum of the steps: 0.006). Ten sampled answers to that request
took 1 to 3 s each with the prompt prefix cached; two of the three that ran cleanly printed the right
average, and the wrong ones disagreed with each other. Right answers agree, wrong ones scatter: up to
N more runs are drawn until one prints what an earlier one printed. With no agreement, the first
clean answer stays. Only for questions (nothing is written) that nobody confirms run by run, and
never for requests that may be destructive."""
from __future__ import annotations

import re
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Run, Turn, careful, code_retry

NOTE = "(Write one ```python block that does this and prints the result.)"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
SEED = 101  # sampled seeds apart from the fresh retries' (1, 2, ...)


def _numbers(text: str, request: str) -> set[float]:
    """The numbers printed, less those the request itself names (a year, a month, a count asked for)."""
    asked = {float(n) for n in _NUMBER.findall(request)}
    return {float(n) for n in _NUMBER.findall(text)} - asked


def agree(a: str, b: str, request: str) -> bool:
    """Two outputs give the same answer: a number in common (to the second decimal, so 58.4 and
    58.44 agree), or, with no numbers, the same lines."""
    na, nb = _numbers(a, request), _numbers(b, request)
    if na and nb:
        return any(abs(x - y) <= max(0.051, 0.0005 * abs(x)) for x in na for y in nb)
    if na or nb:
        return False
    lines = [{" ".join(ln.split()).lower() for ln in t.splitlines() if ln.strip()} for t in (a, b)]
    return bool(lines[0]) and lines[0] == lines[1]


def _answered(turn: Turn, run: Run) -> bool:
    from oi_local.core.rules.fresh_retries import printed_nothing

    return not run.failed and not run.interrupted and bool(run.output.strip()) and printed_nothing(turn) is None


def _eligible(turn: Turn) -> bool:
    from oi_local.core.writes import question

    request = turn.request
    return (turn.approve is None and question(request) and not careful(request)
            and any(r.failed for r in turn.runs))


def after_run(turn: Turn) -> Ask | None:
    allowed = int(getattr(turn.engine, "second_opinions", None) or 0)
    state = _state(turn)
    last = turn.runs[-1] if turn.runs else None
    if last is None or not allowed or state["done"] or not _eligible(turn):
        return None
    if state["asked"] == 0:
        if not _answered(turn, last):
            return None  # a failure is the fresh retries' to ask again
        state["answers"].append((last, len(turn.engine.messages)))
        state["hidden"] = turn.hidden  # what the model saw of the turn when it gave that answer
    else:  # a second opinion ran
        if _answered(turn, last):
            if any(agree(last.output, r.output, turn.request) for r, _ in state["answers"]):
                state["done"] = True  # agreed: this run (the one the model sees) is the answer
                return None
            state["answers"].append((last, len(turn.engine.messages)))
    if state["asked"] >= allowed or not turn.steps_left:
        if state["asked"]:
            _keep_first(turn)
        return None
    state["asked"] += 1
    turn.counts["second opinion"] += 1
    return Ask(NOTE, code_retry(turn.engine, SEED + state["asked"]), hide=True)


def _state(turn: Turn) -> dict[str, Any]:
    return turn.state.setdefault("second opinions", {"answers": [], "asked": 0, "done": False})


def _keep_first(turn: Turn) -> None:
    """No two runs agreed: the first clean answer stands. The model is shown the turn as it saw it when
    that run ended (an earlier failed try shown again, it sent that try's corrected code once more), and
    the rules that read the last run read that one."""
    state = _state(turn)
    state["done"] = True
    if not state["answers"]:
        return
    first, end = state["answers"][0]
    a, b, note = (state.get("hidden") or (end, end, None))[:3]
    turn.hidden = (a, b, note, end)  # as it was then, and nothing after that run
    turn.runs.remove(first)
    turn.runs.append(first)


def follow_up(turn: Turn) -> Ask | None:
    """A second opinion answered without code, or sent code that already ran: the first clean answer
    stands, and the model answers from it."""
    state = _state(turn)
    if state["asked"] and not state["done"]:
        _keep_first(turn)
        return Ask(final=True)
    return None


rule = Rule(
    name="second opinions", setting="second_opinions", off=0, after_run=after_run, follow_up=follow_up,
    after_repeat=True,
    summary="a question answered cleanly only after a failed run is asked afresh (sampled) up to N more times, nobody "
            "confirming runs; the answer stands when two runs print the same result (a number in common), else the "
            "first clean answer stays; never for requests that write or may be destructive (off in the small set: it "
            "raised no fresh-set result)")
