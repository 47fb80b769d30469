"""Repeated code: small models re-send code that already ran instead of answering. It is not run
again: the turn ends with a request for a plain answer, or after a failure, a fresh sampled answer
or a fix ask (the rules with `after_repeat`). Running it again after other code changed a file is
the usual check of a fix (`python3 split_bill.py` after rewriting split_bill.py), so that runs.
So is a block that is the last run's output sent back as code ("routes.py", "app.py", one per line,
after a search printed those names: a NameError, and the two tries after it failed too, ho36)."""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Run, Turn, code_retry
from oi_local.core.writes import changed_paths


def _writes(run: Run) -> bool:
    try:
        return bool(changed_paths(run.lang, run.code))
    except (SyntaxError, ValueError):
        return False


def echoed(turn: Turn, block: Block) -> bool:
    """The block is the last run's printed lines said back: each of its lines is one of them."""
    last = turn.runs[-1] if turn.runs else None
    lines = [ln.strip() for ln in block.code.splitlines() if ln.strip()]
    printed = {ln.strip() for ln in (last.output if last else "").splitlines() if ln.strip()}
    return bool(lines) and last is not None and not last.failed and all(ln in printed for ln in lines)


NOTE_BACK = "Not run: the code only prints back what the loop told the model; asked afresh."
ASK_AFRESH = "(Write one ```python block that does what I asked.)"


def notes_back(turn: Turn, block: Block) -> bool:
    """The block only prints a note the loop gave this turn: told "Not run: the same code already answered the
    earlier request", the 0.5B model sent `print("Not run: the same code ...")` and answered with it (ho12)."""
    from oi_local.core.rules.made_up import typed_in

    values = typed_in(block.code) if block.lang == "python" else None
    said = [" ".join(n.split()) for n in turn.notes if n.strip()]
    return bool(values and said) and any(" ".join(v.split()) in said for v in values or [] if len(v) >= 20)


def check(turn: Turn, block: Block) -> Verdict | None:
    if echoed(turn, block):
        return Verdict(repeated=True)
    if not turn.counts["notes back"] and notes_back(turn, block):
        turn.counts["notes back"] += 1
        return Verdict(note=NOTE_BACK, ask=Ask(ASK_AFRESH, code_retry(turn.engine, 61), hide=True))
    # the model's block as it wrote it: a rule mends it the same way each time (ran ten times over: session 44)
    same = [i for i, r in enumerate(turn.runs)
            if r.lang == block.lang and block.code.strip() in (r.code.strip(), r.written.strip())]
    if not same or any(_writes(r) for r in turn.runs[same[-1] + 1:]):
        return None
    return Verdict(repeated=True)


rule = Rule(
    name="repeated code", setting="stop_repeats", check=check,
    summary="code that already ran this turn is not run again unless other code changed a file since: a failure is "
            "retried afresh or the fix asked for again where those rules apply, else the model is asked once for a plain answer; "
            "so is a block that only says back the last run's printed lines; one that only prints a note the loop gave "
            "(\"Not run: ...\") is not run and the request is asked afresh once, sampled")
