"""Cut-off replies: code that the reply did not finish (max_tokens reached inside the block, or the
repetition rule stopped it) is not run, and the model hears why. A repetition is drawn again once,
sampled, with the try hidden: greedy decoding falls into the same loop again (the 0.5B model wrote
`tar -czvf a.tar.gz a/` over and over, and the turn ended there). Falling into one again after a clean
run that printed something, the try is dropped and the answer is asked for from that run's output."""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

DEGENERATE_NOTE = "The reply fell into an endless repetition and was stopped, so that code was not run."
FRESH = ("(A first try was not run: it fell into an endless repetition. Write one ```python block that does what I "
         "asked, each step once.)")
LENGTH_NOTE = "The reply was cut off (max_tokens) inside a code block, so the incomplete code was not run."


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.degenerate:
        if turn.counts["degenerate"] or not turn.steps_left:
            last = turn.runs[-1] if turn.runs else None
            if last is not None and not (last.failed or last.interrupted) and last.output.strip():
                # After a clean run that printed something, the answer is asked from that output: ended
                # here, a right copy into a new folder read "This is not done" (session 37).
                turn.not_run = None  # the dropped tries are not the newest code: the clean run is
                output = next((m for m in reversed(turn.engine.messages) if m.get("type") == "console"
                               and m.get("content") != DEGENERATE_NOTE), None)
                turn.hide_after(output)  # the prompt ends at that run's output
                return Verdict(warning=DEGENERATE_NOTE, repeated=True)
            return Verdict(note=DEGENERATE_NOTE, stop=True)
        turn.counts["degenerate"] += 1
        return Verdict(note=DEGENERATE_NOTE, again=True, ask=Ask(FRESH, code_retry(turn.engine, 5), hide=True))
    if not block.closed and turn.engine.llm.last_finish_reason == "length":
        return Verdict(note=LENGTH_NOTE, stop=True)
    return None


rule = Rule(
    name="cut-off code", setting="skip_cut_off", check=check,
    summary="a code block the reply did not finish (max_tokens reached inside it, or stopped as a repetition) is "
            "not run, and the model is told why; a repetition is asked afresh once (sampled, the try hidden), and "
            "a second one after a clean run that printed something is dropped and the answer asked for from that run")
