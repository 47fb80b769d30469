"""Repeated output: a run that prints what the run before it printed ends the task with one last
request for a plain answer (small models print the result again instead of saying it)."""
from __future__ import annotations

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn


def after_run(turn: Turn) -> Ask | None:
    if len(turn.runs) < 2:
        return None
    now, before = turn.runs[-1].output.strip(), turn.runs[-2].output.strip()
    return Ask(final=True) if now and now == before else None


rule = Rule(
    name="repeated output", setting="stop_repeats", after_run=after_run,
    summary="a run that prints the same as the run before it ends the task with one request for a plain answer")
