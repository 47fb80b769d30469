"""A Turn built by hand around a real Engine (no model, no loop), for testing one rule alone."""
from __future__ import annotations

from typing import Any

from oi_local.core.engine import Engine
from oi_local.core.rules.turn import Block, Run, Turn


def make_turn(request: str, *after: dict[str, Any], runs: tuple[Run, ...] = (), approve: Any = None,
              **settings: Any) -> Turn:
    """A turn for `request`, with the messages `after` it and the `runs` it made so far."""
    engine = Engine(**settings)
    engine.messages = [{"role": "user", "type": "message", "content": request}, *after]
    turn = Turn(engine, approve, start=1)
    turn.runs.extend(runs)
    turn.steps = len(runs)
    return turn


def reply(text: str) -> dict[str, Any]:
    return {"role": "assistant", "type": "message", "content": text}


def block(code: str, lang: str = "python", **flags: Any) -> Block:
    return Block({"role": "assistant", "type": "code", "format": lang, "content": code}, **flags)


def failed(code: str, output: str, note: str | None = None, lang: str = "python") -> Run:
    return Run(lang, code, output + "\n(exit code 1)", 1, False, note)


def ran(code: str, output: str, lang: str = "python", written: str = "") -> Run:
    return Run(lang, code, output, 0, written=written)


def printed(code: str) -> str:
    """What `code` prints, run in this process (for rules that rewrite code before it runs)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})
    return out.getvalue().strip()


def scripted_chat(replies: list[str], request: str, **settings: Any) -> list[dict[str, Any]]:
    """The messages of one chat with the scripted model (its `replies` in turn) on the small template."""
    from scripted import scripted_interpreter

    interp, _model = scripted_interpreter(replies)
    interp.template = "small"
    for name, value in settings.items():
        setattr(interp, name, value)
    try:
        return interp.chat(request, display=False)
    finally:
        interp.close()
