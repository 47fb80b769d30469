"""Local data: asked which volunteer in volunteers.csv lives nearest the boathouse, the 0.5B model's code
called a weather web service with "your_api_key" and the turn ended on a name-resolution error (ho44, a
development run of session 46). Code that goes to the internet (requests, urllib, http.client, httpx,
a socket) for a request that names a file or folder that is here, and asks for nothing online, is not
run; the model is told the data is in that file (once a turn)."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.offline import NEEDS
from oi_local.core.rules.turn import Block, Turn, code_again, instruction

NOTE = ("Not run: this code goes to the internet{host}, but what the request asks about is in {files} here (and code "
        "here has no network). Read {first} and work it out from what it holds.")
_NETWORK = re.compile(r"\brequests\.(?:get|post|put|request|Session)\b|\burlopen\(|\burllib\.request\b|"
                      r"\bhttp\.client\b|\bhttpx\.|\bsocket\.(?:socket|create_connection)\b|\baiohttp\b")
_HOST = re.compile(r"https?://([\w.-]+)")


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or turn.counts["local data"] or not _NETWORK.search(block.code):
        return None
    words = instruction(turn.request)
    if NEEDS.search(words):
        return None  # asked for something online, or a URL given
    from oi_local.core.hints import mentioned_paths

    here = Path.cwd().resolve()
    named = [p for p in mentioned_paths(words, here) if p != here]
    if not named:
        return None
    turn.counts["local data"] += 1
    files = [str(p.relative_to(here)) if p.is_relative_to(here) else str(p) for p in named[:3]]
    host = _HOST.search(block.code)
    note = NOTE.format(host=f" ({host.group(1)})" if host else "", files=" and ".join(files), first=files[0])
    return Verdict(note=note, ask=code_again(turn.engine, note, 63))


rule = Rule(
    name="local data", setting="repair_slips", check=check,
    summary="code that goes to the internet (requests, urllib, httpx, a socket) for a request that names a file or "
            "folder that is here and asks for nothing online is not run; the model is told the data is in that file "
            "(once a turn)")
