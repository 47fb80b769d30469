"""The contract of a loop rule: a name, the setting that switches it off, its README line, and
optional hooks at the points a turn has (see `Rule`). The loop (core/loop.py) calls the hooks of
the rules that are on, in the order of `RULES` (core/rules/__init__.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.core.rules.turn import Block, Turn

OFF = (None, False, 0, "", "off")  # setting values that mean "off" unless a rule says otherwise


@dataclass(frozen=True)
class Addition:
    """What a rule adds to the prompt before it is sent (never stored in `messages`)."""
    hint: str = ""  # appended to the newest request
    examples: tuple[dict[str, str], ...] = ()  # worked examples before the conversation, dropped first when short
    request: str | None = None  # the request as the model sees it, when not as the user wrote it


@dataclass(frozen=True)
class Verdict:
    """A rule's word on a code block about to run. An empty verdict changes nothing."""
    note: str = ""  # told to the model (stored as the block's output) and shown
    shown: str = ""  # shown to the person instead of `note`
    warning: str = ""  # shown only (e.g. before a confirmation); the code may still run
    stop: bool = False  # not run; the turn ends
    again: bool = False  # not run; the model is asked again
    repeated: bool = False  # code that already ran: dropped; a follow-up or the final answer
    ask: "Ask | None" = None  # not run; the loop makes this request instead
    answer: bool = False  # not code: the block's text is the model's answer (said in a code fence)


@dataclass(frozen=True)
class Ask:
    """A request to the model that the loop makes itself (never stored, unless `store`)."""
    text: str | None = None
    sampling: dict[str, Any] = field(default_factory=dict)  # temperature, seed, reply_prefix
    hide: bool = False  # the turn so far is left out of prompts from now on (a fresh start)
    store: bool = False  # kept in `messages` as the user's and counted as a step (loop mode)
    final: bool = False  # the reply is dropped and a plain final answer asked for (in `text`, when given)
    drop_recipes: bool = False  # the worked examples picked for the request are left out for the rest of the turn
    ready: bool = False  # the loop's own corrected code: sent even when max_failed_runs is reached (a fix, not a guess)
    own: bool = False  # the offered block is the loop's own whole code, not the model's mended: only guards check it


@dataclass(frozen=True)
class Rule:
    """One rule. Hooks left None are not called; none is called while the setting is off."""
    name: str
    setting: str  # the engine attribute that switches the rule off
    summary: str  # the README's line (README.md, "Small models"; tests/rules/test_registry.py)
    off: Any = False  # the value of `setting` that turns the rule off
    # -- hooks, in the order a turn meets them --
    start: Callable[["Turn"], None] | None = None  # the turn begins
    prompt: Callable[[Any, str, str], Addition | None] | None = None  # (engine, request, earlier request)
    cut: Callable[[str], int | None] | None = None  # a reply streams: where to stop it, or None
    language: Callable[["Turn", "Block"], str | None] | None = None  # a block's language, corrected
    check: Callable[["Turn", "Block"], Verdict | None] | None = None  # a block is about to run
    recheck: Callable[["Turn", "Block"], Verdict | None] | None = None  # a person edited the block
    on_failure: Callable[["Turn", str, str, str], str | None] | None = None  # (lang, code, output): a note
    after_run: Callable[["Turn"], Ask | None] | None = None  # a block ran
    follow_up: Callable[["Turn"], Ask | None] | None = None  # a reply without code
    discard: Callable[["Turn"], bool] | None = None  # the final answer is not one to keep
    finish: Callable[["Turn"], str | None] | None = None  # the turn ended: a last line to say, or None
    after_repeat: bool = False  # `follow_up` is also asked when the model re-sends code that ran
    at_failure: bool = False  # `follow_up` is also asked right after a failed run, before the model replies
    # (when the engine's `retry_at_once` is on: see core/loop.py)
    switched_on: Callable[[Any], bool] | None = None  # when one setting value is not enough
    guards: bool = False  # `check` also looks at the loop's own code (Ask.own): a safety or record rule

    def enabled(self, engine: Any) -> bool:
        if self.switched_on is not None:
            return self.switched_on(engine)
        return getattr(engine, self.setting, None) not in OFF


@dataclass(frozen=True)
class StopAndSay:
    """The check and finish of a rule that ends a turn on what the data lacks: once a turn, when
    `found(request, cwd)` gives (note, said), the code is not run, `note` is shown, and the turn ends
    saying `said`. A file that cannot be read finds nothing."""
    name: str  # the turn's count and state key
    found: Callable[[str, Path], tuple[str, str] | None]

    def check(self, turn: "Turn", block: "Block") -> Verdict | None:
        if turn.counts[self.name]:
            return None
        try:
            got = self.found(turn.request, Path.cwd())
        except OSError:
            return None
        if got is None:
            return None
        turn.counts[self.name] += 1
        turn.state[self.name] = got[1]
        return Verdict(note=got[0], stop=True)

    def finish(self, turn: "Turn") -> str | None:
        said = turn.state.get(self.name)
        return str(said) if said else None
