"""Loop mode (`interpreter.loop`): keep going until the model says it is done (or gives up), within
max_code_steps; the nudge is stored as the user's message, as in the original."""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn


def follow_up(turn: Turn) -> Ask | None:
    engine = turn.engine
    if not turn.steps_left:
        return None
    last = next((m for m in reversed(engine.messages) if m["role"] == "assistant" and m["type"] == "message"), None)
    if last is None or not last["content"].strip():
        go_on = turn.steps < 2  # an empty reply: nudge, but not forever
    else:
        text = last["content"].lower()
        go_on = not any(phrase.lower() in text for phrase in engine.loop_breakers)
    return Ask(engine.loop_message, store=True) if go_on else None


rule = Rule(
    name="loop mode", setting="loop", follow_up=follow_up,
    summary="the model is told to go on until it says one of `interpreter.loop_breakers` (\"The task is done.\"), "
            "within `max_code_steps`; off unless `interpreter.loop = True` (`--loop`)")
