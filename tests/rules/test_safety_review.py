from __future__ import annotations

from oi_local.core.rules import safety_review

from .handmade import block, make_turn


def test_a_forbidden_command_is_refused_in_every_mode_and_after_an_edit() -> None:
    turn = make_turn("Clean up")
    for hook in (safety_review.check, safety_review.recheck):
        verdict = hook(turn, block("rm -rf / --no-preserve-root", lang="shell"))
        assert verdict is not None and verdict.stop and "forbidden command" in verdict.note
    assert safety_review.check(turn, block("ls -la", lang="shell")) is None


def test_the_users_own_list_replaces_the_built_in_one() -> None:
    turn = make_turn("Clean up")
    turn.engine.forbidden_commands = [r"\bls\b"]  # type: ignore[attr-defined]
    verdict = safety_review.check(turn, block("ls -la", lang="shell"))
    assert verdict is not None and verdict.stop
    turn.engine.forbidden_commands = []  # type: ignore[attr-defined]
    assert not safety_review.switched_on(turn.engine)
    turn.engine.safe_mode = "ask"  # type: ignore[attr-defined]
    assert safety_review.switched_on(turn.engine)  # semgrep still reviews
