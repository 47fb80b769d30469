"""A turn's state (from the user's message to the model's last reply), as the rules see it, and the
small readings of it that several rules share."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oi_local.core.lmc import Message
from oi_local.core.pycheck import rewrite  # noqa: F401 (the rules take it from here)

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.core.engine import Engine

# A request with one of these words may be destructive: a reply without code there is a refusal or
# a question, and is never pushed towards code (nor retried, nor asked to fix again).
CAREFUL_WORDS = re.compile(
    r"\b(delet\w*|remov\w*|wipe\w*|eras\w*|format\w*|encrypt\w*|destroy\w*|rm|shred\w*|kill\w*|"
    r"clean\w*|clear\w*|free|overwrit\w*|drop\w*|uninstall\w*|reset\w*|truncat\w*)\b", re.I)
LONG = 600  # characters: a longer request is mostly pasted text (a manual, a log), not the person's words


OWN_WORDS = 600  # characters: the user's words before or after the pasted text are at most this long
_ASKS = re.compile(r"\?|^\W*(?:what|which|how|who|whom|when|where|why|can|could|would|will|please|count|find|list|"
                   r"tell|give|show|sum|total|summari[sz]e|make|write|check|is|are|was|were|do|does|did|ok|okay|so|now)\b",
                   re.I | re.M)


def _own(lines: list[str]) -> int:
    """How many of `lines` (read from their start) are the user's words: the first paragraph if short,
    else the first line if it is short and leads into the pasted text ("...in this log:")."""
    blank = next((i for i, ln in enumerate(lines) if not ln.strip()), len(lines))
    if 0 < blank <= 4 and len("\n".join(lines[:blank])) <= OWN_WORDS:
        return blank
    first = lines[0].rstrip() if lines else ""
    return 1 if len(first) <= OWN_WORDS // 2 and first.endswith(":") else 0


def split(request: str) -> tuple[str, str, str] | None:
    """(the user's words before, the pasted text, the user's words after), or None when the message
    has no question or instruction of its own outside a pasted part."""
    lines = request.strip("\n").splitlines()
    head = _own(lines)
    rest = lines[head:]
    tail = _own(rest[::-1])
    if not tail and rest and len(rest[-1]) <= OWN_WORDS // 2 and _ASKS.search(rest[-1]):
        tail = 1  # a last line that asks ("How many are there?")
    before, after = "\n".join(lines[:head]).strip(), "\n".join(rest[len(rest) - tail:]).strip()
    pasted = "\n".join(rest[:len(rest) - tail]).strip("\n")
    if tail and not _ASKS.search(after):  # a short last paragraph of the pasted text, not a question
        pasted, after = (pasted + "\n\n" + after).strip("\n"), ""
    if not _ASKS.search(before + "\n" + after) or len(pasted) < len(request) // 2:
        return None
    return before, pasted, after


def own_words(request: str) -> str | None:
    """The person's words around the text a long request pastes (split), or None when it has none."""
    parts = split(request) if len(request) > LONG else None
    return (parts[0] + "\n\n" + parts[2]).strip() if parts else None


def instruction(request: str) -> str:
    """The person's own words in a request: all of a short one; of a long one (a manual pasted with a
    question) the words around the pasted text, else its first and last paragraphs, where people write
    what they want. A pasted 20,000-character manual says "remove" and "clean" somewhere, and every
    retry was off for it; a pasted log's first paragraph is the log."""
    if len(request) <= LONG:
        return request
    own = own_words(request)
    if own:
        return own
    parts = [p for p in re.split(r"\n\s*\n", request.strip()) if p.strip()]
    return parts[0][:LONG // 2] + "\n\n" + parts[-1][-LONG:] if len(parts) > 1 else request[:LONG // 2] + "\n\n" + request[-LONG // 2:]


# Sentences end at . ! ? and at line breaks: after pasted lines with no such marks (a log, a list)
# the "last sentence" was the whole paste, and a word in it ("backup") made the question a task.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")


def asks_something(request: str) -> bool:
    """The request's last sentence asks a question ("I wrote it down somewhere. Can you find it?"), or
    an earlier one does and the rest only says how ("... an hour or less? skip any i've lent"): a task
    phrased as one ("Can you copy a.csv into backup?") does not count (core/writes.py)."""
    from oi_local.core.writes import question

    sentences = [s for s in _SENTENCE_END.split(request.strip()) if s.strip()]
    if sentences and question(sentences[-1]):
        return True
    # A question with a condition after it ("which games take an hour or less? skip any i've lent"):
    # a question sentence, and nothing in the whole request asks for a change.
    return any(question(s) for s in sentences[:-1]) and question(request)


SHELLS = ("shell", "bash", "sh", "zsh")  # the names a shell block's language goes by
READY_BLOCK = re.compile(r"```(?:python|shell)\n.*?\n```", re.S)  # a ready block in a note the loop gives the model


def careful(request: str) -> bool:
    """The request may ask for something destructive (CAREFUL_WORDS in the person's own words, not
    said not to be done: "don't delete the originals" asks for a copy, and read as careful its copy
    that made no backup folder was never asked again)."""
    from oi_local.core.writes import unnegated

    return bool(CAREFUL_WORDS.search(_ADJECTIVE.sub(" ", unnegated(instruction(request)))))


# "a cleaned-up list", "the clean copy": a thing to make, not a folder to clean. Read as careful, "save a cleaned-up list
# ... to signups_clean.txt" ended "not done: signups_clean.txt was not created" unasked (ho58, session 59's start).
_ADJECTIVE = re.compile(r"\b(?:a|an|the|my|our|new)\s+(?:clean(?![- ]?up)|cleaned(?:[- ]up)?)(?=\s+[a-z])", re.I)


RETRY_TEMPERATURE = 0.7  # the loop's asks that must not get the same answer again are sampled


@dataclass
class Block:
    """A code block of the model's reply, about to run."""
    message: Message  # the stored code message (its language and code may be corrected)
    closed: bool = True  # the fence was closed (else the reply may have been cut off)
    degenerate: bool = False  # the reply fell into an endless repetition inside it

    @property
    def lang(self) -> str:
        return self.message.get("format") or "python"

    @property
    def code(self) -> str:
        return str(self.message["content"])


@dataclass(frozen=True)
class Run:
    """One run of code in this turn."""
    lang: str
    code: str
    output: str  # what it printed, with an "(exit code N)" line when it failed
    exit_code: int | None = None
    interrupted: bool = False  # stopped by the user or a time limit: not an error to retry
    note: str | None = None  # the note a rule added to its output (core/errors.py)
    written: str = ""  # the code as the model wrote it, when a rule mended it before it ran

    @property
    def failed(self) -> bool:
        return self.exit_code not in (None, 0) and not self.interrupted


@dataclass
class Turn:
    engine: "Engine"
    approve: Any = None  # None: no one confirms code (auto_run, or no one to ask)
    start: int = 0  # where this turn's messages begin
    steps: int = 0  # code runs (and loop-mode nudges), capped by engine.max_code_steps
    first: bool = True  # the model has not replied yet
    repeated: bool = False  # follow-ups are asked because the model re-sent code that ran
    # messages [a, b) left out of prompts, the note shown instead (and, with a fourth index, all from there on)
    hidden: tuple[Any, ...] | None = None
    recipes: bool = True  # the worked examples picked for the request are in the prompt
    runs: list[Run] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)  # how often each rule acted this turn
    state: dict[str, Any] = field(default_factory=dict)  # anything else a rule keeps for the turn
    notes: list[str] = field(default_factory=list)  # what the loop itself told the model (rules' notes)
    not_run: str | None = None  # why the newest code was not run, when a rule refused it (as shown)

    @property
    def request(self) -> str:
        return last_request(self.engine.messages)

    @property
    def earlier_request(self) -> str:
        """The user message before the newest ("" if none): a follow-up ("put those Berlin people's
        emails into berlin_emails.txt") often names no file, the one before did."""
        asked = [m for m in self.engine.messages if m["role"] == "user" and m["type"] == "message"]
        return str(asked[-2].get("content", "")) if len(asked) > 1 else ""

    @property
    def steps_left(self) -> bool:
        return self.steps < self.engine.max_code_steps and not self.failed_out

    @property
    def failures(self) -> int:
        """Failed tries: failed runs, and replies stopped as an endless repetition (their code was not
        run; the 0.5B model's next tries after one failed too, and took 9 s of a 30-task run)."""
        return sum(r.failed for r in self.runs) + self.counts["degenerate"]

    @property
    def failed_out(self) -> bool:
        """As many tries failed as `max_failed_runs` allows a turn (0 or None: no such limit)."""
        cap = int(getattr(self.engine, "max_failed_runs", None) or 0)
        return cap > 0 and self.failures >= cap

    @property
    def failure(self) -> str | None:
        """The latest run's error line (and note), when it failed."""
        last = self.runs[-1] if self.runs else None
        if last is None or not last.failed:
            return None
        return error_line(last.output) + ("\n" + last.note + "\n" if last.note else "")

    def hide(self, note: str | None = None) -> None:
        """From now on the model starts afresh: what this turn said so far stays out of prompts, and
        `note` (the loop's ask) stays where it was said, after the request."""
        self.hidden = (self.start, len(self.engine.messages), note)

    def hide_after(self, message: Any) -> None:
        """From now on prompts end the turn at `message` (a run's output): what came after it stays out."""
        messages = self.engine.messages
        at = next((i for i, m in enumerate(messages) if m is message), None)
        if at is not None:
            self.hidden = (at + 1, len(messages), None)


def last_request(messages: list[Message]) -> str:
    """The text of the newest user message ("" if none)."""
    m = next((m for m in reversed(messages) if m["role"] == "user" and m["type"] == "message"), None)
    return str(m.get("content", "")) if m is not None else ""


def newest_reply(engine: Any) -> Message | None:
    """The newest message when it is the model's prose reply, else None."""
    reply = engine.messages[-1] if engine.messages else None
    return reply if reply and reply["role"] == "assistant" and reply["type"] == "message" else None


def asks_back(engine: Any) -> bool:
    """The newest reply is a question to the user ("Shall I save it?"): theirs to answer."""
    reply = newest_reply(engine)
    return bool(reply and str(reply.get("content", "")).strip().endswith("?"))


def code_retry(engine: Any, seed: int) -> dict[str, Any]:
    """The sampling of an ask for new code that must not be the same answer again: sampled, seeded,
    the fence prefilled where that is on."""
    return {"temperature": RETRY_TEMPERATURE, "seed": seed, **code_prefix(engine)}


def code_again(engine: Any, note: str, seed: int) -> Any:
    """The ask after a block a rule refused (`note`, "Not run: ..."): one code block, sampled and its fence
    prefilled. Asked again plainly, the 0.5B model explained the note in prose and the turn ended."""
    from oi_local.core.rules.base import Ask

    why = note.split(": ", 1)[-1]
    return Ask(f"(Write one ```python block that does what I asked. The last try was not run: {why})", code_retry(engine, seed))


def code_prefix(engine: Any) -> dict[str, Any]:
    """When the loop asks for code, the reply may start with the fence already written: asked
    again for code, a small model still often writes prose about the error instead."""
    return {"reply_prefix": "```python\n"} if getattr(engine, "prefill_code", None) else {}


def block_prefix(engine: Any, block: str) -> dict[str, Any]:
    """When the loop asks the model to send a ready ```python block back, the reply may start with
    that block whole: told "reply with this block", the 0.5B model sent it back in 34 of 58 recorded
    asks, and rewrote it (often wrongly) in the others."""
    return {"reply_prefix": block.rstrip("\n") + "\n"} if getattr(engine, "prefill_code", None) else {}


def own_code(engine: Any, text: str, code: str, how: str = "This block does it; reply with it.") -> Any:
    """The ask that offers the loop's own whole code for a request (`Ask.own`): the block in the text and,
    where the back end allows, as the reply's start; sent even past max_failed_runs (`Ask.ready`)."""
    from oi_local.core.rules.base import Ask

    block = f"```python\n{code}\n```"
    return Ask(f"{text} {how}\n{block})", block_prefix(engine, block), hide=True, ready=True, own=True)


def error_line(output: str) -> str:
    """The line of a failed run's output that names the error (e.g. "NameError: ...")."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip() and not ln.startswith("(exit code")]
    named = [ln for ln in lines if re.match(r"^[\w.]*(Error|Exception)\b|^\w+: ", ln)]
    # A script run with check=True fails twice: its own error says more than CalledProcessError.
    named = [ln for ln in named if "CalledProcessError" not in ln] or named
    return (named or lines or ["it exited with an error."])[-1][:200]


def printed_numbers(output: str) -> set[float]:
    """The numbers a run printed (its first 5,000 characters; "1,234.5" as 1234.5), for rules that look for a figure."""
    return {float(n.replace(",", "")) for n in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])", output[:5000])}


def last_words(turn: Turn) -> str:
    """What the model said after the turn's last run (or in the whole turn, if nothing ran)."""
    messages = turn.engine.messages[turn.start:]
    last_output = max((i for i, m in enumerate(messages) if m["role"] == "computer"), default=-1)
    said = [str(m.get("content", "")) for m in messages[last_output + 1:]
            if m["role"] == "assistant" and m["type"] == "message"]
    return "\n".join(said)
