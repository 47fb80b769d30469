"""Time zones: a time in one place asked in another is converted with the tz database, follow-ups too."""
from __future__ import annotations

from scripted import scripted_interpreter

from oi_local.core.rules import time_zones

from .handmade import block, make_turn

ASK = "I have a call at 3:30pm London time on Friday 14 March 2025. What time is that for my colleague in New York?"
# the 0.5B model's last try (ho42): two mktime tuples subtracted
MKTIME = ("import time\nstart = time.mktime((14, 3, 2025, 3, 30, 0, 0, 0, 0))\nend = time.mktime((14, 3, 2025, 1, 1, 0, 0, 0, 0))\n"
          "print((end - start) // 60)")


def test_the_call_in_new_york_then_tokyo() -> None:
    code = f"```python\n{MKTIME}\n```"
    interp, model = scripted_interpreter([code, "11:30 in New York.", code, "00:30 on Saturday in Tokyo."])
    interp.template = "small"
    try:
        first = interp.chat(ASK, display=False)
        second = interp.chat("And for the one in Tokyo?", display=False)
    finally:
        interp.close()
    said = [str(m["content"]) for m in first + second if m["type"] == "console"]
    assert any("15:30 (03:30 PM) in London is Friday 14 March 2025, 11:30 (11:30 AM) in New York" in s for s in said)
    assert any("in London is Saturday 15 March 2025, 00:30 (12:30 AM) in Tokyo" in s for s in said)  # summer time not yet there
    assert not any("-149" in s for s in said)


def test_which_place_is_where_the_time_is_and_what_is_left_alone() -> None:
    found = time_zones.asked("what time is it in Sydney when it's 9am in Berlin on 1 July 2025?", "")
    assert found is not None and found["src"][0] == "Berlin" and found["dst"][0] == "Sydney" and found["day"] == (2025, 7, 1)
    india = time_zones.asked("Convert 18:45 UTC on 2025-11-02 to India time", "")
    assert india is not None and india["dst"][1] == "Asia/Kolkata"
    for request in ("How many minutes is 3:30 to 5:15?", "The meeting in Paris is at 9am, I fly from London",
                    "what's the weather in London at 3pm?"):
        assert time_zones.asked(request, "") is None, request
    zoned = "from zoneinfo import ZoneInfo\nprint(ZoneInfo('Europe/London'), ZoneInfo('America/New_York'))"
    assert time_zones.check(make_turn(ASK), block(zoned)) is None
    # The follow-up's code that converts to the place before, not the one asked now, gets the code that does (ho42)
    follow = make_turn(ASK, {"role": "assistant", "type": "message", "content": "11:30 in New York."})
    follow.engine.messages.append({"role": "user", "type": "message", "content": "And for the one in Tokyo?"})
    verdict = time_zones.check(follow, block(zoned))
    assert verdict is not None and verdict.ask is not None and "Asia/Tokyo" in (verdict.ask.text or "")


def test_the_new_york_code_sent_again_for_tokyo_gets_the_tokyo_code() -> None:
    new_york = time_zones.ready_code(time_zones.asked(ASK, "") or {})
    interp, model = scripted_interpreter([f"```python\n{MKTIME}\n```", "11:30 in New York.",
                                          f"```python\n{new_york}\n```", "00:30 on Saturday in Tokyo."])
    interp.template = "small"
    try:
        interp.chat(ASK, display=False)
        second = interp.chat("And for the one in Tokyo?", display=False)
    finally:
        interp.close()
    said = [str(m["content"]) for m in second if m["type"] == "console"]
    assert any("in London is Saturday 15 March 2025, 00:30 (12:30 AM) in Tokyo" in s for s in said), said
