"""Cut-off replies: code that the reply did not finish (max_tokens reached inside the block, or the
repetition rule stopped it) is not run, and the model hears why. A repetition is drawn again once,
sampled, with the try hidden: greedy decoding falls into the same loop again (the 0.5B model wrote
`tar -czvf a.tar.gz a/` over and over, and the turn ended there). Falling into one again after a clean
run that printed something, the try is dropped and the answer is asked for from that run's output.
A repetition of whole lines after code that is complete as it stands (`tar -czvf reports.tar.gz reports/`
and then the same line again, ho56) is that code once: it runs (the person is told). Drawn again, the
model wrote a zip archive under the .tar.gz name."""
from __future__ import annotations

import subprocess

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

DEGENERATE_NOTE = "The reply fell into an endless repetition and was stopped, so that code was not run."
FRESH = ("(A first try was not run: it fell into an endless repetition. Write one ```python block that does what I "
         "asked, each step once.)")
ONCE_NOTE = "The reply wrote the same lines over and over and was stopped there; the code before the repetition runs once."
LENGTH_NOTE = "The reply was cut off (max_tokens) inside a code block, so the incomplete code was not run."


def whole_lines(block: Block) -> str | None:
    """The code kept before a repetition, when it ends at a line's end and is complete (it compiles; a shell
    script passes `bash -n`), else None: "x = 1" of "x = 1999..." ends mid-line and is not the code meant."""
    code = block.code.removesuffix(" …")
    if not code.endswith("\n") or not code.strip():
        return None
    if block.lang == "python":
        try:
            compile(code, "<reply>", "exec")
        except (SyntaxError, ValueError):
            return None
        return code
    if block.lang in ("shell", "bash", "sh"):
        try:
            ok = subprocess.run(["bash", "-n"], input=code, text=True, capture_output=True, timeout=5).returncode == 0
        except (OSError, subprocess.SubprocessError):
            return None
        return code if ok else None
    return None


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.degenerate and not turn.counts["degenerate"] and (code := whole_lines(block)) is not None:
        turn.counts["degenerate"] += 1
        block.message["content"] = code
        return Verdict(warning=ONCE_NOTE)
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
            "a second one after a clean run that printed something is dropped and the answer asked for from that run; the "
            "first repetition of whole lines after complete code (the same shell command again and again) runs that code once")
