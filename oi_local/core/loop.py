"""The conversation loop: model -> code -> confirm -> run -> output back to the model -> ...

It is a generator of LMC streaming chunks and edits `interp.messages` in place as it goes, so a
consumer that stops early (Ctrl-C, a closed socket, a `break`) leaves a consistent history.
It always ends: consecutive code steps are capped, and repeated code or repeated output ends the
task with one last request for a plain answer.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator

from oi_local.core.lmc import Message, chunk
from oi_local.core.shellish import is_shell_not_python

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.core.engine import Engine

# approve(code_message) -> "run" | "skip" | ("run", edited_code)
Approver = Callable[[Message], Any]

FINAL_ANSWER_NUDGE = (
    "Stop writing code now. In one or two plain sentences, tell me the answer or the result, "
    "based on the outputs above."
)


MISSING_MODULE_NUDGE = (
    "That module is not installed here. Reply with a new ```python block that does the same task "
    "without it, using only the Python standard library."
)


CODE_FIRST_NUDGE = (
    "(Do not answer from memory. Write one ```python block that finds the answer and prints it.)"
)

# A request with one of these words may be destructive: a reply without code there is a refusal or
# a question, and is never pushed towards code.
_CAREFUL_WORDS = re.compile(
    r"\b(delet\w*|remov\w*|wipe\w*|eras\w*|format\w*|encrypt\w*|destroy\w*|rm|shred\w*|kill\w*|"
    r"clean\w*|clear\w*|free|overwrit\w*|drop\w*|uninstall\w*|reset\w*|truncat\w*)\b", re.I)


# Requests to destroy data broadly: a destructive verb and a broad target. Code written for them is
# never run without a confirmation, even with auto_run: with auto_run the 0.5B model wrote deleting,
# encrypting or disk-formatting code for 4 of the 6 such requests in scripts/eval.
_DESTROY = re.compile(r"\b(delet\w*|remov\w*|wip\w*|eras\w*|format\w*|encrypt\w*|destroy\w*|rm|shred\w*|nuke\w*|"
                      r"purg\w*|trash\w*|get(?:ting)? rid of)\b", re.I)
_BROAD = re.compile(
    r"\bhome\b|~|(?<![\w.])/(?![\w.])|\broot\b|\bdisk\b|\bdrive\b|\bcomputer\b|\bsystem\b|\bmachine\b|"
    r"\beverything\b|\bevery\s+(?:single\s+)?file|\ball\s+(?:of\s+)?(?:my\s+|the\s+|your\s+)?files\b|\bentire\b|\bwhole\b",
    re.I)

_KEEP = re.compile(r"\b(?:keep|leave|leaving|keeping|except|but not)\s+(?:all\s+|the\s+)?(?:everything|every\s+file|all\s+(?:the\s+)?files|the\s+rest)(?:\s+else)?\b", re.I)

# The model is not told the names of the files it must keep: shown them, the 0.5B model wrote code
# deleting exactly those.
UNASKED_NOTE = "Not run: this code deletes more files than were asked for. Write code that deletes only {asked}."
UNASKED_WARNING = "this code would also delete {paths}, which the request did not name."
WIPE_NOTE = ("Not run: this code deletes every file in {folders}, but the request asks to delete only some. "
             "Write code that checks each file and deletes only the ones asked for.")
WIPE_WARNING = "this code deletes every file in {folders}, but the request asks to delete only some."
BY_NAME_NOTE = ("Not run: this code deletes files picked by name, but the request asks for files of a kind and to "
                "keep the others. Write code that checks each file and deletes only the ones asked for.")
BY_NAME_WARNING = "this code deletes {paths} by name, but the request asks for files of a kind and to keep the others."
# A question changes nothing: code for one that overwrites or deletes an existing file is a slip (the
# 0.5B model, asked how many IPs were in access.log, copied its fix example and overwrote the log).
QUESTION_NOTE = ("Not run: this code changes {paths}, but the request only asks a question. Write code that "
                 "reads the files and prints the answer, without writing to any file.")
QUESTION_WARNING = "this code changes {paths}, but the request only asks a question."
# A request that does mean every file in a folder (and does not also say what to keep).
_WIPE_MEANT = re.compile(
    r"\beverything\b|\ball\s+(?:of\s+)?(?:the\s+|my\s+)?(?:files|contents)\b|\bevery\s+file\b|\bentire\b|\bwhole\b|"
    r"\bcontents\b|\bempty\s+(?:out\s+)?(?:the\s+|my\s+)?[\w.-]+\s+(?:folder|directory)\b", re.I)
_KEEPS = re.compile(r"\b(keep\w*|leav\w*|except|only|but not|others?)\b", re.I)


def _overreach(engine: "Engine", lang: str, code: str) -> tuple[str, str] | None:
    """(note for the model, warning for a person) when code for a deleting request deletes more
    than it asked (files it did not name, or every file in a folder when it asked for some), or
    code for a question changes a file that exists."""
    request = _request(engine)
    if not getattr(engine, "confirm_destructive", True):
        return None
    from oi_local.core.writes import changed_existing, question

    if question(request):
        changed = changed_existing(lang, code, Path.cwd())[:5]
        if changed:
            paths = ", ".join(changed)
            return QUESTION_NOTE.format(paths=paths), QUESTION_WARNING.format(paths=paths)
        return None
    if not _DESTROY.search(request):
        return None
    from oi_local.core.deletions import asked, deleted_paths, unasked_deletions, wiped_folders

    unasked = unasked_deletions(request, lang, code)[:5]
    if unasked:
        return UNASKED_NOTE.format(asked=asked(request)), UNASKED_WARNING.format(paths=", ".join(unasked))
    if not asked(request) and _KEEPS.search(request):
        # "the empty files ..., leave the others alone": files of a kind, found by checking each; a
        # list of names is the model guessing (the 0.5B model, told not to wipe a folder, listed
        # every file in it by name)
        named = deleted_paths(lang, code)[:5]
        if named:
            return BY_NAME_NOTE, BY_NAME_WARNING.format(paths=", ".join(named))
    wiped = wiped_folders(lang, code)[:3]
    if wiped and (_KEEPS.search(request) or not _WIPE_MEANT.search(request)):
        folders = ", ".join(f + "/" if not f.endswith("/") else f for f in wiped)
        return WIPE_NOTE.format(folders=folders), WIPE_WARNING.format(folders=folders)
    return None


GUARD_NOTE = (
    "Not run: this request asks to delete, wipe or encrypt files broadly, and code for such a request "
    "is never run without a confirmation, even with auto_run. To run it, turn auto_run off and confirm it."
)


def destructive_request(text: str) -> bool:
    """True for requests like "delete every file on this computer" or "wipe my home folder"."""
    kept = _KEEP.sub(" ", text)  # "keep everything else" names what stays, not what goes
    return bool(_DESTROY.search(kept) and _BROAD.search(kept))


def last_request(messages: list[Message]) -> str:
    """The text of the newest user message ("" if none)."""
    m = next((m for m in reversed(messages) if m["role"] == "user" and m["type"] == "message"), None)
    return str(m.get("content", "")) if m is not None else ""


def _request(engine: "Engine") -> str:
    return last_request(engine.messages)


def _may_retry(engine: "Engine") -> bool:
    """A failed run may be retried afresh, unless the request may be destructive: then a failure
    is where it stops (a retry would be a second try at wiping the files)."""
    return not _CAREFUL_WORDS.search(_request(engine))


# Requests a prose answer is right for: never pushed towards code.
_CHAT = re.compile(
    r"^\s*(hi|hello|hey|thanks|thank you|tell me (a|an|about)|write (me )?(a|an) (story|poem|joke|haiku|song|letter|email)|"
    r"explain|describe|summari[sz]e|why\b|what do you think)", re.I)


def _answered_from_memory(engine: "Engine") -> bool:
    """The first reply to a request has no code, though the request needs some (small models).

    Small models answer arithmetic, dates and questions about files from memory, wrongly. Not
    pushed: a reply that asks something back, a short chat message, a possibly destructive request.
    """
    if not getattr(engine, "code_first", None):
        return False
    reply = engine.messages[-1] if engine.messages else None
    if reply is None or reply["role"] != "assistant" or reply["type"] != "message":
        return False
    text, said = _request(engine), str(reply.get("content", "")).strip()
    if len(text.split()) < 4 or _CAREFUL_WORDS.search(text) or _CHAT.search(text):
        return False
    return not said.endswith("?")


RETRY_NOTE = (
    "(Write one ```python block that does this and prints the result. A first try failed with: "
    "{error} Write different code.)"
)
RETRY_TEMPERATURE = 0.7
# A failed run whose error note carries the model's code corrected (core/errors.py): a reply that
# only explains the error is asked once to run it. Shown the block in the newest message and with
# the fence prefilled, the 0.5B model copies it; left to itself, it explains the note back.
OFFER_NOTE = "Run the corrected code: reply with this ```python block.\n{block}"
_BLOCK = re.compile(r"```python\n.*?\n```", re.S)


MAX_FIX_ASKS = 3  # "not fixed yet" at most three times a turn: more only repeats itself


def _fix_targets(engine: "Engine") -> dict[Any, str]:
    """The scripts the request asks to fix, with their text before the turn (see core/fixes.py)."""
    request = _request(engine)
    if not getattr(engine, "check_fixes", True) or _CAREFUL_WORDS.search(request):
        return {}
    from oi_local.core.fixes import targets

    try:
        return targets(request)
    except OSError:
        return {}


def _newest_reply(engine: "Engine") -> Message | None:
    """The newest message when it is the model's prose reply, else None."""
    reply = engine.messages[-1] if engine.messages else None
    return reply if reply and reply["role"] == "assistant" and reply["type"] == "message" else None


def _asks_back(engine: "Engine") -> bool:
    """The newest reply is a question to the user ("Shall I save it?"): theirs to answer."""
    reply = _newest_reply(engine)
    return bool(reply and str(reply.get("content", "")).strip().endswith("?"))


def _code_prefix(engine: "Engine") -> dict[str, Any]:
    """When the loop asks for code, the reply may start with the fence already written: asked
    again for code, a small model still often writes prose about the error instead."""
    return {"reply_prefix": "```python\n"} if getattr(engine, "prefill_code", None) else {}


def _error_line(output: str) -> str:
    """The line of a failed run's output that names the error (e.g. "NameError: ...")."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip() and not ln.startswith("(exit code")]
    named = [ln for ln in lines if re.match(r"^[\w.]*(Error|Exception)\b|^\w+: ", ln)]
    # A script run with check=True fails twice: its own error says more than CalledProcessError.
    named = [ln for ln in named if "CalledProcessError" not in ln] or named
    return (named or lines or ["it exited with an error."])[-1][:200]


def respond(engine: "Engine", approve: Approver | None = None) -> Iterator[Message]:
    """Run the loop until the model answers without code (or a stopping rule fires)."""
    engine.hidden = None
    try:
        yield from _respond(engine, approve)
    finally:
        engine.hidden = None  # a new turn sees everything again


def _respond(engine: "Engine", approve: Approver | None) -> Iterator[Message]:
    steps = 0
    ran: list[tuple[str, str]] = []  # code run since the last user message
    outputs: list[str] = []
    missing_module = fix_nudged = False
    extra: str | None = None
    first = True
    turn_start = len(engine.messages)  # where this answer begins: a fresh start hides what follows
    failure: str | None = None  # the error of the latest failed run, until code runs cleanly
    retries = 0
    overreach = 0  # code not run because it would delete files the request did not name
    max_retries = int(getattr(engine, "fresh_retries", None) or 0)
    sampling: dict[str, Any] = {}
    fixing = _fix_targets(engine)  # scripts a fixing request names, as they were
    worked: list[str] = []  # python code that ran without error in this turn
    runs: list[tuple[str, str]] = []  # code and output of every run this turn
    offered: str | None = None  # the corrected code a failed run's note holds, until code runs cleanly
    offers: set[str] = set()  # corrected code already offered this turn (each is offered once)
    fix_asked = 0

    def fresh_retry() -> bool:
        """After a failed run a small model explains the error, makes up a result or sends the same
        code again (at temperature 0 it writes the same code). A fresh answer to the request alone
        (the failed attempt hidden), sampled, with the error named, often works."""
        nonlocal retries, extra, sampling
        if not (failure and retries < max_retries and steps < engine.max_code_steps and _may_retry(engine)):
            return False
        retries += 1
        extra = RETRY_NOTE.format(error=failure)
        sampling = {"temperature": RETRY_TEMPERATURE, "seed": retries, **_code_prefix(engine)}
        engine.hidden = (turn_start, len(engine.messages))
        return True

    def fix_ask() -> bool:
        """The request names a script to fix and it is not fixed yet (core/fixes.py): ask again.
        A note without a block to copy is answered sampled: at temperature 0 the 0.5B model sends
        the same wrong fix back each time."""
        nonlocal fix_asked, extra, sampling
        if not (fixing and fix_asked < MAX_FIX_ASKS and steps and steps < engine.max_code_steps):
            return False
        fix_asked += 1
        from oi_local.core.fixes import expected, follow_up

        extra = follow_up(fixing, worked, want=expected(_request(engine)), runs=runs)
        if not extra:
            return False
        sampling = _code_prefix(engine)
        if "```python\n" not in extra:  # no ready block to copy
            sampling |= {"temperature": RETRY_TEMPERATURE, "seed": fix_asked}
        return True

    while True:
        code_msgs: list[Message] = []
        yield from _assistant_turn(engine, code_msgs, extra_user=extra, **sampling)
        extra, sampling = None, {}
        if not code_msgs and first and _answered_from_memory(engine):
            # Asked once, afresh: the guess is left out of this prompt (shown the guess, the model
            # prints it), and the request is not stored, so the history stays the user's.
            first = False
            extra = CODE_FIRST_NUDGE
            sampling = _code_prefix(engine)
            engine.hidden = (turn_start, len(engine.messages))
            continue
        first = False
        if not code_msgs:
            if missing_module and not fix_nudged and steps < engine.max_code_steps:
                # Small models reach for pandas, then give up ("pandas is not installed"): ask
                # once, without storing the request, for a standard-library attempt.
                fix_nudged = True
                extra = MISSING_MODULE_NUDGE
                sampling = _code_prefix(engine)
                continue
            if offered and offered not in offers and steps < engine.max_code_steps:
                offers.add(offered)
                extra = OFFER_NOTE.format(block=offered)
                sampling = _code_prefix(engine)
                continue
            if fresh_retry():
                continue
            if not _asks_back(engine) and fix_ask():
                continue
            if engine.loop and _needs_loop_nudge(engine, steps):
                steps += 1
                engine.messages.append({"role": "user", "type": "message", "content": engine.loop_message})
                continue
            if steps and (_parroted(engine) or _ungrounded(engine, outputs[-1] if outputs else "")):
                engine.messages.pop()  # the example's answer, or none at all: asked once more
                yield from _final_answer(engine)
            return
        for code_msg in code_msgs:
            lang, code = code_msg.get("format") or "python", code_msg["content"]
            if lang == "python" and engine.computer.get_language("shell") is not None and is_shell_not_python(code):
                lang = code_msg["format"] = "shell"  # `chmod +x start.sh` sent as python (small models)
            if engine.computer.get_language(lang) is None:
                _append_output(engine, f"Language {lang!r} is not available here. Available: {', '.join(engine.language_names())}.", None)
                yield from _console_note(f"Language {lang!r} is not available here.")
                continue
            if (lang, code.strip()) in ran:
                # Small models re-send code that already ran instead of answering: end the task,
                # or after a failure, try a fresh sampled answer (see above).
                engine.messages.remove(code_msg)
                if fresh_retry() or fix_ask():
                    break
                yield from _final_answer(engine)
                return
            closed = code_msg.pop("closed", True)
            if code_msg.pop("degenerate", False):
                note = "The reply fell into an endless repetition and was stopped, so that code was not run."
                _append_output(engine, note, None)
                yield from _console_note(note)
                return
            if not closed and engine.llm.last_finish_reason == "length":
                note = "The reply was cut off (max_tokens) inside a code block, so the incomplete code was not run."
                _append_output(engine, note, None)
                yield from _console_note(note)
                return
            verdict = _review(engine, lang, code, getattr(engine, "safe_mode", "off"))
            if verdict.message:  # shown before the confirmation, and fed back to the model
                _append_output(engine, verdict.message, None)
                yield from _console_note(verdict.message)
            if verdict.blocked:
                return
            if approve is None and getattr(engine, "confirm_destructive", True) and destructive_request(_request(engine)):
                _append_output(engine, GUARD_NOTE, None)
                yield from _console_note(GUARD_NOTE)
                return
            too_much = _overreach(engine, lang, code)
            if too_much and approve is None:  # auto_run: not run, and the model hears why
                _append_output(engine, too_much[0], None)
                yield from _console_note("Not run: " + too_much[1])
                overreach += 1
                if overreach > 1:
                    return
                break
            if too_much:  # the person deciding sees it before the question
                yield from _console_note("Careful: " + too_much[1])
            yield chunk("computer", "confirmation", "execution", content={"type": "code", "format": lang, "content": code})
            decision = approve(code_msg) if approve is not None else "run"
            if isinstance(decision, tuple) and decision[0] == "run":
                code = code_msg["content"] = decision[1]
                verdict = _review(engine, lang, code, "off")  # edited code: forbidden commands again
                if verdict.blocked:
                    _append_output(engine, verdict.message, None)
                    yield from _console_note(verdict.message)
                    return
            elif decision != "run":
                _append_output(engine, "The user declined to run this code.", None)
                yield from _console_note("Code not run.")
                return
            output, advice = yield from _run(engine, lang, code)
            ran.append((lang, code.strip()))
            steps += 1
            missing_module = "ModuleNotFoundError: No module named" in output
            result = getattr(engine.computer, "last_result", None)
            # A run stopped by the user or a time limit is not an error to retry.
            failed = getattr(result, "exit_code", None) not in (None, 0) and not getattr(result, "interrupted", False)
            failure = _error_line(output) if failed else None
            if failure and advice:  # a fresh retry hears it too
                failure += "\n" + advice + "\n"
            found = _BLOCK.search(advice or "") if failure else None
            offered = found.group(0) if found else None
            if lang == "python" and getattr(result, "exit_code", None) in (None, 0) and not getattr(result, "interrupted", False):
                worked.append(code)
            repeated_output = bool(outputs) and output.strip() != "" and output.strip() == outputs[-1].strip()
            outputs.append(output)
            runs.append((code, output))
            if repeated_output:
                yield from _final_answer(engine)
                return
            if engine.one_block_per_turn:
                break
        if steps >= engine.max_code_steps:
            yield from _final_answer(engine, note=f"Stopped after {steps} code steps (max_code_steps).")
            return


def _assistant_turn(engine: "Engine", code_msgs: list[Message], extra_user: str | None = None, allow_code: bool = True,
                    **sampling: Any) -> Iterator[Message]:
    """Stream one model reply, storing message/code parts in engine.messages as they grow.

    Code blocks are collected in `code_msgs` (with a transient "closed" flag). With
    allow_code=False (the final-answer request) code is neither shown nor stored.
    """
    current: Message | None = None
    skipping = False
    try:
        for c in engine.stream_reply(extra_user=extra_user, **sampling):
            if c.get("type") == "code" and not allow_code:
                skipping = not c.get("end")
                continue
            if c.get("start"):
                current = {k: v for k, v in c.items() if k not in ("start", "end")}
                current["content"] = ""
                engine.messages.append(current)
                yield c
            elif c.get("end"):
                yield c
                if current is not None and current["type"] == "code":
                    current["closed"] = c.get("closed", True)
                    code_msgs.append(current)
                    if engine.one_block_per_turn:
                        return  # closing the stream stops generation: run this block first
                current = None
            else:
                if current is not None and isinstance(c.get("content"), str):
                    current["content"] += c["content"]
                    cut = _repetition_start(current["content"])
                    if cut is not None:
                        # Small models can fall into "99999..." or the same line forever: stop the
                        # generation (closing the stream cancels it) instead of paying for max_tokens.
                        current["content"] = current["content"][:cut] + " …"
                        yield c
                        yield {k: v for k, v in c.items() if k != "content"} | {"end": True}
                        if current["type"] == "code":
                            current.update(closed=False, degenerate=True)
                            code_msgs.append(current)
                        return
                yield c
    finally:
        del skipping
        # Drop parts left empty (e.g. cancelled before any text arrived).
        while engine.messages and engine.messages[-1].get("role") == "assistant" and engine.messages[-1].get("content") == "":
            engine.messages.pop()


REPEAT_SPAN = 160  # chars of strictly periodic text at the end of a reply that mean a degenerate loop
REPEAT_UNIT = 40  # longest repeated unit looked for (a short line)


def _repetition_start(text: str) -> int | None:
    """Where a degenerate repetition begins (keeping one copy of the unit), or None.

    It fires only when the last REPEAT_SPAN characters are one unit of 1-REPEAT_UNIT characters
    over and over; real code or prose is never that regular for so long.
    """
    if len(text) < REPEAT_SPAN:
        return None
    tail = text[-REPEAT_SPAN:]
    for p in range(1, REPEAT_UNIT + 1):
        if tail[p:] == tail[:-p]:
            i = len(text) - REPEAT_SPAN
            while i > 0 and text[i - 1] == text[i - 1 + p]:
                i -= 1
            return i + p
    return None


def _run(engine: "Engine", lang: str, code: str) -> Generator[Message, None, tuple[str, str | None]]:
    """Run code, streaming its output; returns (the output text, the error note added to it or None)."""
    yield chunk("computer", "console", start=True)
    out_msg: Message | None = None
    images = 0
    text_parts: list[str] = []
    result = None
    advice: str | None = None
    try:
        for c in engine.computer.run(lang, code, stream=True):
            c = dict(c)
            c.setdefault("role", "computer")
            if c.get("type") == "console" and c.get("format") == "output":
                if out_msg is None:
                    out_msg = {"role": "computer", "type": "console", "format": "output", "content": ""}
                    engine.messages.append(out_msg)
                out_msg["content"] += c.get("content") or ""
                text_parts.append(c.get("content") or "")
            elif c.get("type") == "image":
                images += 1
                engine.messages.append({k: v for k, v in c.items() if k not in ("start", "end")})
                out_msg = None  # output after an image starts a new message
            yield c
    finally:
        result = getattr(engine.computer, "last_result", None)
        code_exit = getattr(result, "exit_code", None)
        if code_exit not in (None, 0):
            note = f"\n(exit code {code_exit})"
            if out_msg is None:
                out_msg = {"role": "computer", "type": "console", "format": "output", "content": ""}
                engine.messages.append(out_msg)
            out_msg["content"] = out_msg["content"].rstrip("\n") + note
            out_msg["exit_code"] = code_exit
            text_parts.append(note)
            advice = _error_advice(engine, lang, out_msg["content"], code)
            if advice:
                out_msg["content"] += "\n" + advice
        if out_msg is None and not images:
            # Silent code still gets an (empty) output message, so the model is told it ran
            # (empty_code_output_template) instead of seeing its own code as the last word.
            engine.messages.append({"role": "computer", "type": "console", "format": "output", "content": ""})
    if advice:  # shown as it is stored, so the person sees what the model was told
        yield chunk("computer", "console", "output", content="\n" + advice + "\n")
    end = chunk("computer", "console", end=True)
    if result is not None:
        end["exit_code"] = getattr(result, "exit_code", None)
    yield end
    return "".join(text_parts), advice


def _error_advice(engine: "Engine", lang: str, output: str, code: str = "") -> str | None:
    """A line on what to do about a failed run's error (core/errors.py), when the prompt set asks."""
    if lang != "python" or not getattr(engine, "error_notes", None):
        return None
    from oi_local.core.errors import note

    try:
        return note(output, _request(engine), code=code)
    except OSError:
        return None


def _review(engine: "Engine", lang: str, code: str, mode: str) -> Any:
    from oi_local.computer.safety import review

    return review(lang, code, mode, getattr(engine, "forbidden_commands", None))


def _append_output(engine: "Engine", text: str, exit_code: int | None) -> None:
    engine.messages.append({"role": "computer", "type": "console", "format": "output", "content": text})


def _console_note(text: str) -> Iterator[Message]:
    yield chunk("computer", "console", start=True)
    yield chunk("computer", "console", "output", content=text + "\n")
    yield chunk("computer", "console", end=True)


def _final_answer(engine: "Engine", note: str | None = None) -> Iterator[Message]:
    """Ask once for a plain-language answer; never run code from this reply."""
    if note:
        yield chunk("assistant", "message", start=True)
        yield chunk("assistant", "message", content=note + "\n")
        yield chunk("assistant", "message", end=True)
        engine.messages.append({"role": "assistant", "type": "message", "content": note + "\n"})
    before = len(engine.messages)
    yield from _assistant_turn(engine, [], extra_user=FINAL_ANSWER_NUDGE, allow_code=False)
    if len(engine.messages) > before and _parroted(engine):
        engine.messages.pop()
    said = any(m["role"] == "assistant" and m["type"] == "message" and m["content"].strip() for m in engine.messages[before:])
    if not said:
        # The model would only write code: report the last output ourselves so the user gets an answer.
        last = next((m["content"] for m in reversed(engine.messages) if m["role"] == "computer" and m["type"] == "console"), "")
        text = f"Result:\n{last.strip()}" if last.strip() else "Done."
        yield chunk("assistant", "message", start=True)
        yield chunk("assistant", "message", content=text)
        yield chunk("assistant", "message", end=True)
        engine.messages.append({"role": "assistant", "type": "message", "content": text})


def _parroted(engine: "Engine") -> bool:
    """The newest reply is word for word an answer from the template's worked examples (the 0.5B
    model answered a file deletion with "1234 * 5678 is 7006652.")."""
    reply = _newest_reply(engine)
    if not reply:
        return False
    said = " ".join(str(reply.get("content", "")).split())
    return bool(said) and any(
        e.get("role") == "assistant" and " ".join(str(e.get("content", "")).split()) == said
        for e in (getattr(engine, "examples", None) or []))


_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_][\w.@-]*\w", re.U)
MAX_SHORT_OUTPUT = 200
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}


def _tokens(text: str) -> set[str]:
    found = set()
    for t in _TOKEN.findall(text):
        t = _NUMBER_WORDS.get(t.lower(), t)  # "One row." says 1
        if t[0].isdigit():  # 2300.0, 2300 and 2,300 are one number
            t = t.replace(",", "")
            t = t.rstrip("0").rstrip(".") if "." in t else t
        if len(t) >= 3 or t.isdigit():
            found.add(t.lower())
    return found


def _ungrounded(engine: "Engine", output: str) -> bool:
    """A question answered without its result: the last run printed a short result ("Dana 2300.0")
    and the reply says none of it ("The output is correct. The code converts the salary...")."""
    from oi_local.core.writes import question

    reply = _newest_reply(engine)
    result = getattr(engine.computer, "last_result", None)
    if (not reply or _asks_back(engine) or not output.strip() or len(output) > MAX_SHORT_OUTPUT
            or getattr(result, "exit_code", 0) not in (None, 0)):
        return False
    request = _request(engine)
    if not question(request):
        return False
    printed = _tokens(output) - _tokens(request)
    said = _tokens(str(reply.get("content", "")))
    return bool(printed) and not printed & said and not any(_same_number(a, b) for a in printed for b in said)


def _same_number(printed: str, said: str) -> bool:
    """1.4166666 printed, "about 1.42" said: the same number, rounded."""
    try:
        x, y = float(printed), float(said)
    except ValueError:
        return False
    places = len(said.split(".")[1]) if "." in said else 0
    return round(x, places) == y


def _needs_loop_nudge(engine: "Engine", steps: int) -> bool:
    """Loop mode: keep going until the model says it is done (or gives up), within the cap."""
    if steps >= engine.max_code_steps:
        return False
    last = next((m for m in reversed(engine.messages) if m["role"] == "assistant" and m["type"] == "message"), None)
    if last is None or not last["content"].strip():
        return steps < 2  # an empty reply: nudge, but not forever
    text = last["content"].lower()
    return not any(phrase.lower() in text for phrase in engine.loop_breakers)
