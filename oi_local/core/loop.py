"""The conversation loop: model -> code -> confirm -> run -> output back to the model -> ...

It is a generator of LMC streaming chunks and edits `engine.messages` in place as it goes, so a
consumer that stops early (Ctrl-C, a closed socket, a `break`) leaves a consistent history.
It always ends: code steps are capped, and the stopping rules end a task that repeats itself with
one last request for a plain answer. The rules in core/rules/ decide at each point of a turn.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator

from oi_local.computer.languages import missing_note
from oi_local.core.child_runs import child_failure
from oi_local.core.lmc import Message, chunk
from oi_local.core.rules import Ask, hooks
from oi_local.core.rules.destructive import destructive_request
from oi_local.core.rules.turn import Block, Run, Turn, last_request

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.core.engine import Engine

__all__ = ["Approver", "respond", "destructive_request", "last_request"]

# approve(code_message) -> "run" | "skip" | ("run", edited_code)
Approver = Callable[[Message], Any]

# The loop's own last word on a failed turn, with the failed run's output under it (shown to the person).
# Later turns show the model its first paragraph only (Engine._as_shown): shown the whole traceback as
# its own earlier answer, the 0.5B model wrote it back as the next turn's reply and then as code (whole
# suite, session 44: ho6-multi-shopping-list's second turn, 82 s).
FAILED_SAID = "This did not work: the last run failed with "

FINAL_ANSWER_NUDGE = (
    "Stop writing code now. In one or two plain sentences, tell me the answer or the result, "
    "based on the outputs above."
)
RAN, NEXT, AGAIN, END = "ran", "next", "again", "end"  # what became of a code block


def respond(engine: "Engine", approve: Approver | None = None) -> Iterator[Message]:
    """Run the loop until the model answers without code (or a stopping rule fires)."""
    # No one confirms each block (auto_run, display=False, the server): runs get a default timeout.
    engine.computer.unattended = approve is None
    turn = Turn(engine, approve, start=len(engine.messages))
    # Worked examples the model copied from stay out for the rest of the chat: put back in the next
    # turn, they made llama.cpp re-read the whole chat after them (1,152 tokens, ho6-multi-shopping-list).
    turn.recipes = not any(m is engine.examples_dropped_with for m in engine.messages)
    for start in hooks(engine, "start"):
        start(turn)
    yield from _turn(turn)
    _keep_hidden(turn)
    # The last word: a turn that did not do what was asked says so (core/rules/honest_end.py).
    line = next((text for text in (f(turn) for f in hooks(engine, "finish")) if text), None)
    if line:
        yield from _say(engine, line)


def _keep_hidden(turn: Turn) -> None:
    """Later turns read this one as its last call did: without the tries it hid, with its note."""
    h, messages = turn.hidden, turn.engine.messages
    if h is None or len(h) > 3:  # a second opinion's hide (a fourth index) is the turn's own
        return
    a, b = h[0], min(h[1], len(messages))  # the newest code, dropped after the hide, may have been its end
    if 0 < a < b:
        turn.engine.keep_hidden(messages[a], messages[b - 1], h[2] if len(h) > 2 else None)


def _turn(turn: Turn) -> Iterator[Message]:
    """Replies, code and follow-ups until the model answers (or a stopping rule ends the turn)."""
    engine = turn.engine
    ask: Ask | None = None
    while True:
        blocks: list[Block] = []
        yield from _reply(turn, blocks, ask)
        ask = None
        if not blocks:
            _drop_repeat(turn)
            ask = _follow_up(turn)
            turn.first = False
            if ask is None:
                return
            if ask.final:  # the reply is not an answer: asked once more (in the ask's words, if it has any)
                engine.messages.pop()
                yield from _final_answer(turn, nudge=ask.text)
                return
            ask = _take(turn, ask)
            continue
        turn.first = False
        for block in blocks:
            outcome, ask = yield from _code(turn, block)
            if outcome == END:
                return
            if outcome == AGAIN:
                break
            if outcome == RAN and (engine.one_block_per_turn or ask is not None):
                break
        ready = ask is not None and ask.ready and turn.steps < engine.max_code_steps
        if ready:
            turn.state["ready"] = True
        elif turn.failed_out:
            if turn.state.pop("ready", False) and not turn.runs[-1].failed:  # the loop's fix ran cleanly
                yield from _final_answer(turn)
                return
            yield from _say(engine, f"Stopped after {turn.failures} failed tries (max_failed_runs).")  # the honest end names the error
            return
        if not turn.steps_left and not ready:
            yield from _final_answer(turn, note=f"Stopped after {turn.steps} code steps (max_code_steps).")
            return


def _drop_repeat(turn: Turn) -> bool:
    """Asked again, a small model may say the same sentence again: kept once, not twice in a row."""
    messages = turn.engine.messages
    last = messages[turn.start:][-2:]
    if len(last) == 2 and all(m["role"] == "assistant" and m["type"] == "message" for m in last) and \
            " ".join(str(last[0]["content"]).split()) == " ".join(str(last[1]["content"]).split()):
        messages.pop()
        return True
    return False


def _follow_up(turn: Turn, repeated: bool = False) -> Ask | None:
    """The first rule's request for a reply without code (or for code that already ran)."""
    turn.repeated = repeated
    return next((ask for ask in (f(turn) for f in hooks(turn.engine, "follow_up", repeated)) if ask is not None), None)


def _take(turn: Turn, ask: Ask) -> Ask | None:
    """Apply an ask's effects on the turn; returns what to send with the next request."""
    if ask.text:
        turn.notes.append(ask.text)
    if ask.own and ask.text and "```python\n" in ask.text:  # the loop's own code: see _code
        turn.state["own code"] = ask.text.split("```python\n", 1)[1].split("```", 1)[0].strip()
    if ask.drop_recipes:
        turn.recipes = False
        if 0 < turn.start <= len(turn.engine.messages):
            turn.engine.examples_dropped_with = turn.engine.messages[turn.start - 1]  # this chat's, by identity
    if ask.hide:  # the ask is said once, as part of the hiding: see Turn.hide
        turn.hide(ask.text)
        ask = replace(ask, text=None)
    if ask.store:  # loop mode: the nudge is the user's message, and a step
        turn.steps += 1
        turn.engine.messages.append({"role": "user", "type": "message", "content": ask.text})
        return None
    return ask


def _code(turn: Turn, block: Block) -> Generator[Message, None, tuple[str, Ask | None]]:
    """Check, confirm and run one code block: (RAN, NEXT, AGAIN or END, what to ask next)."""
    engine, msg = turn.engine, block.message
    for language in hooks(engine, "language"):
        if lang := language(turn, block):
            msg["format"] = lang
    if engine.computer.get_language(block.lang) is None:
        note = missing_note(block.lang, engine.language_names())
        _store_output(engine, note)
        yield from _console_note(note)
        return NEXT, None
    # The loop's own whole code (Ask.own), sent back as offered, meets only the rules that guard every run
    # (safety, records): a rule meant for the model's guesses refused a rename's regex as "a value nowhere in
    # the files". The model's code mended by a note (error_notes) is still checked as the model's: a named
    # month's filter is added to it.
    own = turn.state.get("own code") == block.code.strip()
    written = block.code  # as the model wrote it, before any rule mends it
    for check in hooks(engine, "check", guards=own):
        verdict = check(turn, block)
        if verdict is None:
            continue
        if verdict.repeated:  # not run again: a rule asks again, or the turn ends with an answer
            del engine.messages[next(i for i, m in enumerate(engine.messages) if m is msg)]  # this one, not an equal one
            if verdict.warning:
                yield from _console_note(verdict.warning)
            ask = _follow_up(turn, repeated=True)
            if ask is not None:
                return AGAIN, _take(turn, ask)
            yield from _final_answer(turn)
            return END, None
        if verdict.answer:  # a sentence in a code fence (the fence is prefilled): the model's answer, not code
            del engine.messages[next(i for i, m in enumerate(engine.messages) if m is msg)]
            yield from _say(engine, block.code.strip())
            ask = _follow_up(turn)
            if ask is None:
                return END, None
            if ask.final:
                engine.messages.pop()
                yield from _final_answer(turn, nudge=ask.text)
                return END, None
            return AGAIN, _take(turn, ask)
        if verdict.note:  # shown before the confirmation, and fed back to the model
            _store_output(engine, verdict.note)
            turn.notes.append(verdict.note)
        if verdict.note or verdict.warning:
            yield from _console_note(verdict.shown or verdict.note or verdict.warning)
        if verdict.stop or verdict.again or verdict.ask is not None:
            turn.not_run = verdict.shown or verdict.note
            if verdict.ask is not None:  # asked afresh
                return AGAIN, _take(turn, verdict.ask)
            return (END if verdict.stop else AGAIN), None
    yield chunk("computer", "confirmation", "execution", content={"type": "code", "format": block.lang, "content": block.code})
    decision = turn.approve(msg) if turn.approve is not None else "run"
    if isinstance(decision, tuple) and decision[0] == "run":
        msg["content"] = decision[1]
        for recheck in hooks(engine, "recheck"):  # edited code: checked again
            verdict = recheck(turn, block)
            if verdict is not None and verdict.stop:
                _store_output(engine, verdict.note)
                yield from _console_note(verdict.note)
                return END, None
    elif decision != "run":
        _store_output(engine, "The user declined to run this code.")
        yield from _console_note("Code not run.")
        return END, None
    yield from _run(turn, block.lang, block.code, written)
    turn.not_run = None
    turn.steps += 1
    for after_run in hooks(engine, "after_run"):
        ask = after_run(turn)
        if ask is not None and ask.final:
            yield from _final_answer(turn)
            return END, None
        if ask is not None:  # a rule asks for more code (core/rules/second_opinions.py)
            return RAN, _take(turn, ask)
    if turn.failure and engine.retry_at_once:
        # A small model asked about its own error explains it (86 of 90 failed runs in the fifteenth
        # session's runs), and a rule then asks for new code anyway: asked at once, that call is saved.
        ask = next((a for a in (f(turn) for f in hooks(engine, "follow_up", at_failure=True)) if a is not None), None)
        if ask is not None:
            return RAN, _take(turn, ask)
    return RAN, None


def _reply(turn: Turn, blocks: list[Block], ask: Ask | None = None, allow_code: bool = True) -> Iterator[Message]:
    """Stream one model reply, storing message/code parts in engine.messages as they grow; code
    blocks are collected in `blocks`. With allow_code=False (the final-answer request) code is
    neither shown nor stored."""
    engine, current = turn.engine, None
    turn.state["reply from"] = len(engine.messages)  # this reply's first message (rules/answered_first.py)
    cuts = hooks(engine, "cut")
    options = dict(ask.sampling) if ask else {}
    skipped = ""  # code not wanted in this reply, still watched for a repetition: it ran to max_tokens unseen
    try:
        for c in engine.stream_reply(extra_user=ask.text if ask else None, hide=turn.hidden,
                                     recipes=turn.recipes, **options):
            if c.get("type") == "code" and not allow_code:
                skipped = "" if c.get("start") else skipped + (c.get("content") or "")
                if skipped and any(f(skipped) is not None for f in cuts):
                    return  # closing the stream stops generation
                continue
            if c.get("start"):
                current = {k: v for k, v in c.items() if k not in ("start", "end")} | {"content": ""}
                engine.messages.append(current)
            elif c.get("end"):
                yield c
                if current is not None and current["type"] == "code":
                    blocks.append(Block(current, closed=c.get("closed", True)))
                    if engine.one_block_per_turn:
                        return  # closing the stream stops generation: run this block first
                current = None
                continue
            elif current is not None and isinstance(c.get("content"), str):
                current["content"] += c["content"]
                cut = next((at for at in (f(current["content"]) for f in cuts) if at is not None), None)
                if cut is not None:  # stop the generation (closing the stream cancels it)
                    current["content"] = current["content"][:cut] + " …"
                    yield c
                    yield {k: v for k, v in c.items() if k != "content"} | {"end": True}
                    if current["type"] == "code":
                        blocks.append(Block(current, closed=False, degenerate=True))
                    return
            yield c
    finally:
        # Drop parts left empty (e.g. cancelled before any text arrived).
        while engine.messages and engine.messages[-1].get("role") == "assistant" and engine.messages[-1].get("content") == "":
            engine.messages.pop()


def _run(turn: Turn, lang: str, code: str, written: str = "") -> Iterator[Message]:
    """Run code, streaming its output into a stored output message; the run joins `turn.runs`."""
    engine = turn.engine
    yield chunk("computer", "console", start=True)
    out_msg: Message | None = None
    images, text = 0, ""
    try:
        for c in engine.computer.run(lang, code, stream=True):
            c = {"role": "computer", **c}
            if c.get("type") == "console" and c.get("format") == "output":
                if out_msg is None:
                    out_msg = _store_output(engine, "")
                out_msg["content"] += c.get("content") or ""
                text += c.get("content") or ""
            elif c.get("type") == "image":
                images += 1
                engine.messages.append({k: v for k, v in c.items() if k not in ("start", "end")})
                out_msg = None  # output after an image starts a new message
            yield c
    finally:
        result = getattr(engine.computer, "last_result", None)
        exit_code, note = getattr(result, "exit_code", None), None
        if exit_code in (None, 0) and result is not None and not getattr(result, "interrupted", False):
            exit_code = child_failure(lang, code, text) or exit_code
        if exit_code not in (None, 0):
            out_msg = out_msg or _store_output(engine, "")
            out_msg["content"] = out_msg["content"].rstrip("\n") + f"\n(exit code {exit_code})"
            out_msg["exit_code"] = exit_code
            text += f"\n(exit code {exit_code})"
            # Every rule's note (a file the run left empty is removed whatever else is said).
            content = out_msg["content"]
            note = "\n".join(_distinct(f(turn, lang, code, content) for f in hooks(engine, "on_failure"))) or None
            if note:
                out_msg["content"] += "\n" + note
        if out_msg is None and not images:
            # Silent code still gets an (empty) output message, so the model is told it ran
            # (empty_code_output_template) instead of seeing its own code as the last word.
            _store_output(engine, "")
        turn.runs.append(Run(lang, code, text, exit_code, bool(getattr(result, "interrupted", False)), note, written or code))
    if note:  # shown as it is stored, so the person sees what the model was told
        yield chunk("computer", "console", "output", content="\n" + note + "\n")
    yield chunk("computer", "console", end=True) | ({"exit_code": exit_code} if result is not None else {})


def _store_output(engine: "Engine", text: str) -> Message:
    msg: Message = {"role": "computer", "type": "console", "format": "output", "content": text}
    engine.messages.append(msg)
    return msg


def _console_note(text: str) -> Iterator[Message]:
    yield chunk("computer", "console", start=True)
    yield chunk("computer", "console", "output", content=text + "\n")
    yield chunk("computer", "console", end=True)


def _final_answer(turn: Turn, note: str | None = None, nudge: str | None = None) -> Iterator[Message]:
    """Ask once for a plain-language answer (with `nudge`, in those words); never run code from this reply."""
    engine = turn.engine
    if note:
        yield from _say(engine, note + "\n")
    before = len(engine.messages)
    yield from _reply(turn, [], Ask(nudge or FINAL_ANSWER_NUDGE), allow_code=False)
    if len(engine.messages) > before and _drop_repeat(turn):
        if not any(f(turn) for f in hooks(engine, "discard")):
            return  # the answer it gave just before stands
        # The same rejected answer twice ("route", the first line of a per-route table, ho37): the output
        # speaks instead.
        engine.messages.pop()
    if len(engine.messages) > before and any(f(turn) for f in hooks(engine, "discard")):
        engine.messages.pop()
    if not any(m["role"] == "assistant" and m["type"] == "message" and m["content"].strip() for m in engine.messages[before:]):
        # No answer to keep (only code, or one a rule discarded): the last output is the answer, and a
        # failed run is said to be one, never shown as a result.
        last = next((m["content"] for m in reversed(engine.messages) if m["role"] == "computer" and m["type"] == "console"), "")
        if turn.runs and not turn.failure:  # the last run's own output: a chart's run prints nothing, and the
            last = turn.runs[-1].output or _made(turn.runs[-1])  # traceback of the try before it was shown as the result
        if turn.failure:
            yield from _say(engine, f"{FAILED_SAID}{turn.failure.strip()}\n\n{last.strip()}")
        elif turn.not_run:
            return  # the last output is a rule's refusal, not a result: the honest end says what happened
        else:
            yield from _say(engine, f"Result:\n{last.strip()}" if last.strip() else "Done.")


def _made(run: Run) -> str:
    """"Saved temps.png." for a run that printed nothing and wrote files that are there now, else ""."""
    import os

    from oi_local.core.writes import changed_paths

    made = [p for p in changed_paths(run.lang, run.code) if os.path.isfile(p)]
    return f"Saved {', '.join(made)}." if made else ""


def _say(engine: "Engine", text: str) -> Iterator[Message]:
    yield chunk("assistant", "message", start=True)
    yield chunk("assistant", "message", content=text)
    yield chunk("assistant", "message", end=True)
    engine.messages.append({"role": "assistant", "type": "message", "content": text})


def _distinct(notes: Any) -> list[str]:
    """The notes, each said once: two rules that both saw "nothing called X exists yet" told the model twice, with two
    versions of its code (a pasted log's file, ho20, a development run of session 55)."""
    kept: list[str] = []
    for n in notes:
        first = re.match(r"[^\n]*?\.(?=\s|$)", n or "")
        if n and not any(first and k.startswith(first.group(0)) for k in kept):
            kept.append(n)
    return kept
