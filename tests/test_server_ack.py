"""INTERPRETER_REQUIRE_ACKNOWLEDGE: ids, acks, resends, and exactly-once delivery to a client that
acks, over real sockets (including a dropped connection and a reconnect)."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from test_server_ws import COMPLETE, KEY, make_template, say, text_of

from oi_local.server.config import ServerConfig
from oi_local.server.server import Server


@pytest.fixture
def ack_server(tmp_path, monkeypatch):
    monkeypatch.setenv("INTERPRETER_REQUIRE_ACKNOWLEDGE", "True")
    monkeypatch.setenv("INTERPRETER_ACK_TIMEOUT", "1.0")
    monkeypatch.setenv("INTERPRETER_ACK_WINDOW", "4")
    cfg = ServerConfig.from_env(api_key=KEY, upload_dir=tmp_path / "uploads")
    assert cfg.require_ack and cfg.ack_timeout == 1.0 and cfg.ack_window == 4
    srv = Server(make_template(auto_run=True), cfg).start(port=0)
    yield srv
    srv.stop()


def connect(srv: Server, session: str):
    return websockets.connect(f"ws://127.0.0.1:{srv.config.port}/?session={session}",
                              additional_headers={"Authorization": f"Bearer {KEY}"}, proxy=None)


async def ack(ws: Any, m: dict[str, Any]) -> None:
    await ws.send(json.dumps({"ack": m["id"]}))


def content(msgs: list[dict[str, Any]]) -> str:
    return text_of(msgs)


def test_prompt_acker_gets_every_message_once_in_order(ack_server) -> None:
    async def main() -> list[dict[str, Any]]:
        got = []
        async with connect(ack_server, "prompt") as ws:
            await say(ws, "stream 60")
            async with asyncio.timeout(30):
                while True:
                    m = json.loads(await ws.recv())
                    got.append(m)
                    await ack(ws, m)
                    if {k: v for k, v in m.items() if k != "id"} == COMPLETE:
                        break
            await asyncio.sleep(2.5)  # over two ack timeouts: nothing may be sent again
            try:
                async with asyncio.timeout(0.3):
                    extra = await ws.recv()
                got.append({"unexpected": extra})
            except TimeoutError:
                pass
        return got

    got = asyncio.run(main())
    ids = [m.get("id") for m in got]
    assert ids == list(range(1, len(got) + 1))  # every message has an id, none repeated
    assert content(got) == "".join(f"w{i} " for i in range(60))


def test_unacked_message_is_resent_until_acked_then_never_again(ack_server) -> None:
    async def main() -> list[int]:
        seen: list[int] = []
        async with connect(ack_server, "slow") as ws:
            await say(ws, "stream 10")
            held = False
            async with asyncio.timeout(30):
                while True:
                    m = json.loads(await ws.recv())
                    seen.append(m["id"])
                    if m["id"] == 3 and not held:
                        held = True  # hold this ack past the timeout: the server sends it again
                        continue
                    await ack(ws, m)
                    if m.get("content") == "complete" and m.get("role") == "server":
                        break
            await asyncio.sleep(2.5)
            try:
                async with asyncio.timeout(0.3):
                    seen.append(json.loads(await ws.recv())["id"])
            except TimeoutError:
                pass
        return seen

    seen = asyncio.run(main())
    assert seen.count(3) == 2  # sent, not acked in time, sent again, acked
    assert all(seen.count(i) == 1 for i in set(seen) - {3})
    assert sorted(set(seen)) == list(range(1, max(seen) + 1))


def test_reconnect_resends_only_what_was_never_acked(ack_server) -> None:
    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]], set[int]]:
        first: list[dict[str, Any]] = []
        acked: set[int] = set()
        ws = await connect(ack_server, "flaky")
        await say(ws, "stream 40")
        async with asyncio.timeout(30):
            while len(first) < 8:
                m = json.loads(await ws.recv())
                first.append(m)
                if m["id"] <= 5:
                    await ack(ws, m)
                    acked.add(m["id"])
        await asyncio.sleep(0.2)  # let the acks land before the connection drops
        await ws.close()
        second: list[dict[str, Any]] = []
        async with connect(ack_server, "flaky") as ws:
            async with asyncio.timeout(30):
                while True:
                    m = json.loads(await ws.recv())
                    second.append(m)
                    await ack(ws, m)
                    acked.add(m["id"])
                    if m.get("role") == "server" and m.get("content") == "complete":
                        break
        return first, second, acked

    first, second, acked = asyncio.run(main())
    first_ids = [m["id"] for m in first]
    second_ids = [m["id"] for m in second]
    assert first_ids == list(range(1, 9))
    assert not {1, 2, 3, 4, 5} & set(second_ids)  # acked: never sent again
    assert second_ids[:3] == [6, 7, 8]  # received but never acked: sent again on reconnect
    assert len(second_ids) == len(set(second_ids))
    assert sorted(acked) == list(range(1, max(second_ids) + 1))
    # Taking each id once, the client has the whole reply.
    by_id = {m["id"]: m for m in first + second}
    whole = [by_id[i] for i in sorted(by_id)]
    assert content(whole) == "".join(f"w{i} " for i in range(40))
    assert {k: v for k, v in whole[-1].items() if k != "id"} == COMPLETE
