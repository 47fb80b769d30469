"""The loop as a driver of the rules: what it stores when a rule stops a block (core/loop.py)."""
from __future__ import annotations

from scripted import scripted_interpreter

FOUR = "```python\nprint(2 + 2)\n```"


def test_code_sent_again_drops_that_message_not_an_equal_one_from_an_earlier_turn() -> None:
    interp, model = scripted_interpreter([FOUR, "It is 4.", FOUR, FOUR, "Still 4."], conversation_history=False)
    try:
        interp.chat("Print 2 + 2 for me please", display=False)
        interp.chat("Print 2 + 2 for me again", display=False)
        kinds = [(m["role"], m["type"]) for m in interp.messages]
        # Turn 1 keeps its code; turn 2 keeps the code it ran, and the re-sent copy is gone.
        assert kinds == [("user", "message"), ("assistant", "code"), ("computer", "console"), ("assistant", "message"),
                         ("user", "message"), ("assistant", "code"), ("computer", "console"), ("assistant", "message")]
        assert model.calls == 5
    finally:
        interp.close()


def test_a_block_in_a_language_that_is_not_here_is_stored_without_the_loops_flags() -> None:
    interp, _ = scripted_interpreter(["```javascript\nconsole.log(1)\n```", "No JavaScript here."], conversation_history=False)
    interp.computer.languages = [lang for lang in interp.computer.languages if getattr(lang, "name", "") != "javascript"]
    try:
        interp.chat("Print one with JavaScript", display=False)
        code = next(m for m in interp.messages if m["type"] == "code")
        assert code == {"role": "assistant", "type": "code", "format": "javascript", "content": "console.log(1)"}
        assert "not available here" in interp.messages[interp.messages.index(code) + 1]["content"]
    finally:
        interp.close()
